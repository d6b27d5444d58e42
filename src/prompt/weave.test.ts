/** The ✂ cache cut, annotation anchors and the woven fixture text. */
import { describe, expect, it } from 'vitest';
import type { Annotation } from '../scenarios/model.ts';
import type { InputError } from '../scenarios/errors.ts';
import type { PrintedLine } from './print.ts';
import { cacheCut, closestLines, CUT_COMMENT, resolveAnchors, weave } from './weave.ts';

const L = (...texts: string[]): PrintedLine[] => texts.map((text) => ({ text, from: [], message: 0 }));
const pos = { file: 'scenarios/x.yaml', line: 7, col: 11 };
const ann = (find: string, comment: string, occurrence?: number): Annotation => ({ request: 5, find, comment, pos, findPos: pos, ...(occurrence && { occurrence }) });

describe('cacheCut', () => {
  it('is the first differing line, or the end of the previous request', () => {
    expect(cacheCut(L('a', 'b', 'c'), null)).toBeNull();
    expect(cacheCut(L('a', 'b', 'c'), ['a', 'x', 'c'])).toBe(1);
    expect(cacheCut(L('a', 'b', 'c', 'd'), ['a', 'b'])).toBe(2);
    expect(cacheCut(L('a', 'b'), ['a', 'b'])).toBeNull();
    expect(cacheCut(L('z'), ['a'])).toBe(0);
  });
});

describe('anchors and weaving', () => {
  it('puts the cut first, then annotations in file order, indented like their line', () => {
    const lines = L('model: m', 'messages:', '  - role: user', '    content: "hi there"');
    const errors: InputError[] = [];
    const anchors = resolveAnchors(lines, [ann('hi', 'first'), ann('there', 'second')], errors);
    expect(errors).toEqual([]);
    expect(anchors.map((a) => [a.line, a.start, a.end])).toEqual([
      [3, 14, 16],
      [3, 17, 22],
    ]);
    expect(weave(lines, 3, anchors)).toBe(['model: m', 'messages:', '  - role: user', `    # ${CUT_COMMENT}`, '    # first', '    # second', '    content: "hi there"'].join('\n'));
  });

  it('a comment on an empty line inside a `|-` block takes the block’s indentation, never column 0 (which would end the block)', () => {
    const lines: PrintedLine[] = [
      { text: 'messages:', from: [], message: -1 },
      { text: '  - role: system', from: [], message: 0 },
      { text: '    content: |-', from: [], message: 0 },
      { text: '      first paragraph', from: [], message: 0 },
      { text: '', from: [], message: 0 },
      { text: '      second paragraph', from: [], message: 0 },
    ];
    const anchors = resolveAnchors(lines, [ann('second', 'on the paragraph')], []);
    expect(weave(lines, 4, anchors).split('\n')).toEqual([
      'messages:',
      '  - role: system',
      '    content: |-',
      '      first paragraph',
      `      # ${CUT_COMMENT}`,
      '',
      '      # on the paragraph',
      '      second paragraph',
    ]);
    // Past the last line (a request that only grew) the comment stays at column 0.
    expect(weave(lines, 6, []).split('\n').at(-1)).toBe(`# ${CUT_COMMENT}`);
  });

  it('anchors the first matching line unless an occurrence is given, and counts matches', () => {
    const lines = L('x = 1', 'x = 2', 'x = 3');
    const [first, third] = resolveAnchors(lines, [ann('x =', 'a'), ann('x =', 'b', 3)], []);
    expect([first!.line, first!.matches, third!.line]).toEqual([0, 3, 2]);
  });

  it('reports a stale find with the closest lines, and an occurrence out of range', () => {
    const errors: InputError[] = [];
    resolveAnchors(L('<section key="identity">', 'You are helpful.', '</section>'), [ann('<section key="identty">', 'typo'), ann('You are', 'second', 2)], errors);
    expect(errors[0]).toEqual({
      pos,
      message: 'stale anchor: find "<section key=\\"identty\\">" matches no line of request @5',
      detail: ['closest rendered lines:', '  | <section key="identity">', '  | </section>'], // lines sharing nothing are not suggested
      fix: 'change `find:` to text the rendered request contains (see the closest lines), or remove the annotation if what it explained is gone',
    });
    expect(errors[1]).toMatchObject({ message: 'find "You are" matches 1 line of request @5, but occurrence is 2', fix: 'use an occurrence from 1 to 1, or remove `occurrence:`' });
  });

  it('ranks closest lines by shared character pairs', () => {
    expect(closestLines('deploys require green', ['nothing alike', 'deploys now REQUIRE a green preview', 'deploy'], 2)).toEqual(['deploys now REQUIRE a green preview', 'deploy']);
  });
});
