/**
 * Elapsed-time labels (src/pages/reference/writing-scenarios.mdx): `250ms`, `4.2s`, `9m 18s`, `10m 16.3s`, a range `3m–19m`
 * meaning its end — and createdAt = time zero + label. Anything else is rejected, never guessed.
 */
import { describe, expect, it } from 'vitest';
import { formatElapsed, instant, parseTimeLabel, readTimeLabel } from './time.ts';

const T0 = '2026-08-24T16:41:00.000Z';

describe('parseTimeLabel', () => {
  it.each([
    ['0ms', 0],
    ['250ms', 250],
    ['4.2s', 4_200],
    ['9m 18s', 558_000],
    ['10m 16.3s', 616_300],
    ['1h 2m', 3_720_000],
    ['3m–19m', 1_140_000],
    ['3m-19m', 1_140_000],
    ['3m – 19m', 1_140_000],
    ['21m 4s', 1_264_000],
  ])('%s → %i ms', (label, ms) => {
    expect(parseTimeLabel(label)).toBe(ms);
  });

  it('a range counts as its end, not its start or its length', () => {
    expect(parseTimeLabel('3m–19m')).toBe(parseTimeLabel('19m'));
  });

  it.each(['', ' ', '5', '5 minutes', '0 ms', '9m18s', '4,2s', '-1s', '1d', 'soon', '1m–2m–3m', '–19m', '3m–'])('rejects %j', (label) => {
    expect(parseTimeLabel(label)).toBeUndefined();
    expect(readTimeLabel(label)).toHaveProperty('problem');
  });

  it('rejects a range that ends before it starts, saying so', () => {
    expect(parseTimeLabel('19m–3m')).toBeUndefined();
    expect(readTimeLabel('19m–3m')).toEqual({ problem: 'the range ends (3m) before it starts (19m)' });
  });

  it('says why a label is not one', () => {
    expect(readTimeLabel('5 minutes')).toEqual({ problem: 'it is not an elapsed time' });
    expect(readTimeLabel('1m–2m–3m')).toEqual({ problem: 'a range has exactly two ends' });
  });
});

describe('instant: createdAt = time zero + label', () => {
  it.each([
    ['250ms', '2026-08-24T16:41:00.250Z'],
    ['4.2s', '2026-08-24T16:41:04.200Z'],
    ['9m 18s', '2026-08-24T16:50:18.000Z'],
    ['10m 16.3s', '2026-08-24T16:51:16.300Z'],
    ['3m–19m', '2026-08-24T17:00:00.000Z'],
  ])('%s → %s', (label, iso) => {
    expect(instant(T0, parseTimeLabel(label)!)).toBe(iso);
  });

  it('counts from a configured time zero', () => {
    expect(instant('2020-01-01T00:00:00.000Z', 1_500)).toBe('2020-01-01T00:00:01.500Z');
  });
});

describe('formatElapsed', () => {
  it.each([
    [0, '0ms'],
    [250, '250ms'],
    [4_200, '4.2s'],
    [558_000, '9m 18s'],
    [616_300, '10m 16.3s'],
    [3_723_000, '1h 2m 3s'],
    [60_000, '1m'],
  ])('%i ms → %s', (ms, label) => {
    expect(formatElapsed(ms)).toBe(label);
    expect(parseTimeLabel(label)).toBe(ms);
  });
});

describe('time labels at their extremes', () => {
  it.each(['87600h', '87599h 59m 59.999s', '5256000m', '315360000s'])('accepts %s (at most 10 years)', (label) => {
    expect(readTimeLabel(label)).toEqual({ ms: 315_360_000_000 - (label === '87599h 59m 59.999s' ? 1 : 0) });
  });

  it.each([
    ['87601h', '"87601h"'],
    ['99999999999999999999h', '"99999999999999999999h"'],
    [`${'9'.repeat(400)}ms`, `"${'9'.repeat(400)}ms"`],
    ['1m–99999999999h', '"99999999999h"'],
    ['99999999999h–1m', '"99999999999h"'],
  ])('rejects %s with a problem naming the end that is too long, never an invalid date', (label, end) => {
    const r = readTimeLabel(label);
    expect(r).toEqual({ problem: expect.stringContaining(end) });
    expect('problem' in r && r.problem).toContain('87600h (10 years)');
  });

  it('instant() stays a valid ISO string even past the Date range', () => {
    expect(instant(T0, 315_360_000_000)).toBe('2036-08-21T16:41:00.000Z');
    expect(() => instant(T0, 1e300)).not.toThrow();
    expect(() => instant(T0, Number.NaN)).not.toThrow();
  });
});
