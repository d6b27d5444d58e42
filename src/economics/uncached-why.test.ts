/**
 * The index badge's reason for "0 % cached" (uncachedWhy): decided from the own requests' figures,
 * written out here by hand — first requests only, every prompt below its minimum, every later
 * request asking for no caching or its markers not in the capture, or every later request losing
 * what the one before cached — and no reason when anything is read.
 */
import { describe, expect, it } from 'vitest';
import type { RequestEconomics } from './compute.ts';
import { billedCardText, uncachedWhy } from './view.ts';

const req = (over: Partial<RequestEconomics>): RequestEconomics =>
  ({ offset: 1, previous: null, inputTokens: 2000, cachedTokens: 0, minPrefixTokens: 1024, cacheBreak: null, exact: true, ...over }) as RequestEconomics;

describe('uncachedWhy', () => {
  it('is null when a request reads from the cache, or there are no requests', () => {
    expect(uncachedWhy({ requests: [req({}), req({ offset: 2, previous: 1, cachedTokens: 1500 })] })).toBeNull();
    expect(uncachedWhy({ requests: [] })).toBeNull();
    expect(uncachedWhy(undefined)).toBeNull();
  });

  it('names a lone first request, a prompt below the minimum, and a chain of breaks', () => {
    expect(uncachedWhy({ requests: [req({})] })).toBe('a first request: nothing to read yet');
    expect(uncachedWhy({ requests: [req({ inputTokens: 87, minPrefixTokens: 4096 }), req({ offset: 2, previous: 1, inputTokens: 126, minPrefixTokens: 4096 })] })).toBe(
      'below the 4,096-token minimum',
    );
    expect(uncachedWhy({ requests: [req({}), req({ offset: 2, previous: 1, inputTokens: 2100 })] })).toBe('each request changed what the one before it cached');
  });

  it('names what every later request’s cause says when it is the request or the capture, not the prompt: no marker asked for, or none recorded', () => {
    const later = (cause: string, offset: number) => req({ offset, previous: offset - 1, inputTokens: 2100, cacheBreak: { cause } as RequestEconomics['cacheBreak'] });
    // A Claude Code transcript: no marker in the capture, whatever the requests as sent asked for.
    expect(uncachedWhy({ requests: [req({}), later('markers-unrecorded', 2), later('markers-unrecorded', 3)] })).toBe('the capture records no cache marker');
    expect(uncachedWhy({ requests: [req({}), later('not-asked', 2), later('previous-not-asked', 3)] })).toBe('the requests ask for no caching');
    // Mixed causes: the general words.
    expect(uncachedWhy({ requests: [req({}), later('not-asked', 2), later('system-changed', 3)] })).toBe('each request changed what the one before it cached');
  });
});

describe('billedCardText', () => {
  it('the bill’s input tokens and share read; the model’s reason only when the bill reads nothing too; a bill without cache reads says so', () => {
    // 15,373,675 of 15,635,389 read: 98.3 % → 98 %.
    expect(billedCardText({ inputTokens: 15_635_389, cachedTokenShare: 15_373_675 / 15_635_389 }, 'the capture records no cache marker')).toBe(
      'billed: 15,635,389 input tokens · 98 % cached',
    );
    expect(billedCardText({ inputTokens: 218, cachedTokenShare: 0 }, 'below the 1,024-token minimum')).toBe(
      'billed: 218 input tokens · 0 % cached — below the 1,024-token minimum',
    );
    expect(billedCardText({ inputTokens: 12, cachedTokenShare: null }, null)).toBe('billed: 12 input tokens · cache reads not reported');
  });
});
