/**
 * The `requests` fold: each provider format normalises to the messages the model reads (tools
 * first, non-text parts as tagged lines, cache markers not printed — breakpoints.test.ts checks they
 * are kept as breakpoints), provenance is the first request
 * that carried a message, payloads are validated with located issues, and a scenario with
 * `fold: requests` renders through the whole pipeline.
 */
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../folds/types.ts';
import { BUILTIN_FOLDS } from '../index.ts';
import { renderTexts } from '../../corpus/check.ts';
import { formatError } from '../../scenarios/errors.ts';
import { requests } from './index.ts';
import { normalise } from './normalise.ts';

const sent = (offset: number, format: string, body: unknown): StreamEvent => ({ offset, type: 'request/sent', createdAt: '2026-08-24T16:41:00.000Z', payload: { format, body } });
const short = (format: Parameters<typeof normalise>[0], body: Record<string, unknown>) => normalise(format, body).map((m) => `${m.role}: ${m.text}`);

describe('normalise', () => {
  it('OpenAI Chat: roles kept, text parts joined, tool calls and results as tagged lines, tools first', () => {
    expect(
      short('openai-chat', {
        model: 'gpt-5',
        tools: [{ type: 'function', function: { name: 'read', description: 'Read', parameters: { type: 'object' } } }],
        messages: [
          { role: 'system', content: 'S' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'a' },
              { type: 'image_url', image_url: { url: 'https://x/i.png' } },
            ],
          },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{"p":1}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: 'file text' },
        ],
      }),
    ).toEqual([
      'tools: [\n  {\n    "name": "read",\n    "description": "Read",\n    "parameters": {\n      "type": "object"\n    }\n  }\n]',
      'system: S',
      'user: a\n[image_url] {"image_url":{"url":"https://x/i.png"}}',
      'assistant: [tool_call] {"id":"c1","function":{"name":"read","arguments":"{\\"p\\":1}"}}',
      'tool: [tool_result] {"tool_call_id":"c1"}\nfile text',
    ]);
  });

  it('OpenAI Responses: instructions → system, string input → user, function items tagged', () => {
    expect(short('openai-responses', { model: 'm', instructions: 'I', input: 'hi' })).toEqual(['system: I', 'user: hi']);
    expect(
      short('openai-responses', {
        model: 'm',
        input: [
          { role: 'developer', content: [{ type: 'input_text', text: 'D' }] },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'A' }] },
          { type: 'function_call', call_id: 'k', name: 'f', arguments: '{}' },
          { type: 'function_call_output', call_id: 'k', output: 'out' },
        ],
      }),
    ).toEqual(['developer: D', 'assistant: A', 'assistant: [function_call] {"call_id":"k","name":"f","arguments":"{}"}', 'tool: [function_call_output] {"call_id":"k"}\nout']);
  });

  it('Anthropic: system blocks → system messages, cache_control not printed, tool_use / tool_result tagged, tools normalised', () => {
    expect(
      short('anthropic', {
        model: 'claude',
        max_tokens: 100,
        tools: [
          { name: 'read', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } },
          { type: 'web_search_20250305', name: 'web_search' },
        ],
        system: [
          { type: 'text', text: 'S1' },
          { type: 'text', text: 'S2', cache_control: { type: 'ephemeral' } },
        ],
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'let me look' },
              { type: 'tool_use', id: 't1', name: 'read', input: { p: 1 } },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'body' }], cache_control: { type: 'ephemeral' } }] },
        ],
      }),
    ).toEqual([
      'tools: [\n  {\n    "name": "read",\n    "parameters": {\n      "type": "object"\n    }\n  },\n  {\n    "type": "web_search_20250305",\n    "name": "web_search"\n  }\n]',
      'system: S1',
      'system: S2',
      'user: q',
      'assistant: let me look\n[tool_use] {"id":"t1","name":"read","input":{"p":1}}',
      'user: [tool_result] {"tool_use_id":"t1"}\nbody',
    ]);
  });

  it('OpenTelemetry GenAI: system instructions and parts', () => {
    expect(
      short('otel-genai', {
        model: 'gpt-5',
        system_instructions: [{ type: 'text', content: 'S' }],
        input_messages: [
          { role: 'user', parts: [{ type: 'text', content: 'q' }] },
          { role: 'assistant', parts: [{ type: 'tool_call', id: 'c', name: 'f', arguments: { a: 1 } }] },
          { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c', response: 'r' }] },
        ],
      }),
    ).toEqual(['system: S', 'user: q', 'assistant: [tool_call] {"id":"c","name":"f","arguments":{"a":1}}', 'tool: [tool_call_response] {"id":"c"}\nr']);
  });
});

describe('snapshots', () => {
  it('each request is its payload; a message links to the first request that carried it', () => {
    const events = [
      sent(1, 'openai-chat', {
        model: 'gpt-5',
        messages: [
          { role: 'system', content: 'S' },
          { role: 'user', content: 'q1' },
        ],
      }),
      sent(2, 'openai-chat', {
        model: 'gpt-5',
        messages: [
          { role: 'system', content: 'S' },
          { role: 'user', content: 'q1' },
          { role: 'assistant', content: 'a1' },
          { role: 'user', content: 'q2' },
        ],
      }),
      sent(3, 'openai-chat', {
        model: 'gpt-5.1',
        messages: [
          { role: 'system', content: 'S v2' },
          { role: 'user', content: 'q1' },
        ],
      }),
    ];
    const snaps = requests.snapshots(events, {}, new Set([1, 2, 3]));
    expect(snaps.map((s) => s.request?.model)).toEqual(['gpt-5', 'gpt-5', 'gpt-5.1']);
    expect(snaps[1]!.messages.map((m) => [m.role, m.content, m.parts[0]!.from])).toEqual([
      ['system', 'S', [1]],
      ['user', 'q1', [1]],
      ['assistant', 'a1', [2]],
      ['user', 'q2', [2]],
    ]);
    expect(snaps[2]!.messages.map((m) => m.parts[0]!.from)).toEqual([[3], [1]]);
    for (const s of snaps) for (const m of s.messages) expect(m.parts.map((p) => p.text).join('')).toBe(m.content);
  });
});

describe('validateEvent', () => {
  it('accepts bodies with extra request parameters', () => {
    expect(
      requests.validateEvent('request/sent', { format: 'anthropic', body: { model: 'c', max_tokens: 5, temperature: 0, messages: [{ role: 'user', content: 'x' }] } }),
    ).toEqual([]);
  });
  it('names the field: unknown format, missing messages, bad role, unknown payload field, item without role or type', () => {
    const issues = (p: unknown) => requests.validateEvent('request/sent', p).map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues({ format: 'mistral', body: {} })[0]).toMatch(/^format: `format` is the string "mistral", which is not allowed/);
    expect(issues({ format: 'openai-chat', body: { model: 'm' } })).toEqual(['body.messages: missing required field `messages`']);
    expect(issues({ format: 'anthropic', body: { model: 'm', messages: [{ role: 'system', content: 'x' }] } })[0]).toMatch(/^body\.messages\.0\.role: /);
    expect(issues({ format: 'openai-chat', body: { model: 'm', messages: [{ role: 'user', content: 'x' }] }, extra: 1 })).toEqual(['extra: unknown field `extra`']);
    expect(issues({ format: 'openai-responses', body: { model: 'm', input: [{ content: 'x' }] } })).toEqual(['body.input.0: input item 0 has neither `role` nor `type`']);
  });
  it('measured output tokens: a whole number ≥ 0, or left out', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'x' }] };
    const issues = (measured: unknown) => requests.validateEvent('request/sent', { format: 'openai-chat', measured, body }).map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues({ inputTokens: 10, outputTokens: 7 })).toEqual([]);
    expect(issues({ inputTokens: 10 })).toEqual([]);
    expect(issues({ inputTokens: 10, outputTokens: -1 })[0]).toMatch(/^measured\.outputTokens: /);
    expect(issues({ inputTokens: 10, outputTokens: 2.5 })[0]).toMatch(/^measured\.outputTokens: /);
  });
});

describe('in the scenario pipeline', () => {
  const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
  const run = async (text: string) => await renderTexts([{ file: 'scenarios/30-x.yaml', text }], config, { everyEvent: false });
  it('renders a `fold: requests` scenario, with a ✂ line where the system prompt changed', async () => {
    const r = await run(`id: x
title: X
fold: requests
events:
  - off: 1
    t: 0ms
    type: request/sent
    payload: {format: openai-chat, body: {model: gpt-5, messages: [{role: system, content: "S at 10:00"}, {role: user, content: q}]}}
  - off: 2
    t: 5s
    type: request/sent
    payload: {format: openai-chat, body: {model: gpt-5, messages: [{role: system, content: "S at 10:05"}, {role: user, content: q}]}}
`);
    expect(r.errors.map(formatError)).toEqual([]);
    const [, second] = r.scenarios[0]!.requests;
    expect(second!.lines[second!.cut!]!.text).toBe('    content: "S at 10:05"');
    expect(second!.text).toContain('# ✂ provider cache');
  });
  it('a bad payload is a located error with its fix', async () => {
    const r = await run(`id: x
title: X
fold: requests
events:
  - off: 1
    t: 0ms
    type: request/sent
    payload:
      format: openai-chat
      body: {model: gpt-5}
`);
    expect(r.errors.map(formatError)[0]).toMatch(/^scenarios\/30-x\.yaml:10:\d+ error: @1 request\/sent: missing required field `messages`\n {2}fix: add `messages:`/);
  });
});

describe('requests fold cards', () => {
  it('preview the model and the newest message; badge the format, the message count and the new ones', async () => {
    const { describe: describeCards } = await import('./describe.ts');
    const body = (msgs: { role: string; content: string }[]) => ({ model: 'gpt-x', messages: msgs });
    const e = (offset: number, msgs: { role: string; content: string }[]) => ({
      offset,
      type: 'request/sent',
      createdAt: '2026-01-01T00:00:00.000Z',
      payload: { format: 'openai-chat', body: body(msgs) },
    });
    const d = describeCards([
      e(1, [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ]),
      e(2, [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
        { role: 'user', content: 'bye' },
      ]),
    ]);
    expect(d[0]).toEqual({ preview: 'gpt-x — user: hi', badges: ['openai-chat', '2 messages', '2 new'] });
    expect(d[1]!.badges).toEqual(['openai-chat', '4 messages', '2 new']);
  });
});
