/**
 * The pane header's percentage is a share of input tokens read from the cache — checked against
 * figures worked out here by hand, not by the economics — and a badge at 0 % says why.
 */
import { describe, expect, it } from 'vitest';
import type { RequestEconomics } from '../economics/compute.ts';
import { cacheBadge } from './cache-badge.ts';

const econ = (over: Partial<RequestEconomics>): RequestEconomics =>
  ({ exact: true, inputTokens: 2000, cachedTokens: 0, minPrefixTokens: 1024, cacheBreak: null, profile: 'openai', ...over }) as RequestEconomics;

describe('cacheBadge', () => {
  it('is the cached share of input tokens, rounded to a whole percent', () => {
    // 1,536 of 2,000 tokens = 76.8 % → 77 %
    expect(cacheBadge(econ({ cachedTokens: 1536 })).text).toBe('77 % cached');
    expect(cacheBadge(econ({ cachedTokens: 1536 })).title).toContain('1,536 of 2,000');
  });

  it('says why nothing was read from the cache', () => {
    const cases: [Partial<RequestEconomics>, string][] = [
      [{ inputTokens: 661, cacheBreak: { cause: 'below-minimum', events: [], tokensLost: 0, lostCostUsd: null } }, '0 % cached — below the 1,024-token minimum'],
      [{ inputTokens: 661 }, '0 % cached — below the 1,024-token minimum'],
      [{ cacheBreak: { cause: 'first-request', events: [], tokensLost: 0, lostCostUsd: null } }, '0 % cached — first request of the chain'],
      [{ cacheBreak: { cause: 'expired', events: [], tokensLost: 1800, lostCostUsd: null } }, '0 % cached — the cache entry may have been evicted (idle past its retention)'],
      // Past a TTL the entry is gone: "expired", the word the table and the note under the ✂ line use.
      [{ retention: 'ttl', cacheBreak: { cause: 'expired', events: [], tokensLost: 1800, lostCostUsd: null } }, '0 % cached — the cache entry expired (idle past its retention)'],
      [{ cacheBreak: { cause: 'system-changed', events: [4], tokensLost: 1800, lostCostUsd: null } }, '0 % cached — tools or a system message changed'],
      [{ cacheBreak: { cause: 'model-changed', events: [4], tokensLost: 1800, lostCostUsd: null } }, '0 % cached — the model changed'],
      [{ cacheBreak: { cause: 'fold-changed', events: [44], tokensLost: 1800, lostCostUsd: null } }, '0 % cached — a deploy changed the fold'],
      [{ cacheBreak: { cause: 'out-of-reach', events: [], tokensLost: 1800, lostCostUsd: null } }, '0 % cached — the cache entry is beyond the lookback'],
    ];
    for (const [over, text] of cases) expect(cacheBadge(econ(over)).text).toBe(text);
  });

  it('gives no reason when part of the prompt was read', () => {
    expect(cacheBadge(econ({ cachedTokens: 1024, cacheBreak: { cause: 'earlier-message-changed', events: [9], tokensLost: 500, lostCostUsd: null } })).text).toBe('51 % cached');
  });
});
