/** The request printer's abridgements: the stand-in is printed, and the line remembers the full text it replaces. */
import { describe, expect, it } from 'vitest';
import { printRequest } from './print.ts';

const msg = (role: string, content: string) => ({ role, content, parts: [{ text: content, from: [] as number[] }] });

describe('printRequest abridgements', () => {
  it('prints the stand-in and keeps the full text on that line only', () => {
    const boiler = 'A long protocol prompt.\nSecond line with <markup> & "quotes".';
    const lines = printRequest('m', [msg('system', boiler), msg('user', 'hello')], [{ text: boiler, standIn: 'PROTOCOL — abridged' }]);
    expect(lines.map((l) => l.text)).toEqual(['model: m', 'messages:', '  - role: system', '    content: "PROTOCOL — abridged"', '  - role: user', '    content: "hello"']);
    expect(lines.map((l) => l.abridges)).toEqual([undefined, undefined, undefined, boiler, undefined, undefined]);
  });

  it('a message that is not exactly the boilerplate is printed in full, with nothing to expand', () => {
    const lines = printRequest(null, [msg('system', 'A long protocol prompt, edited.')], [{ text: 'A long protocol prompt.', standIn: 'PROTOCOL' }]);
    expect(lines.map((l) => l.text)).toEqual(['messages:', '  - role: system', '    content: "A long protocol prompt, edited."']);
    expect(lines.every((l) => l.abridges === undefined)).toBe(true);
  });
});

describe('printRequest tool turns', () => {
  it('prints a call after its content and the id of the call a result answers, with the message’s provenance', () => {
    const call = { role: 'assistant', content: '', parts: [{ text: '', from: [4] }], toolCalls: [{ id: 'call_1', name: 'read_file', input: { path: 'a "b".go' } }] };
    const result = { role: 'tool', content: 'ok', parts: [{ text: 'ok', from: [5] }], toolCallId: 'call_1' };
    const lines = printRequest('m', [msg('user', 'hi'), call, result], []);
    expect(lines.map((l) => l.text)).toEqual([
      'model: m',
      'messages:',
      '  - role: user',
      '    content: "hi"',
      '  - role: assistant',
      '    content: ""',
      '    toolCalls:',
      '      - {"id":"call_1","name":"read_file","input":{"path":"a \\"b\\".go"}}',
      '  - role: tool',
      '    content: "ok"',
      '    toolCallId: "call_1"',
    ]);
    expect(lines.slice(4).map((l) => l.from)).toEqual([[4], [4], [4], [4], [5], [5], [5]]);
  });
});
