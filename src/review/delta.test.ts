/**
 * A review's token and cost deltas from two sides' own figures: per request and per turn (each
 * side divided by its own number of turns), a scenario added (no before) or removed (no after),
 * and a base whose figures are unknown (its reason instead of a number). Expected texts are
 * written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { baseDeltas, reviewDelta, sideOf, type Figures } from './delta.ts';

const f = (inputTokens: number, cachedTokens: number, costUsd: number | null, exact = true): Figures => ({ inputTokens, cachedTokens, costUsd, exact });
const side = (entries: [number, Figures][]) => ({ kind: 'figures' as const, requests: new Map(entries) });

describe('reviewDelta', () => {
  it('compares each request and divides each side by its own turns', () => {
    // before: 2 turns of 1,000 and 1,441 (avg 1,220.5); after: 3 turns, 1,000 + 1,420 + 2,000 (avg 1,473.33)
    const d = reviewDelta(
      's',
      side([
        [21, f(1000, 0, 0.002)],
        [23, f(1441, 1000, 0.0015)],
      ]),
      side([
        [21, f(1000, 0, 0.002)],
        [23, f(1420, 1000, 0.00145)],
        [25, f(2000, 1408, 0.0016)],
      ]),
    );
    expect(d.requests.map((q) => q.text)).toEqual([
      'input 1,000 → 1,000 (±0); cached 0 % → 0 %; ±$0',
      'input 1,441 → 1,420 (−21); cached 69 % → 70 %; −$0.00005',
      'added: 2,000 input tokens, cached 70 %',
    ]);
    // per turn: 4,420/3 − 2,441/2 = 1,473.33 − 1,220.5 = +252.83 → +253; cost 0.00505/3 − 0.0035/2 = 0.0016833 − 0.00175 = −0.0000667
    expect(d.text).toBe('+253 input tokens per turn; cached 41 % → 54 %; −$0.0000667 per turn');
    expect(d.changed).toBe(true);
  });

  it('is unchanged when every figure is equal, and marks approximate counts', () => {
    const same = side([[1, f(500, 0, null, false)]]);
    const d = reviewDelta('s', same, same);
    expect(d.changed).toBe(false);
    expect(d.text).toBe('±0 input tokens per turn; cached 0 % → 0 %');
    expect(reviewDelta('s', same, side([[1, f(520, 0, null, false)]])).requests[0]!.text).toBe('input ≈500 → ≈520 (+≈20); cached 0 % → 0 %');
  });

  it('a scenario added has no before; one removed no after', () => {
    const d = reviewDelta(
      's',
      { kind: 'absent' },
      side([
        [1, f(1200, 0, 0.003)],
        [2, f(1300, 1200, 0.001)],
      ]),
    );
    expect(d.text).toBe('new scenario: 1,250 input tokens per turn, cached 48 %, $0.002 per turn');
    expect(d.requests.map((q) => q.text)).toEqual(['added: 1,200 input tokens, cached 0 %', 'added: 1,300 input tokens, cached 92 %']);
    expect(d.changed).toBe(true);
    expect(reviewDelta('s', side([[1, f(10, 0, null)]]), { kind: 'absent' }).text).toBe('scenario removed: it had 10 input tokens per turn, cached 0 %');
  });

  it('says why the before side is unknown instead of a number', () => {
    const d = reviewDelta('s', { kind: 'unknown', reason: 'no report there' }, side([[7, f(900, 0, 0.001)]]));
    expect(d.text).toBe('before: not known — no report there; after: 900 input tokens per turn, cached 0 %, $0.001 per turn');
    expect(d.requests[0]!.text).toBe('input 900, cached 0 % (before: not known)');
    expect(d.unknown).toBe('no report there');
    expect(d.changed).toBe(true);
  });
});

describe('baseDeltas', () => {
  const head = new Map([
    ['a', [{ offset: 1, ...f(100, 0, null) }]],
    ['new', [{ offset: 1, ...f(50, 0, null) }]],
  ]);
  const scenarios = [
    { id: 'a', stem: '01-a', status: 'changed' as const },
    { id: 'new', stem: '02-new', status: 'added' as const },
    { id: '03-gone', stem: '03-gone', status: 'removed' as const },
  ];

  it('takes the base by stem, no before for an added scenario, no after for a removed one', () => {
    const base = {
      ok: true as const,
      byStem: new Map([
        ['01-a', new Map([[1, f(90, 0, null)]])],
        ['03-gone', new Map([[4, f(7, 0, null)]])],
        ['02-new', new Map([[1, f(1, 0, null)]])],
      ]),
    };
    const d = baseDeltas(scenarios, head, base);
    expect(d.get('a')!.requests[0]!.text).toBe('input 90 → 100 (+10); cached 0 % → 0 %');
    // Even when the base has a scenario of that stem, an added one has no before (its fixture was not there).
    expect(d.get('new')!.text).toBe('new scenario: 50 input tokens per turn, cached 0 %');
    expect(d.get('03-gone')!.text).toBe('scenario removed: it had 7 input tokens per turn, cached 0 %');
  });

  it('an unknown base makes every existing scenario say so; an added one still has no before', () => {
    const d = baseDeltas(scenarios, head, { ok: false, reason: 'r' });
    expect(d.get('a')!.unknown).toBe('r');
    expect(d.get('new')!.text).toBe('new scenario: 50 input tokens per turn, cached 0 %');
    expect(d.get('03-gone')!.text).toBe('scenario removed; its figures before are not known — r');
  });

  it('a scenario missing from the base report is unknown, not new', () => {
    const d = baseDeltas([scenarios[0]!], head, { ok: true, byStem: new Map() });
    expect(d.get('a')!.unknown).toBe("the base's report has no scenario `01-a`");
  });

  it('sideOf keeps only the figures', () => {
    expect(sideOf([{ offset: 3, ...f(1, 0, null), model: 'x' } as never])).toEqual({ kind: 'figures', requests: new Map([[3, f(1, 0, null)]]) });
  });
});
