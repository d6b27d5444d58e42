/**
 * Where a breakpoint is printed: under the message's last line (whole message), under the block
 * line its position ends (at a line's end, or at the start of the next), with the character when
 * it falls inside a line or inside a one-line content — and the fixture comment reads back.
 */
import { describe, expect, it } from 'vitest';
import type { Breakpoint, RenderedMessage } from '../folds/types.ts';
import { BREAKPOINT_COMMENT, printedBreakpoints } from './breakpoints.ts';
import { printRequest } from './print.ts';
import { weave } from './weave.ts';

const m = (role: string, content: string, files?: unknown[]): RenderedMessage => ({ role, content, parts: [{ text: content, from: [] }], ...(files && { files }) });
const messages = [m('system', 'one line'), m('user', 'first\nsecond\nthird'), m('user', 'x', ['a.png'])];
const lines = printRequest('m', messages, []);
const at = (b: Breakpoint[]) => printedBreakpoints(lines, messages, b).map((p) => `${lines[p.after]!.text.trim()} | ${p.label}`);

describe('printedBreakpoints', () => {
  it('whole messages: under the last printed line (files included)', () => {
    expect(at([{ message: 0, ttl: '1h' }, { message: 1 }, { message: 2, ttl: '5m' }])).toEqual([
      'content: "one line" | cache breakpoint (1 h)',
      'third | cache breakpoint',
      '- "a.png" | cache breakpoint (5 min)',
    ]);
  });
  it('inside a block: at a line end, at the next line start, inside a line, at character 0', () => {
    expect(
      at([
        { message: 1, end: 5 },
        { message: 1, end: 6 },
        { message: 1, end: 9 },
        { message: 1, end: 0 },
      ]),
    ).toEqual(['first | cache breakpoint', 'first | cache breakpoint', 'second | cache breakpoint, after character 3 of the line above', 'content: |- | cache breakpoint']);
  });
  it('inside a one-line content: the character of the content', () => {
    expect(at([{ message: 0, end: 3 }])).toEqual(['content: "one line" | cache breakpoint, after character 3 of the content']);
  });
  it('the fixture comment sits under its line, first among the comments there, and reads back', () => {
    const marks = printedBreakpoints(lines, messages, [{ message: 0 }, { message: 1, end: 9, ttl: '1h' }]);
    const text = weave(lines, 4, [], marks);
    expect(text.split('\n').slice(2, 11)).toEqual([
      '  - role: system',
      '    content: "one line"',
      '    # ⚑ cache breakpoint',
      '  # ✂ provider cache: every token above this line is a byte-stable prefix (cached)',
      '  - role: user',
      '    content: |-',
      '      first',
      '      second',
      '      # ⚑ cache breakpoint (1 h), after character 3 of the line above',
    ]);
    for (const p of marks) expect(BREAKPOINT_COMMENT.test(`⚑ ${p.label}`)).toBe(true);
    expect(BREAKPOINT_COMMENT.test('⚑ cache breakpoint (2 h)')).toBe(false);
  });
});
