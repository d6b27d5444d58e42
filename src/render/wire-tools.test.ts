/**
 * The tool calls of a provider JSON body, found for the wire views (wire-tools.ts), on bodies of our
 * own in the shapes the wire writers produce: a structured OpenAI Chat call whose `arguments` is a
 * JSON string, Anthropic `tool_use` / `tool_result` blocks, a tool definition that must not count,
 * and an imported request's normalised `[tool_call] {…}` line inside a text string. The expected
 * YAML is written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { toWire } from '../wire/index.ts';
import { wireToolCalls, wireToolHeading } from './wire-tools.ts';

describe('wireToolCalls', () => {
  it('an OpenAI Chat call: name, the id on the object around `function`, its JSON-string arguments as YAML; the result paired by id', () => {
    const body = {
      model: 'gpt-4.1',
      tools: [{ type: 'function', function: { name: 'edit', parameters: { type: 'object' } } }],
      messages: [
        { role: 'user', content: 'Fix it.' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'edit', arguments: '{"path":"a.ts","old":"x\\ny"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'done' },
      ],
    };
    const tools = wireToolCalls(body);
    expect(tools).toEqual([
      { kind: 'call', name: 'edit', id: 'call_1', at: 'messages[1].tool_calls[0].function', input: '  path: a.ts\n  old: |-\n    x\n    y' },
      { kind: 'result', id: 'call_1', name: 'edit', at: 'messages[2]' },
    ]);
    expect(tools.map(wireToolHeading)).toEqual(['Tool call edit (call_1) at messages[1].tool_calls[0].function', 'Tool result ← edit (call_1) at messages[2]']);
  });

  it('Anthropic blocks: tool_use with an object input, tool_result answering it; a tool definition (input_schema) is not a call', () => {
    const body = {
      model: 'claude-sonnet-4-5',
      tools: [{ name: 'read', description: 'Read a file', input_schema: { type: 'object' } }],
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'read', input: { path: 'src/a.ts' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'export const a = 1;' }] },
      ],
    };
    expect(wireToolCalls(body)).toEqual([
      { kind: 'call', name: 'read', id: 'toolu_01', at: 'messages[0].content[0]', input: '  path: src/a.ts' },
      { kind: 'result', id: 'toolu_01', name: 'read', at: 'messages[1].content[0]' },
    ]);
  });

  it('an imported request: the normalised `[tool_call] {…}` line inside a text string, as the wire writers send it', () => {
    const call = `[tool_call] ${JSON.stringify({ id: 'call_9', function: { name: 'grep', arguments: JSON.stringify({ pattern: '<script>alert(1)</script>' }) } })}`;
    const body = toWire('anthropic', {
      model: 'claude-sonnet-4-5',
      messages: [
        { role: 'user', content: 'Search.', parts: [] },
        { role: 'assistant', content: call, parts: [] },
        { role: 'tool', content: '[tool_result] {"tool_call_id":"call_9"}\nno match', parts: [] },
      ],
    });
    const tools = wireToolCalls(body);
    // The pattern is data: kept as the text it is (the view writes text nodes), quoted as YAML quotes it.
    expect(tools[0]).toEqual({ kind: 'call', name: 'grep', id: 'call_9', at: 'messages[1].content[0].text (line 1)', input: '  pattern: <script>alert(1)</script>' });
    expect(tools[1]).toMatchObject({ kind: 'result', id: 'call_9', name: 'grep' });
    expect(tools[1]!.at).toMatch(/\.text \(line 1\)$/);
  });

  it('arguments that are not JSON are shown as the string they are; a body without tools has none', () => {
    const body = { messages: [{ role: 'assistant', tool_calls: [{ id: 'c', function: { name: 'run', arguments: 'ls -la' } }] }] };
    expect(wireToolCalls(body)).toEqual([{ kind: 'call', name: 'run', id: 'c', at: 'messages[0].tool_calls[0].function', input: '  ls -la' }]);
    expect(wireToolCalls({ model: 'm', messages: [{ role: 'user', content: 'Hello [world]' }] })).toEqual([]);
  });
});
