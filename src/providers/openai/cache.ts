/**
 * OpenAI's two cache strategies (docs/cache-economics.md, "What the provider would cache"; figures and their sources in catalog.ts):
 * - `openai-prefix` — automatic prefix caching before GPT-5.6: every prompt of at least the minimum
 *   is cached as a token prefix, hits grow in 128-token steps, no write price, eviction follows
 *   inactivity (a hit keeps the prefix alive).
 * - `openai-breakpoints` — GPT-5.6 and later families: entries at an implicit breakpoint near the
 *   newest user/tool message and at explicit `prompt_cache_breakpoint`s (at most 4 writes per
 *   request: the implicit one and the latest three explicit; in explicit mode no implicit one, so a
 *   request without markers caches nothing), read whole wherever they are (no
 *   lookback limit is documented), writes priced; a refresh on a read is not documented, so none is
 *   assumed.
 * Request settings that change the cached prefix on GPT-5.6+ (model, tools, `parallel_tool_calls`,
 * `text.format`, `reasoning.effort`, `text.verbosity`, `context_management`) are listed on "How the
 * numbers are computed" as not modelled: our rendered requests do not carry them yet.
 */
import { s } from '../shared/catalog.ts';
import type { CacheStrategy, Sourced } from '../types.ts';
import { OPENAI_BREAKPOINT_RULES as OB, OPENAI_RULES as OP } from './catalog.ts';

const O_GUIDE = 'https://developers.openai.com/api/docs/guides/prompt-caching';

/** The newest message a GPT-5.6 implicit breakpoint sits after: the last user or tool message, else the last one. */
export function implicitBreakpoint(messages: readonly { role: string }[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user' || messages[i]!.role === 'tool') return i;
  return messages.length - 1;
}

/** OpenAI prices both retention policies alike (read 2026-12-03; OpenAI's own guide says the same of caching: no extra fee). */
const SAME_PRICE: Sourced<string> = {
  value: 'prompt cache pricing is the same for both retention policies',
  source: 'https://learn.microsoft.com/azure/foundry/openai/how-to/prompt-caching',
  read: '2026-12-03',
  note: 'Azure OpenAI’s prompt-caching page (the same service and parameter `prompt_cache_retention`); OpenAI’s guide says prompt caching “has no additional fees”',
};

/** 12-hour write prices the catalog records (in a figure's note) for GPT-5.6-and-later models, as figures, by catalog entry id. */
const WRITE_12H: Record<string, Sourced> = {
  'openai-gpt-6.2-sol': {
    value: 5,
    source: 'https://developers.openai.com/api/docs/models/gpt-6.2-sol',
    read: '2026-12-02',
    note: 'the model page: "The cache write price is for 30 minutes of retention. A 12-hour cache write costs $5 per million tokens" (short context, Standard)',
  },
};

export const openaiPrefixCache: CacheStrategy = {
  id: 'openai-prefix',
  alias: 'prefix',
  short: 'prefix',
  title: 'OpenAI automatic prefix caching (before GPT-5.6)',
  entries: 'prefix',
  retention: 'minimum',
  reach: 'any',
  perBreakpointTtl: false,
  mechanism: {
    stepTokens: OP.stepTokens,
    refreshOnHit: s(true, O_GUIDE, 'eviction follows inactivity (5–10 minutes after last use), so a hit keeps the prefix alive', '2026-12-01'),
  },
  points: () => [],
  // In-memory retention (the guide's 5-minute lower bound) or `prompt_cache_retention: "24h"` where the catalog lists it (same prices; 24 h is an upper bound, so the best case).
  whatIf: {
    asIs: 'in-memory (the default)',
    longer: (_id, listed) =>
      listed
        ? {
            id: 'retention-24h',
            label: '`prompt_cache_retention: "24h"` (at best)',
            minutes: listed,
            write: { same: SAME_PRICE },
            notes: ['24-hour retention is “up to” 24 hours: its figures are the best case; in-memory retention uses the guide’s 5-minute lower bound'],
          }
        : { none: 'the catalog lists no extended retention for this model' },
    keepAlive: true,
  },
  // Writes are free: an unread one is no finding.
  lint: { prefix: OP.exactPrefix },
  rejects: () => undefined,
  invalidates: () => undefined,
};

export const openaiBreakpointsCache: CacheStrategy = {
  id: 'openai-breakpoints',
  alias: 'breakpoints',
  short: 'breakpoints',
  title: 'OpenAI breakpoints (GPT-5.6 and later)',
  entries: 'breakpoints',
  retention: 'minimum',
  reach: 'any',
  perBreakpointTtl: false,
  mechanism: {
    maxBreakpoints: OB.maxWritesPerRequest,
    refreshOnHit: s(
      false,
      OB.ttlMinutes.source,
      'the 30-minute TTL is documented per breakpoint written; a refresh on a read is not documented, so none is assumed',
      OB.ttlMinutes.read,
    ),
  },
  // Implicit mode (the default): the implicit breakpoint plus the latest explicit ones up to the
  // per-request write limit. Explicit mode (`prompt_cache_options.mode: "explicit"`): no implicit
  // breakpoint, the latest explicit ones up to the limit — with no marker, nothing is cached.
  points(explicit, _defaults, messages, at, p, params) {
    const max = p.maxBreakpoints?.value ?? Infinity;
    if (params.prompt_cache_mode === 'explicit') return explicit.slice(Math.max(0, explicit.length - max));
    return [at(implicitBreakpoint(messages)), ...explicit.slice(Math.max(0, explicit.length - (max - 1)))];
  },
  // The default 30-minute write, and a 12-hour write: priced where the catalog records its price, otherwise its cached tokens only.
  whatIf: {
    asIs: '30-minute writes (the default)',
    longer(id, listed) {
      const price = WRITE_12H[id];
      return {
        id: 'write-12h',
        label: price ? '12-hour writes' : '12-hour writes (not priced)',
        minutes: listed ?? OB.ttlLongMinutes,
        write: price ? { price } : 'unpriced',
        notes: price ? [] : ['12-hour writes are priced for GPT-6.2 Sol only: for this model the row shows what would be cached'],
      };
    },
    keepAlive: { no: 'no keep-alive: a read is not documented to refresh a GPT-5.6 entry' },
  },
  lint: { write: OB.writeMultiplier, prefix: OP.exactPrefix },
  rejects: () => undefined,
  invalidates: () => undefined,
};

export const OPENAI_CACHE_STRATEGIES = [openaiPrefixCache, openaiBreakpointsCache] as const;
