/**
 * The `requests` fold keeps an imported trace's own cache markers as the request's breakpoints, at
 * the exact character where the marked block ends in the normalised message: Anthropic
 * `cache_control` on a tool (the end of its entry in the `tools` message), a system block (with
 * `ttl: "1h"`), a message block; Anthropic's top-level automatic `cache_control` (the end of the
 * last message); OpenAI GPT-5.6 `prompt_cache_breakpoint` on Chat and Responses content parts. More
 * than Anthropic's 4 are all kept. Positions are checked against the block texts written here.
 */
import { describe, expect, it } from 'vitest';
import { breakpointProblems } from '../../folds/breakpoints.ts';
import type { Snapshot, StreamEvent } from '../../folds/types.ts';
import { requests } from './index.ts';

const sent = (format: string, body: unknown): StreamEvent => ({ offset: 1, type: 'request/sent', createdAt: '2026-08-24T16:41:00.000Z', payload: { format, body } });
const snap = (format: string, body: unknown): Snapshot => {
  const e = sent(format, body);
  expect(requests.validateEvent(e.type, e.payload)).toEqual([]);
  const s = requests.snapshots([e], {}, new Set([1]))[0]!;
  expect(breakpointProblems(s.breakpoints, s.messages)).toEqual([]);
  return s;
};
/** The text each breakpoint's prefix ends with (the last `n` characters before it). */
const endsWith = (s: Snapshot, n: number): string[] =>
  (s.breakpoints ?? []).map((b) => {
    const c = s.messages[b.message]!.content;
    const end = b.end ?? c.length;
    return c.slice(Math.max(0, end - n), end);
  });

const EPH = { type: 'ephemeral' };

describe('Anthropic markers', () => {
  const body = {
    model: 'claude-sonnet-4-5-20250929',
    max_tokens: 1024,
    tools: [
      { name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
      { name: 'write_file', input_schema: { type: 'object' }, cache_control: EPH },
      { name: 'list_dir', input_schema: { type: 'object' } },
    ],
    system: [
      { type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral', ttl: '1h' } },
      { type: 'text', text: 'Today is Tuesday.' },
    ],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Here is the repository map.', cache_control: EPH },
          { type: 'text', text: 'Fix the failing test.' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a.go' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'package a', cache_control: { type: 'ephemeral', ttl: '5m' } }] },
    ],
  };

  it('a tool, a system block (1 h), a message block and a tool result: each at the end of its block', () => {
    const s = snap('anthropic', body);
    expect(s.messages.map((m) => m.role)).toEqual(['tools', 'system', 'system', 'user', 'assistant', 'user']);
    expect(s.breakpoints).toEqual([
      { message: 0, end: s.messages[0]!.content.indexOf('"list_dir"') - '{\n    "name": '.length - ',\n  '.length },
      { message: 1, ttl: '1h' },
      { message: 3, end: 'Here is the repository map.'.length },
      { message: 5, ttl: '5m' },
    ]);
    // The tools breakpoint ends exactly after write_file's entry.
    const tools = s.messages[0]!.content;
    expect(JSON.parse(`${tools.slice(0, s.breakpoints![0]!.end)}]`)).toEqual([
      { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
      { name: 'write_file', parameters: { type: 'object' } },
    ]);
    expect(endsWith(s, 9).slice(1)).toEqual(['ng agent.', 'tory map.', 'package a']);
    // Markers are not printed.
    expect(s.messages.map((m) => m.content).join('\n')).not.toContain('cache_control');
  });

  it('the top-level automatic cache_control: the end of the last message, with its ttl', () => {
    const s = snap('anthropic', {
      model: 'claude-haiku-4-5',
      max_tokens: 10,
      cache_control: { type: 'ephemeral', ttl: '1h' },
      system: 'S',
      messages: [{ role: 'user', content: 'q' }],
    });
    expect(s.breakpoints).toEqual([{ message: 1, ttl: '1h' }]);
  });

  it('more than 4 markers are all kept', () => {
    const content = ['a', 'b', 'c', 'd', 'e'].map((text) => ({ type: 'text', text, cache_control: EPH }));
    const s = snap('anthropic', { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content }] });
    expect(s.breakpoints).toEqual([{ message: 0, end: 1 }, { message: 0, end: 3 }, { message: 0, end: 5 }, { message: 0, end: 7 }, { message: 0 }]);
  });

  it('a trace without markers carries no breakpoints (the profile default applies)', () => {
    expect(snap('anthropic', { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'q' }] }).breakpoints).toBeUndefined();
  });
});

describe('OpenAI GPT-5.6 prompt_cache_breakpoint', () => {
  const BP = { mode: 'explicit' };
  it('Chat: on a content part, after a tool result line', () => {
    const s = snap('openai-chat', {
      model: 'gpt-5.6-terra',
      messages: [
        {
          role: 'developer',
          content: [
            { type: 'text', text: 'Stable instructions.', prompt_cache_breakpoint: BP },
            { type: 'text', text: 'Now: 10:00' },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'result text', prompt_cache_breakpoint: { mode: 'explicit', ttl: '12h' } }] },
      ],
    });
    expect(s.breakpoints).toEqual([{ message: 0, end: 'Stable instructions.'.length }, { message: 1 }]);
    expect(s.messages[1]!.content).toBe('[tool_result] {"tool_call_id":"c1"}\nresult text');
  });

  it('Responses: on an input_text part', () => {
    const s = snap('openai-responses', {
      model: 'gpt-5.6-sol',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Long document.', prompt_cache_breakpoint: BP },
            { type: 'input_text', text: 'Question?' },
          ],
        },
      ],
    });
    expect(s.breakpoints).toEqual([{ message: 0, end: 'Long document.'.length }]);
  });
});
