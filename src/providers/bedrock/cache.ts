/**
 * Amazon Bedrock's cache strategy (docs/cache-economics.md, "What the provider would cache"; figures and sources: catalog.ts
 * BEDROCK_RULES): entries end at checkpoints — Converse `cachePoint` blocks in `toolConfig.tools`,
 * `system` and `messages`, or the `cache_control` markers of an InvokeModel (Anthropic Messages) body —
 * counted cumulatively tools → system → messages, each of at least the model's minimum; at most 4
 * per request (more is a ValidationException); a checkpoint may ask for the 1-hour TTL; a hit resets
 * the entry's TTL; on Claude a checkpoint looks back about 20 blocks for an earlier entry. Bedrock
 * documents no request parameter that invalidates entries, so none is modelled.
 */
import type { CacheStrategy } from '../types.ts';
import { BEDROCK_RULES as R } from './catalog.ts';

export const bedrockCache: CacheStrategy = {
  id: 'bedrock',
  short: 'cachePoint',
  title: 'Amazon Bedrock cache checkpoints (cachePoint; tools → system → messages)',
  entries: 'breakpoints',
  retention: 'ttl',
  reach: 'lookback',
  perBreakpointTtl: true,
  // The TTL choices (5 minutes, 1 hour) are the what-if's own; a keep-alive holds a 5-minute entry, as a hit refreshes it.
  whatIf: { keepAlive: true },
  // Bedrock's own TTL-order and lookback rules; unread writes and volatile prefixes are not checked on Bedrock yet.
  lint: { ttlOrder: R.ttl1hMinutes, lookback: R.lookbackBlocks },
  mechanism: { refreshOnHit: R.refreshOnHit, maxBreakpoints: R.maxCheckpoints, lookbackBlocks: R.lookbackBlocks },
  points: (explicit, defaults) => [...(explicit.length ? explicit : defaults)],
  rejects(explicitCount, p) {
    const max = p.maxBreakpoints?.value;
    return max !== undefined && explicitCount > max
      ? `${explicitCount} cache checkpoints; Bedrock accepts at most ${max} and rejects the request (ValidationException)`
      : undefined;
  },
  invalidates: () => undefined,
};
