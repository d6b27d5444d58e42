/**
 * The pane data format round-trips: what pane-data.ts writes for a chain of panes, the page's
 * decoder reads back exactly (line ids, provenance ids, change marks), whatever changed between
 * two panes — lines appended, inserted, removed, rewritten, a pane that shrinks to nothing — and
 * the encoding of similar panes stays small.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { marksOf, marksRle, mergePaneData, paneDecoder, splice, unsplice, type EncodedPane, type PaneData } from './pane-codec.ts';
import { mergeWire } from '../wire/pack.ts';

describe('splice / unsplice', () => {
  it('writes a pane against the one before it and reads it back', () => {
    expect(splice([1, 2, 3], [1, 2, 3, 4, 5], true)).toEqual([3, 0, 4, 2]);
    expect(splice([1, 2, 3], [1, 9, 3], false)).toEqual([1, 1, 9, 1]);
    expect(splice([1, 2, 3], [], true)).toEqual([0, 0]);
    expect(unsplice([1, 2, 3], [3, 0, 4, 2], true)).toEqual([1, 2, 3, 4, 5]);
    expect(unsplice([1, 2, 3], [1, 1, 9, 1], false)).toEqual([1, 9, 3]);
  });

  it('round-trips any two lists (property)', () => {
    const list = fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 30 });
    fc.assert(
      fc.property(list, list, fc.boolean(), (prev, next, consecutive) => {
        expect(unsplice(prev, splice(prev, next, consecutive), consecutive)).toEqual(next);
      }),
      { seed: 1, numRuns: 500 },
    );
  });
});

describe('change marks', () => {
  it('run-length encodes them and reads them back', () => {
    expect(marksRle('.....+++~.')).toBe('.5+3~.');
    expect(marksOf('.5+3~.').join('')).toBe('.....+++~.');
    expect(marksRle('')).toBe('');
    fc.assert(
      fc.property(fc.array(fc.constantFrom('.', '+', '~'), { maxLength: 200 }), (m) => {
        expect(marksOf(marksRle(m.join(''))).join('')).toBe(m.join(''));
      }),
      { seed: 1, numRuns: 300 },
    );
  });
});

describe('paneDecoder', () => {
  /** A chain of panes as pane-data.ts writes it: each against the one before. */
  function encode(panes: { ids: number[]; from: number[]; marks: string }[]): PaneData {
    const out: Record<number, EncodedPane> = {};
    panes.forEach((p, i) => {
      const prev = panes[i - 1];
      out[(i + 1) * 10] = {
        kind: 'state',
        ...(prev && { prev: i * 10 }),
        lines: splice(prev?.ids ?? [], p.ids, true),
        from: splice(prev?.from ?? [], p.from, false),
        status: marksRle(p.marks),
        removed: [],
        removedAtEnd: [],
        old: [],
      };
    });
    return { html: [], text: [], from: [], panes: out };
  }

  it('decodes every pane of a chain, in any order of selection', () => {
    const panes = [
      { ids: [0, 1, 2], from: [0, 0, 1], marks: '+++' },
      { ids: [0, 1, 2, 3, 4], from: [0, 0, 1, 2, 2], marks: '...++' },
      { ids: [0, 5, 2, 3, 4], from: [0, 3, 1, 2, 2], marks: '.~...' },
      { ids: [], from: [], marks: '' },
      { ids: [6], from: [4], marks: '+' },
    ];
    const data = encode(panes);
    for (const order of [
      [50, 10, 30],
      [10, 20, 30, 40, 50],
    ]) {
      const decode = paneDecoder(data);
      for (const off of order) {
        const p = panes[off / 10 - 1]!;
        expect(decode(off)).toEqual({ ids: p.ids, from: p.from, tools: [], marks: [...p.marks] });
      }
    }
    expect(paneDecoder(data)(99)).toBeUndefined();
  });

  it('keeps a growing prompt small: a pane that appends lines costs its new lines, not the whole prompt', () => {
    const panes = Array.from({ length: 50 }, (_, k) => ({
      ids: Array.from({ length: 200 + k * 4 }, (_, i) => i),
      from: Array.from({ length: 200 + k * 4 }, (_, i) => Math.floor(i / 4)),
      marks: `${'.'.repeat(200 + k * 4 - 4)}++++`,
    }));
    const data = encode(panes);
    // the 50th pane (396 lines) costs what the 2nd (204 lines) does: its four new lines
    const size = (off: number): number => JSON.stringify(data.panes[off]).length;
    expect(size(500)).toBeLessThanOrEqual(size(20) + 4);
    expect(size(500)).toBeLessThan(150);
    const decode = paneDecoder(data);
    expect(decode(500)!.ids).toEqual(panes[49]!.ids);
    expect(decode(500)!.from).toEqual(panes[49]!.from);
  });
});

describe('a data part read on top of the part it continues', () => {
  const base: PaneData = {
    html: ['a', 'b'],
    text: ['t'],
    from: ['1'],
    panes: { 1: { kind: 'request', lines: [0, 0, 0, 2], from: [0, 0, 0, 2], status: '..', removed: [], removedAtEnd: [], old: [] } },
  };
  const part: PaneData = {
    html: ['c'],
    text: [],
    from: ['2'],
    start: [2, 1, 1],
    panes: { 2: { kind: 'request', prev: 1, lines: [2, 0, 2, 1], from: [2, 0, 1, 1], status: '..+', removed: [], removedAtEnd: [], old: [] } },
  };

  it('goes on from its tables and decodes its panes against the part’s before', () => {
    const merged = mergePaneData(base, part);
    expect(merged.html).toEqual(['a', 'b', 'c']);
    expect(merged.from).toEqual(['1', '2']);
    const lists = paneDecoder(merged)(2)!;
    expect(lists.ids.map((id) => merged.html[id])).toEqual(['a', 'b', 'c']);
    expect(lists.from.map((id) => merged.from[id])).toEqual(['1', '1', '2']);
  });

  it('refuses a part whose tables do not go on from the part named before it', () => {
    expect(() => mergePaneData({ ...base, html: ['a'] }, part)).toThrow('a data part continues tables of 2/1/1 entries, but the part before it has 1/1/1');
    expect(() => mergeWire(null, { messages: [['user', 'x']], requests: {}, start: 3 })).toThrow("a data part's wire messages continue from 3, but the part before it has 0");
    expect(mergeWire({ messages: [['user', 'a']], requests: {} }, { messages: [['user', 'b']], requests: { 2: ['m', [0, 1]] }, start: 1 }).messages).toEqual([
      ['user', 'a'],
      ['user', 'b'],
    ]);
  });
});
