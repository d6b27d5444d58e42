/** The what-if in the page's words: rows, and the sentence on where the longer retention pays. */
import { describe, expect, it } from 'vitest';
import type { Totals } from '../economics/compute.ts';
import type { WhatIf } from '../economics/what-if.ts';
import { paysFromText, whatIfRows } from './what-if-text.ts';

const totals = (costUsd: number | null): Totals => ({ costUsd, cachedShare: 0.25, exact: false }) as Totals;
const w: WhatIf = {
  profile: 'p',
  title: 'P',
  options: [
    { id: 'as-is', label: 'as placed by the fold', totals: totals(0.0359), keepAlive: 0, deltaUsd: 0, per1000Usd: 35.9, same: ['every breakpoint 5 min'] },
    { id: 'keep-alive', label: 'keep-alive request', totals: totals(0.04), keepAlive: 3, deltaUsd: 0.0041, per1000Usd: 40, same: [] },
    { id: 'write-12h', label: '12-hour writes', totals: totals(null), keepAlive: 0, deltaUsd: null, per1000Usd: null, same: [] },
  ],
  paysFrom: { longer: 'ttl-1h', shortMinutes: 5, longMinutes: 60, fromMinutes: 5, untilMinutes: 60 },
  idleGapsMs: [13_100, 650_000],
  notes: [],
  sources: [],
};

describe('whatIfRows / paysFromText', () => {
  it('writes each choice with its cost, difference and 1,000 conversations (≈ for approximate counts)', () => {
    expect(whatIfRows(w).map((r) => [r.label, r.cost, r.delta, r.per1000, r.cached, r.asIs])).toEqual([
      ['as placed by the fold (= every breakpoint 5 min)', '≈$0.0359', '', '≈$35.90', '25 %', true],
      ['keep-alive request (3 added)', '≈$0.0400', '≈+$0.0041', '≈$40.00', '25 %', false],
      ['12-hour writes', 'no price configured', '', 'no price configured', '25 %', false],
    ]);
  });

  it('says from which idle gap the longer retention pays, or that it never does', () => {
    expect(paysFromText(w)).toBe(
      'With every idle gap the same length, the 1 h TTL costs less than 5 min once idle gaps exceed 5 min, up to 1 h. This stream’s longest idle gap: 10 min 50 s.',
    );
    expect(paysFromText({ ...w, paysFrom: { ...w.paysFrom!, fromMinutes: null, untilMinutes: null } })).toMatch(
      /^With every idle gap the same length, the 1 h TTL never costs less than 5 min here\./,
    );
    expect(paysFromText({ ...w, paysFrom: null, idleGapsMs: [] })).toBe('');
  });
});
