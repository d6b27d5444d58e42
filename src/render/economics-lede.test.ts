/** The economics section's first sentence: the dollar figure first, what was lost and to which event (linked). */
import { describe, expect, it } from 'vitest';
import type { RequestEconomics, ScenarioEconomics, Totals } from '../economics/compute.ts';
import { economicsLede, ledeText, withInlineCode } from './economics-lede.ts';

const totals = (t: Partial<Totals>): Totals => ({
  inputTokens: 6000,
  cachedTokens: 0,
  uncachedTokens: 6000,
  cacheWriteTokens: 0,
  outputTokens: 0,
  tokensLost: 0,
  costUsd: 0.0359,
  cost: null,
  noCacheCostUsd: 0.0288,
  lostCostUsd: 0,
  cachedShare: 0,
  exact: true,
  rejected: 0,
  ...t,
});
const req = (offset: number, brk: RequestEconomics['cacheBreak'] = null): RequestEconomics => ({ offset, exact: true, cacheBreak: brk }) as RequestEconomics;
const econ = (requests: RequestEconomics[], t: Partial<Totals>): ScenarioEconomics =>
  ({
    id: 's',
    requests,
    chain: requests,
    totals: totals(t),
    profiles: [{ id: 'p', title: 'Anthropic Claude Sonnet 4.5', matched: 'model', by: 'x', priced: true }],
  }) as ScenarioEconomics;
const types = (o: number): string => ({ 10: 'entry/added', 23: 'entry/removed' })[o] ?? '';

describe('economicsLede', () => {
  it('costs more than no caching, reads nothing, and names the event that lost the most (linked)', () => {
    const e = econ(
      [
        req(8),
        req(11, { cause: 'system-changed', events: [10], tokensLost: 1797, lostCostUsd: 0.0062 }),
        req(25, { cause: 'system-changed', events: [23], tokensLost: 2192, lostCostUsd: 0.0076 }),
      ],
      { tokensLost: 3989, lostCostUsd: 0.0138 },
    );
    const s = economicsLede(e, types);
    expect(ledeText(s)).toBe(
      'These 3 requests cost $0.0359 under Anthropic Claude Sonnet 4.5 with caching — $0.0071 more than with no caching at all ($0.0288), and read nothing from the cache. 3,989 cached tokens were lost ($0.0138), the most (2,192) to @23 entry/removed.',
    );
    expect(s.filter((x) => x.href)).toEqual([{ text: '@23 entry/removed', href: '#@23' }]);
  });

  it('one request, cheaper than no caching, nothing lost; an expiry is named at its request; no price says so', () => {
    expect(ledeText(economicsLede(econ([req(8)], { costUsd: 0.001, noCacheCostUsd: 0.003, cachedTokens: 3000, cachedShare: 0.5 }), types))).toBe(
      'This request costs $0.001 under Anthropic Claude Sonnet 4.5 with caching — $0.002 less than with no caching ($0.003); 50 % of its input is read from the cache.',
    );
    const expired = econ([req(8), req(9, { cause: 'expired', events: [], tokensLost: 1618, lostCostUsd: 0.0037 })], { tokensLost: 1618, lostCostUsd: 0.0037, exact: false });
    expect(ledeText(economicsLede(expired, types))).toMatch(/ ≈1,618 cached tokens were lost \(≈\$0\.0037\), all at @9, where the entry had expired\.$/);
    expect(ledeText(economicsLede(econ([req(8)], { costUsd: null, noCacheCostUsd: null }), types))).toBe(
      'This request under Anthropic Claude Sonnet 4.5 has no price configured: 6,000 input tokens, and reads nothing from the cache.',
    );
  });

  it('requests that never ask for caching: that is the first sentence, before the cost', () => {
    const sentence =
      'These 2 requests never ask for caching: nothing is read from the cache or written to it, and every input token is billed at the full price. One breakpoint would save $0.0081 per conversation ($8.11 per 1,000 conversations like it).';
    const e = { ...econ([req(1), req(2)], { costUsd: 0.0288 }), unasked: { requests: 2, options: [], exact: true, sentence } };
    const text = ledeText(economicsLede(e, types));
    expect(text.startsWith(`${sentence} These 2 requests cost $0.0288`)).toBe(true);
  });

  it('a field name the sentence marks with backticks is a code segment, never raw backticks on the page', () => {
    const sentence = 'These 2 requests never ask for caching. One `cache_control` breakpoint after the system prompt would save $0.0081 per conversation.';
    const e = { ...econ([req(1), req(2)], { costUsd: 0.0288 }), unasked: { requests: 2, options: [], exact: true, sentence } };
    const segments = economicsLede(e, types);
    expect(segments.slice(0, 3)).toEqual([
      { text: 'These 2 requests never ask for caching. One ' },
      { text: 'cache_control', code: true },
      { text: ' breakpoint after the system prompt would save $0.0081 per conversation. ' },
    ]);
    expect(segments.some((x) => x.text.includes('`'))).toBe(false);
    expect(withInlineCode('no code here')).toEqual([{ text: 'no code here' }]);
    expect(withInlineCode('`a` and `b`')).toEqual([{ text: 'a', code: true }, { text: ' and ' }, { text: 'b', code: true }]);
  });
});
