/** Line and word diffs of printed requests. */
import { describe, expect, it } from 'vitest';
import { diffArrays } from 'diff';
import { diffLines, hunks, lineChanges, wordParts } from './diff.ts';
import { diffPane } from './view.ts';

describe('diffLines', () => {
  it('pairs a removed and an added line as a change with word segments', () => {
    const d = diffLines(['a', '    content: "hello world"', 'z'], ['a', '    content: "hello there world"', 'z']);
    expect(d.rows.map((r) => r.kind)).toEqual(['same', 'changed', 'same']);
    expect(d.added).toBe(1);
    expect(d.removed).toBe(1);
    const changed = d.rows[1]!;
    expect(changed.before!.segments.filter((s) => s.changed).map((s) => s.text)).toEqual([]);
    expect(
      changed
        .after!.segments.filter((s) => s.changed)
        .map((s) => s.text)
        .join(''),
    ).toContain('there');
    expect(changed.after!.segments.map((s) => s.text).join('')).toBe('    content: "hello there world"');
    expect(changed.before!.segments.map((s) => s.text).join('')).toBe('    content: "hello world"');
  });

  it('keeps line numbers on both sides through additions and removals', () => {
    const d = diffLines(['x', 'gone', 'y'], ['x', 'y', 'new1', 'new2']);
    expect(d.rows.map((r) => [r.kind, r.before?.line ?? null, r.after?.line ?? null])).toEqual([
      ['same', 0, 0],
      ['removed', 1, null],
      ['same', 2, 1],
      ['added', null, 2],
      ['added', null, 3],
    ]);
    expect([d.added, d.removed]).toEqual([2, 1]);
  });

  it('reports an addition and a removal of the whole request', () => {
    expect(diffLines([], ['a', 'b'])).toMatchObject({ added: 2, removed: 0 });
    expect(diffLines(['a', 'b'], [])).toMatchObject({ added: 0, removed: 2 });
    expect(diffLines(['a'], ['a'])).toMatchObject({ added: 0, removed: 0, rows: [{ kind: 'same' }] });
  });
});

describe('texts with nothing in common (a rewrite), within a work budget', () => {
  const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} line ${i}`);
  // Two long lines with nothing in common: a minified tool result, rewritten (20,000 words took minutes word by word).
  const longLine = (tag: string) => Array.from({ length: 20_000 }, (_, i) => `${tag}${i}`).join(' ');

  it('lineChanges is the array diff while the work is small, and one removal and one insertion past it', () => {
    const a = ['a', 'b', 'c', 'd'];
    const b = ['a', 'x', 'c', 'd', 'e'];
    expect(lineChanges(a, b)).toEqual(diffArrays(a, b));
    const before = lines(10_000, 'old');
    const after = lines(10_000, 'new');
    expect(lineChanges(before, after)).toEqual([
      { value: before, count: 10_000, added: false, removed: true },
      { value: after, count: 10_000, added: true, removed: false },
    ]);
    expect(lineChanges([], after)).toEqual([{ value: after, count: 10_000, added: true, removed: false }]);
  });

  it('diffLines: every line of a rewrite is changed, and two long lines with nothing in common are marked whole', () => {
    const d = diffLines(lines(10_000, 'old'), lines(10_000, 'new'));
    expect([d.added, d.removed, d.rows.length]).toEqual([10_000, 10_000, 10_000]);
    expect(d.rows.every((r) => r.kind === 'changed')).toBe(true);
    const [a, b] = [longLine('w'), longLine('v')];
    const one = diffLines(['same', a], ['same', b]).rows[1]!;
    expect(one.kind).toBe('changed');
    expect(one.before!.segments).toEqual([{ text: a, changed: true }]);
    expect(one.after!.segments).toEqual([{ text: b, changed: true }]);
    expect(wordParts(a, b)).toEqual([
      { op: '-', text: a },
      { op: '+', text: b },
    ]);
  });

  it('a page model pane of a rewrite: each new line changed, with its old text', () => {
    const printed = (texts: string[]) => texts.map((text) => ({ text, from: [], message: 0 }));
    const d = diffPane(printed(lines(10_000, 'new')), printed(lines(10_000, 'old')), false);
    expect(d.status.every((s) => s === 'changed')).toBe(true);
    expect([d.old[0], d.old[9_999], d.removedAtEnd]).toEqual(['old line 0', 'old line 9999', []]);
  });
});

describe('hunks', () => {
  it('keeps the changes with their context and folds the rest into gaps', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
    const after = ['a', 'b', 'c', 'd', 'E', 'f', 'g', 'h', 'i'];
    const h = hunks(diffLines(before, after).rows, 1);
    expect(h.map((r) => (r.kind === 'gap' ? `…${r.lines}` : r.kind))).toEqual(['…3', 'same', 'changed', 'same', '…3']);
  });

  it('is all gap when nothing changed, and everything when all did', () => {
    expect(hunks(diffLines(['a', 'b'], ['a', 'b']).rows)).toEqual([{ kind: 'gap', lines: 2 }]);
    expect(hunks(diffLines([], ['x']).rows).map((r) => r.kind)).toEqual(['added']);
  });
});
