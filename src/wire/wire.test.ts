/**
 * Mapping tests: one fold request with every kind of role, mapped to each provider format and
 * compared with JSON written out by hand from the providers' API references — roles, merges,
 * system blocks, breakpoints, tools — plus the breakpoint strategy and the cURL command.
 */
import { describe, expect, it } from 'vitest';
import type { RenderedMessage } from '../folds/types.ts';
import { toolsContent } from '../folds/tools.ts';
import { cacheBreakpoints } from '../providers/anthropic/breakpoints.ts';
import { curlCommand, toWire, wireJson, WIRE_FORMATS } from './index.ts';

const msg = (role: string, content: string): RenderedMessage => ({ role, content, parts: [{ text: content, from: [1] }] });

const tools = toolsContent([
  { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'now' },
  { type: 'web_search_preview' },
]);

const request = {
  model: 'openai/gpt-5',
  messages: [
    msg('tools', tools),
    msg('system', 'You are terse.'),
    msg('system', 'Project: harbor.'),
    msg('developer', 'Requested at: 16:41'),
    msg('user', 'hi'),
    msg('assistant', 'hello'),
    msg('system', 'late note'),
    msg('tool', '[tool_result] {"tool_call_id":"c1"}\n42'),
    msg('user', ''),
    msg('user', 'next?'),
  ],
};

describe('OpenAI Chat Completions', () => {
  it('keeps every message in place, maps roles Chat lacks to user, tools as function tools', () => {
    expect(toWire('openai-chat', request)).toEqual({
      model: 'gpt-5',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'system', content: 'Project: harbor.' },
        { role: 'developer', content: 'Requested at: 16:41' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
        { role: 'system', content: 'late note' },
        { role: 'user', content: '[tool_result] {"tool_call_id":"c1"}\n42' },
        { role: 'user', content: '' },
        { role: 'user', content: 'next?' },
      ],
      tools: [
        { type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },
        { type: 'function', function: { name: 'now' } },
        { type: 'web_search_preview' },
      ],
    });
  });
});

describe('OpenAI Responses', () => {
  it('puts every message in input as {role, content}, tools flat', () => {
    expect(toWire('openai-responses', request)).toEqual({
      model: 'gpt-5',
      input: [
        { role: 'system', content: 'You are terse.' },
        { role: 'system', content: 'Project: harbor.' },
        { role: 'developer', content: 'Requested at: 16:41' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
        { role: 'system', content: 'late note' },
        { role: 'user', content: '[tool_result] {"tool_call_id":"c1"}\n42' },
        { role: 'user', content: '' },
        { role: 'user', content: 'next?' },
      ],
      tools: [
        { type: 'function', name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
        { type: 'function', name: 'now' },
        { type: 'web_search_preview' },
      ],
    });
  });
});

describe('Anthropic Messages', () => {
  it('leading system → system blocks, merges same-role turns, a late system message stays a system turn (mid-conversation), developer/tool to user, two breakpoints', () => {
    expect(toWire('anthropic', request)).toEqual({
      model: 'gpt-5',
      max_tokens: 4096,
      tools: [
        { name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
        { name: 'now', input_schema: { type: 'object', properties: {} } },
        { type: 'web_search_preview' },
      ],
      system: [
        { type: 'text', text: 'You are terse.' },
        { type: 'text', text: 'Project: harbor.', cache_control: { type: 'ephemeral' } },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Requested at: 16:41' },
            { type: 'text', text: 'hi' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
        { role: 'system', content: [{ type: 'text', text: 'late note' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: '[tool_result] {"tool_call_id":"c1"}\n42' },
            { type: 'text', text: 'next?', cache_control: { type: 'ephemeral' } },
          ],
        },
      ],
    });
  });

  it('without a system prompt: one breakpoint, on the last message; no `system` field', () => {
    expect(toWire('anthropic', { model: 'claude-x', messages: [msg('user', 'a'), msg('user', 'b')] })).toEqual({
      model: 'claude-x',
      max_tokens: 4096,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b', cache_control: { type: 'ephemeral' } },
          ],
        },
      ],
    });
  });

  it('a breakpoint on an empty last message moves to the block before it', () => {
    const body = toWire('anthropic', { model: 'm', messages: [msg('system', 's'), msg('user', 'q'), msg('assistant', '')] });
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'q', cache_control: { type: 'ephemeral' } }] }]);
  });

  it('a tools message that is not a JSON list is plain user text', () => {
    const body = toWire('anthropic', { model: 'm', messages: [msg('tools', 'not json')] });
    expect(body.tools).toBeUndefined();
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'not json', cache_control: { type: 'ephemeral' } }] }]);
  });
});

describe('cacheBreakpoints (the common agent strategy)', () => {
  const roles = (...r: string[]) => r.map((role) => ({ role }));
  it('marks the end of the leading system run and the last message', () => {
    expect(cacheBreakpoints(roles('system', 'system', 'user', 'assistant', 'user'))).toEqual([1, 4]);
    expect(cacheBreakpoints(roles('tools', 'system', 'user'))).toEqual([1, 2]);
  });
  it('one breakpoint when there is no system prompt or the system prompt is everything', () => {
    expect(cacheBreakpoints(roles('user', 'system', 'user'))).toEqual([2]);
    expect(cacheBreakpoints(roles('system'))).toEqual([0]);
    expect(cacheBreakpoints(roles('system', 'tools'))).toEqual([0]);
    expect(cacheBreakpoints([])).toEqual([]);
  });
});

describe('copy as JSON / cURL', () => {
  it('JSON is the body pretty-printed', () => {
    expect(wireJson('openai-chat', { model: 'x/y', messages: [msg('user', 'a')] })).toBe(
      '{\n  "model": "y",\n  "messages": [\n    {\n      "role": "user",\n      "content": "a"\n    }\n  ]\n}',
    );
  });
  it('cURL names the key only as an environment variable and passes the body through a quoted here-document', () => {
    const json = wireJson('anthropic', { model: 'claude-x', messages: [msg('user', "it's $HOME `rm -rf /`")] });
    const cmd = curlCommand('anthropic', json);
    expect(cmd).toBe(
      [
        'curl https://api.anthropic.com/v1/messages \\',
        '  -H "x-api-key: $ANTHROPIC_API_KEY" \\',
        '  -H "anthropic-version: 2023-06-01" \\',
        '  -H "content-type: application/json" \\',
        "  --data-binary @- <<'JSON_BODY'",
        json,
        'JSON_BODY',
      ].join('\n'),
    );
    for (const f of WIRE_FORMATS) {
      const c = curlCommand(f, '{}');
      expect(c).toMatch(/\$(OPENAI_API_KEY|ANTHROPIC_API_KEY|AWS_BEARER_TOKEN_BEDROCK|GEMINI_API_KEY)/);
      expect(c).not.toMatch(/sk-|Bearer [^$]/);
    }
  });
});
