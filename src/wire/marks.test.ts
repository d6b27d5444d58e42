/**
 * The wire views send a request's own cache breakpoints exactly where they are, and tool turns as
 * tool turns: expected bodies written out by hand from the providers' API references (Anthropic
 * Messages `cache_control` with `ttl`, `tool_use` / `tool_result`; OpenAI Chat `tool_calls` and
 * `tool` messages, Responses `function_call` / `function_call_output`, GPT-5.6
 * `prompt_cache_breakpoint`). A request without breakpoints keeps the default strategy (wire.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Breakpoint, RenderedMessage } from '../folds/types.ts';
import { toolsContent } from '../folds/tools.ts';
import { packWire, unpackWire } from './pack.ts';
import { toWire, type WireSource } from './index.ts';

const msg = (role: string, content: string, extra: Partial<RenderedMessage> = {}): RenderedMessage => ({ role, content, parts: [{ text: content, from: [1] }], ...extra });
const EPH = { type: 'ephemeral' };
const BP = { mode: 'explicit' };

const tools = toolsContent([{ name: 'read', parameters: { type: 'object' } }, { name: 'write' }, { name: 'list' }]);

describe('Anthropic: the request’s own breakpoints', () => {
  const src = (breakpoints: Breakpoint[]): WireSource => ({
    model: 'anthropic/claude-sonnet-4-5',
    messages: [msg('tools', tools), msg('system', 'Rules.'), msg('user', 'first line\nsecond line'), msg('assistant', 'ok'), msg('user', 'next')],
    breakpoints,
  });

  it('a tool, a system block (1 h) and the end of a message: cache_control on each, nothing else marked', () => {
    // The second tool's entry ends where toolEntryEnds says; the `tools` message is index 0.
    const end = tools.indexOf('"write"') + '"write"\n  }'.length;
    const body = toWire('anthropic', src([{ message: 0, end }, { message: 1, ttl: '1h' }, { message: 3 }]));
    expect(body.tools).toEqual([
      { name: 'read', input_schema: { type: 'object' } },
      { name: 'write', input_schema: { type: 'object', properties: {} }, cache_control: EPH },
      { name: 'list', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(body.system).toEqual([{ type: 'text', text: 'Rules.', cache_control: { type: 'ephemeral', ttl: '1h' } }]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'first line\nsecond line' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'ok', cache_control: EPH }] },
      { role: 'user', content: [{ type: 'text', text: 'next' }] },
    ]);
  });

  it('a breakpoint inside a message splits its text block there', () => {
    const body = toWire('anthropic', src([{ message: 2, end: 'first line\n'.length, ttl: '5m' }]));
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'first line\n', cache_control: { type: 'ephemeral', ttl: '5m' } },
          { type: 'text', text: 'second line' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      { role: 'user', content: [{ type: 'text', text: 'next' }] },
    ]);
    expect(body.system).toEqual([{ type: 'text', text: 'Rules.' }]);
  });

  it('a breakpoint at the start of a message ends with the block before it; the whole tool list names the last tool', () => {
    const body = toWire('anthropic', src([{ message: 0 }, { message: 2, end: 0 }]));
    expect((body.tools as { cache_control?: unknown }[]).map((t) => t.cache_control)).toEqual([undefined, undefined, EPH]);
    expect(body.system).toEqual([{ type: 'text', text: 'Rules.', cache_control: EPH }]);
  });

  it('five breakpoints are all sent (the economics report the API error, not the view)', () => {
    const body = toWire('anthropic', src([{ message: 0 }, { message: 1 }, { message: 2, end: 3 }, { message: 2 }, { message: 4 }]));
    expect(JSON.stringify(body).match(/cache_control/g)).toHaveLength(5);
  });
});

describe('OpenAI GPT-5.6 prompt_cache_breakpoint', () => {
  const src: WireSource = {
    model: 'openai/gpt-5.6-terra',
    messages: [msg('system', 'Rules.'), msg('user', 'ab'), msg('assistant', 'ok'), msg('user', 'cd')],
    breakpoints: [{ message: 0 }, { message: 1, end: 1 }, { message: 2 }],
  };

  it('Chat: text parts split where the breakpoint falls; none on assistant output', () => {
    expect(toWire('openai-chat', src).messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'Rules.', prompt_cache_breakpoint: BP }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a', prompt_cache_breakpoint: BP },
          { type: 'text', text: 'b' },
        ],
      },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'cd' },
    ]);
  });

  it('Responses: input_text parts', () => {
    expect(toWire('openai-responses', src).input).toEqual([
      { role: 'system', content: [{ type: 'input_text', text: 'Rules.', prompt_cache_breakpoint: BP }] },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'a', prompt_cache_breakpoint: BP },
          { type: 'input_text', text: 'b' },
        ],
      },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'cd' },
    ]);
  });

  it('a request without breakpoints sends none', () => {
    const { breakpoints: _, ...plain } = src;
    expect(JSON.stringify(toWire('openai-chat', plain))).not.toContain('prompt_cache_breakpoint');
    expect(JSON.stringify(toWire('openai-responses', plain))).not.toContain('prompt_cache_breakpoint');
  });
});

describe('tool turns (a layered transcript: call, result, then the reminder and the mandate)', () => {
  const src: WireSource = {
    model: 'anthropic/claude-sonnet-4-5',
    messages: [
      msg('system', 'S'),
      msg('user', 'task'),
      msg('assistant', 'patch a.go: add X', { toolCalls: [{ id: 'call_15', name: 'patch', input: {} }] }),
      msg('tool', 'ok: patched a.go', { toolCallId: 'call_15' }),
      msg('user', '## Reminder\nstay'),
      msg('user', '## remainingDelta\n1 left'),
    ],
    breakpoints: [{ message: 0 }, { message: 3 }],
  };

  it('Anthropic: tool_use after the call text, tool_result first in the next user message, then the user text', () => {
    expect(toWire('anthropic', src).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'task' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'patch a.go: add X' },
          { type: 'tool_use', id: 'call_15', name: 'patch', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_15', content: 'ok: patched a.go', cache_control: EPH },
          { type: 'text', text: '## Reminder\nstay' },
          { type: 'text', text: '## remainingDelta\n1 left' },
        ],
      },
    ]);
  });

  it('OpenAI Chat: tool_calls on the assistant message, a `tool` message with the matching id', () => {
    expect(toWire('openai-chat', src).messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'S', prompt_cache_breakpoint: BP }] },
      { role: 'user', content: 'task' },
      { role: 'assistant', content: 'patch a.go: add X', tool_calls: [{ id: 'call_15', type: 'function', function: { name: 'patch', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_15', content: [{ type: 'text', text: 'ok: patched a.go', prompt_cache_breakpoint: BP }] },
      { role: 'user', content: '## Reminder\nstay' },
      { role: 'user', content: '## remainingDelta\n1 left' },
    ]);
  });

  it('OpenAI Responses: function_call and function_call_output items with the matching call_id', () => {
    expect(toWire('openai-responses', src).input).toEqual([
      { role: 'system', content: [{ type: 'input_text', text: 'S', prompt_cache_breakpoint: BP }] },
      { role: 'user', content: 'task' },
      { role: 'assistant', content: 'patch a.go: add X' },
      { type: 'function_call', call_id: 'call_15', name: 'patch', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_15', output: [{ type: 'input_text', text: 'ok: patched a.go', prompt_cache_breakpoint: BP }] },
      { role: 'user', content: '## Reminder\nstay' },
      { role: 'user', content: '## remainingDelta\n1 left' },
    ]);
  });

  it('a `tool` message that answers no call stays user text', () => {
    const body = toWire('openai-chat', { model: 'm', messages: [msg('tool', 'orphan')] });
    expect(body.messages).toEqual([{ role: 'user', content: 'orphan' }]);
  });

  it('the packed page data carries tool turns and breakpoints (the browser writes the same views)', () => {
    const packed = JSON.parse(JSON.stringify(packWire(new Map([[7, src]])))) as ReturnType<typeof packWire>;
    const back = unpackWire(packed, 7)!;
    for (const f of ['anthropic', 'openai-chat', 'openai-responses'] as const) expect(toWire(f, back)).toEqual(toWire(f, src));
  });
});
