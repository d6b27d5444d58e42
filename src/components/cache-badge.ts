/**
 * The pane header's one percentage: the share of a request's input TOKENS the provider would bill
 * as cached reads — the same unit as the token figures beside it and the note under the ✂ line
 * (a share of characters said "65 %" where the provider read 0 tokens). A request that reads
 * nothing from the cache says why in the badge itself: the first request of its chain, a prefix
 * below the profile's minimum, an expired prefix, a break. Browser-safe (types only from the
 * economics), so the page script and the playground write the same words as the build.
 */
import type { RequestEconomics } from '../economics/compute.ts';
import { formatShare, formatTokens } from '../economics/format.ts';

export interface CacheBadge {
  /** `92 % cached`, `0 % cached — below the 1,024-token minimum` */
  text: string;
  /** The figures behind it. */
  title: string;
}

/** Why nothing was read from the cache, by the cause the economics name (causes it does not know: no reason). */
const WHY: Partial<Record<string, (e: RequestEconomics) => string>> = {
  'first-request': () => 'first request of the chain',
  'below-minimum': (e) => `below the ${formatTokens(e.minPrefixTokens)}-token minimum`,
  expired: () => 'the cache entry may have been evicted (idle past its retention)',
  'fold-changed': () => 'a deploy changed the fold',
  'out-of-reach': () => 'the cache entry is beyond the lookback',
  'model-changed': () => 'the model changed',
  'system-changed': () => 'a system message changed',
  'earlier-message-changed': () => 'an earlier message changed',
  'parameter-changed': (e) => `the request parameter ${e.cacheBreak?.param ?? ''} changed`,
};

export function cacheBadge(e: RequestEconomics): CacheBadge {
  const share = e.inputTokens ? e.cachedTokens / e.inputTokens : 0;
  const cause = e.cacheBreak?.cause;
  const why = e.cachedTokens > 0 ? undefined : ((cause && WHY[cause]?.(e)) ?? (e.inputTokens < e.minPrefixTokens ? WHY['below-minimum']!(e) : undefined));
  const x = e.exact;
  return {
    text: `${formatShare(share)} cached${why ? ` — ${why}` : ''}`,
    title: `Share of this request's input tokens the provider would bill as cached reads: ${formatTokens(e.cachedTokens, x)} of ${formatTokens(e.inputTokens, x)} (profile ${e.profile})`,
  };
}
