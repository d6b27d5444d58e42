/**
 * Anthropic's cache strategy (docs/cache-economics.md, "What the provider would cache"), from the prompt-caching page
 * (platform.claude.com/docs/en/build-with-claude/prompt-caching, read 2026-12-02; the figures and
 * their notes are ANTHROPIC_RULES in catalog.ts): entries end at `cache_control` breakpoints (the
 * common agent strategy when a request carries none: breakpoints.ts, the adapter's defaultBreakpoints), at most 4 per request (more is
 * an API error), a breakpoint looks back 20 blocks for an earlier entry, a breakpoint may ask for
 * the 1-hour TTL with its own write price, reading an entry refreshes it.
 *
 * Request parameters as a cache dimension (the tool-use-with-prompt-caching page,
 * platform.claude.com/docs/en/agents-and-tools/tool-use/tool-use-with-prompt-caching, "What invalidates your cache", read
 * 2026-12-03: "The cache follows a prefix hierarchy (tools → system → messages), so a change at one
 * level invalidates that level and everything after it"; the passage's table was cut off in the
 * copy we could read, so which parameter sits at which level is as the prompt-caching page's
 * "What invalidates the cache" table is summarised in docs/cache-economics.md): a change to the tool definitions
 * invalidates every entry (tools are the first level of the prefix, so the byte comparison already
 * sees it); a changed `tool_choice`, images added or removed anywhere in the prompt, or changed
 * thinking parameters invalidate the messages entries only — the tools and system entries are
 * still read.
 */
import type { CacheStrategy, RequestParams } from '../types.ts';
import { ANTHROPIC_RULES as R } from './catalog.ts';

/** Parameters whose change invalidates the messages entries only, in the order a break names them. */
export const MESSAGE_LEVEL_PARAMS = ['tool_choice', 'images', 'thinking'] as const;

function changedParam(before: RequestParams, after: RequestParams): string | undefined {
  return MESSAGE_LEVEL_PARAMS.find((k) => before[k] !== after[k]);
}

export const anthropicCache: CacheStrategy = {
  id: 'anthropic',
  short: 'cache_control',
  title: 'Anthropic cache_control breakpoints (tools → system → messages)',
  entries: 'breakpoints',
  retention: 'ttl',
  reach: 'lookback',
  perBreakpointTtl: true,
  // The TTL choices (5 minutes, 1 hour) are the what-if's own; a keep-alive holds a 5-minute entry, as a hit refreshes it.
  whatIf: { keepAlive: true },
  lint: { write: R.writeMultiplier5m, prefix: R.cacheOrder, ttlOrder: R.ttl1hMinutes, lookback: R.lookbackBlocks },
  mechanism: { refreshOnHit: R.refreshOnRead, maxBreakpoints: R.maxBreakpoints, lookbackBlocks: R.lookbackBlocks },
  // A request's own breakpoints; without any, the common agent strategy (the adapter's defaultBreakpoints).
  points: (explicit, defaults) => [...(explicit.length ? explicit : defaults)],
  rejects(explicitCount, p) {
    const max = p.maxBreakpoints?.value;
    return max !== undefined && explicitCount > max ? `${explicitCount} cache breakpoints; the API accepts at most ${max} and rejects the request` : undefined;
  },
  invalidates(before, after, tokensBefore) {
    const param = changedParam(before, after);
    return param ? { param, keepTokens: tokensBefore(['tools', 'system']) } : undefined;
  },
};
