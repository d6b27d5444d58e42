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
import { causeName } from '../economics/view.ts';

export interface CacheBadge {
  /** `92 % cached`, `0 % cached — below the 1,024-token minimum` */
  text: string;
  /** The figures behind it. */
  title: string;
}

export function cacheBadge(e: RequestEconomics): CacheBadge {
  const share = e.inputTokens ? e.cachedTokens / e.inputTokens : 0;
  const cause = e.cacheBreak?.cause;
  // Why nothing was read, by the cause's one name (economics/view.ts causeName, as the table and the lede say it).
  const why = e.cachedTokens > 0 ? undefined : cause ? causeName(cause, e) : e.inputTokens < e.minPrefixTokens ? causeName('below-minimum', e) : undefined;
  const x = e.exact;
  return {
    text: `${formatShare(share)} cached${why ? ` — ${why}` : ''}`,
    title: `Share of this request's input tokens the provider would bill as cached reads: ${formatTokens(e.cachedTokens, x)} of ${formatTokens(e.inputTokens, x)} (profile ${e.profile})`,
  };
}
