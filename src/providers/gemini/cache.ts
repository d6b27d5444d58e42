/**
 * Gemini's implicit caching (docs/cache-economics.md, "What the provider would cache"; figures in catalog.ts GEMINI_RULES): on
 * Gemini 2.5 and later every prompt of at least the model's minimum is cached as a prefix, no
 * markers, no write price, read at the model's cached price as the common prefix with an earlier
 * prompt (no step is documented, so whole tokens). No retention is documented ("no cost saving
 * guarantee"): an entry is kept, and a hit after a long pause is labelled as one that may have been
 * evicted. Explicit caches (`cachedContent`) are a prefix outside the body: the body shows only a
 * reference to it, and the billed `cachedContentTokenCount` says how large it was.
 */
import { s } from '../shared/catalog.ts';
import type { CacheStrategy } from '../types.ts';
import { G_CACHING } from './catalog.ts';

export const geminiImplicitCache: CacheStrategy = {
  id: 'gemini-implicit',
  short: 'implicit',
  title: 'Gemini implicit caching (2.5 and later: automatic prefix caching, no markers)',
  entries: 'prefix',
  retention: 'minimum',
  reach: 'any',
  perBreakpointTtl: false,
  mechanism: {
    stepTokens: s(1, G_CACHING, 'no rounding of a hit is documented: whole tokens', '2026-12-06'),
    refreshOnHit: s(false, G_CACHING, 'not documented: no refresh is assumed', '2026-12-06'),
  },
  // No lint rule of its own yet: unread writes (there are none) and volatile prefixes are not checked on Gemini.
  lint: {},
  points: () => [],
  rejects: () => undefined,
  invalidates: () => undefined,
};
