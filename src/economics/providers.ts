/**
 * Provider profiles: how a provider caches a request (spec cache-economics §2) and what it charges
 * (§4), each figure with the URL it was read from and the date it was read. Nothing here is
 * guessed: a figure we could not find is left out, and the pages then say "no price configured"
 * instead of showing a made-up number. A project overrides or extends all of this from
 * astro.config.mjs: `explainer({economics: {profiles, models, families, prefixes}})` (profiles.ts).
 *
 * Three cache mechanisms (`cache`), each modelled on the provider's documented rules by the engine
 * (entries.ts):
 * - `openai-prefix` — OpenAI automatic prefix caching before GPT-5.6: every prompt of at least the
 *   minimum is cached as a token prefix, hits grow in `stepTokens` steps, no write price.
 * - `openai-breakpoints` — OpenAI GPT-5.6 and later families: entries written at an implicit
 *   breakpoint near the newest user/tool message and at explicit `prompt_cache_breakpoint`s (at
 *   most `maxBreakpoints` writes), read exactly at an entry's end, writes priced.
 * - `anthropic` — `cache_control` breakpoints (tools → system → messages), at most
 *   `maxBreakpoints` (more is an API error), a breakpoint looks back `lookbackBlocks` blocks,
 *   5-minute or 1-hour TTL with their own write prices.
 *
 * The profiles are built from the sourced model catalog (catalog.ts: every current OpenAI and
 * Anthropic model, its ids, families, cache facts and prices) plus three fallbacks: an OpenAI or
 * Anthropic model the catalog does not name (the provider's rules, no price), and an unknown
 * provider (an ideal cache). Model ids map to profiles in profiles.ts: explicit ids, then families
 * (id prefixes, which also cover dated ids), then provider prefixes, else `unknown`.
 */
import { cacheStrategy, CACHE_STRATEGIES } from '../providers/registry.ts';
import type { CacheStrategy, Sourced } from '../providers/types.ts';
import { CATALOG, RULES, type ModelFacts } from './catalog.ts';

export type { Sourced };

/** USD per million tokens. */
export interface Prices {
  input?: Sourced;
  cachedInput?: Sourced;
  /** Cache writes: OpenAI GPT-5.6+, and Anthropic's 5-minute TTL. */
  cacheWrite?: Sourced;
  /** Anthropic cache writes with the 1-hour TTL. */
  cacheWrite1h?: Sourced;
  output?: Sourced;
}

export type Encoding = 'o200k_base' | 'cl100k_base';

/** A cache strategy's id (the registered adapters' `cacheStrategies`). */
export type CacheKind = ModelFacts['cache'];
export const CACHE_KINDS: readonly CacheKind[] = CACHE_STRATEGIES.map((c) => c.id as CacheKind);

/** The strategy a profile caches with (a profile's `cache` is always a registered strategy's id: profiles.ts checks). */
export const strategyOf = (p: Pick<Profile, 'cache'>): CacheStrategy => cacheStrategy(p.cache)!;

export interface Profile {
  id: string;
  title: string;
  /**
   * How tokens are counted: a BPE encoding (exact for the OpenAI models that use it) or `approx`
   * (the o200k_base count, shown with ≈; see tokens.ts for why).
   */
  tokenizer: Encoding | 'approx';
  /** The provider's cache mechanism (see the file header). */
  cache: CacheKind;
  /** No entry is written for a prefix shorter than this many tokens. */
  minPrefixTokens: Sourced;
  /** `openai-prefix`: hits grow in steps of this many tokens beyond the minimum. */
  stepTokens?: Sourced;
  /** Minutes after its last use (or its write, without refresh) an entry may be gone; null: never. */
  retentionMinutes: Sourced<number | null>;
  /** `anthropic`: the longer TTL a breakpoint may ask for (`ttl: "1h"`). */
  extendedRetentionMinutes?: Sourced<number>;
  /** Reading an entry refreshes that entry's lifetime. */
  refreshOnHit: Sourced<boolean>;
  /** `anthropic`: more breakpoints is an API error; `openai-breakpoints`: writes per request. */
  maxBreakpoints?: Sourced;
  /** `anthropic`: blocks a breakpoint looks back for an earlier entry. */
  lookbackBlocks?: Sourced;
  /** Request features the model accepts that others of its provider reject (e.g. `mid-conversation-system`). */
  features?: Readonly<Record<string, Sourced<boolean>>>;
  prices: Prices;
}

const READ = '2026-12-01';
const ANTHROPIC_CACHING = 'https://platform.claude.com/docs/en/build-with-claude/prompt-caching';
const NONE = 'none: no provider facts, an ideal cache is assumed';

const s = <T>(value: T, source: string, note?: string, read = READ): Sourced<T> => ({ value, source, read, ...(note && { note }) });

const A = RULES.anthropic;
const OP = RULES.openai;

/** The mechanism figures of a strategy (refresh, limits, lookback). */
const mechanism = (cache: CacheKind): Pick<Profile, 'stepTokens' | 'refreshOnHit' | 'maxBreakpoints' | 'lookbackBlocks'> => ({ ...cacheStrategy(cache)!.mechanism });

/** A catalog model as a profile. */
export function profileOf(m: ModelFacts): Profile {
  return {
    id: m.id,
    title: m.title,
    tokenizer: m.tokenizer,
    cache: m.cache,
    minPrefixTokens: m.minPrefixTokens,
    retentionMinutes: m.retentionMinutes,
    // Only a per-breakpoint TTL (Anthropic's 1 hour) is modelled (OpenAI's 24 h retention is a request option, not modelled).
    ...(strategyOf(m).perBreakpointTtl && m.extendedRetentionMinutes && { extendedRetentionMinutes: m.extendedRetentionMinutes }),
    ...(m.features && { features: m.features }),
    ...mechanism(m.cache),
    prices: { ...m.prices },
  };
}

/** Provider fallbacks: a model of a known provider that no catalog entry names (no price: never a made-up one). */
const FALLBACKS: Profile[] = [
  {
    id: 'openai-automatic',
    title: 'OpenAI, model not in the catalog (automatic prefix caching, as before GPT-5.6)',
    tokenizer: 'o200k_base',
    cache: 'openai-prefix',
    minPrefixTokens: OP.minPrefixTokens,
    retentionMinutes: OP.retentionMinutes,
    ...mechanism('openai-prefix'),
    prices: {},
  },
  {
    id: 'anthropic',
    title: 'Anthropic, model not in the catalog',
    tokenizer: 'approx',
    cache: 'anthropic',
    minPrefixTokens: s(
      1024,
      ANTHROPIC_CACHING,
      'the minimum of most current Sonnet and Opus models (512 for the newest, 4,096 for Opus 4.5/4.6 and Haiku 4.5): map the model to its own profile',
    ),
    retentionMinutes: A.ttlMinutes,
    extendedRetentionMinutes: A.ttl1hMinutes,
    ...mechanism('anthropic'),
    prices: {},
  },
  {
    id: 'unknown',
    title: 'Unknown provider (an ideal prefix cache: every byte-stable prefix, no minimum, no expiry)',
    tokenizer: 'approx',
    cache: 'openai-prefix',
    minPrefixTokens: s(0, NONE),
    stepTokens: s(1, NONE),
    retentionMinutes: s(null, NONE),
    refreshOnHit: s(true, NONE),
    prices: {},
  },
];

export const PROFILES: Record<string, Profile> = Object.fromEntries([...CATALOG.map(profileOf), ...FALLBACKS].map((p) => [p.id, p]));

/** Explicit model id → profile (checked first; a `provider/` prefix is also tried without it): the catalog's exact and dated ids. */
export const MODELS: Record<string, string> = Object.fromEntries(CATALOG.flatMap((m) => m.ids.map((id) => [id, m.id])));

/** Model families: id prefixes (dated ids and variants) → profile; the longest matching one wins. */
export const FAMILIES: Record<string, string> = Object.fromEntries(CATALOG.flatMap((m) => m.families.map((f) => [f, m.id])));

/** Provider prefixes → profile (the longest matching prefix wins), after models and families. */
export const PREFIXES: Record<string, string> = {
  'openai/': 'openai-automatic',
  'anthropic/': 'anthropic',
  // Bare provider ids, as a trace imported with `npm run import` names them.
  'gpt-': 'openai-automatic',
  'claude-': 'anthropic',
};

/** Profile for a model matched by nothing. */
export const FALLBACK_PROFILE = 'unknown';
