/** Line and word diffs of printed requests. */
import { describe, expect, it } from 'vitest';
import { diffLines, hunks } from './diff.ts';

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
