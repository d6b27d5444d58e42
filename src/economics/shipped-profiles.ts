/**
 * Provider profiles: how a provider caches a request (docs/cache-economics.md, "What the provider would cache") and what it charges
 * ("Cost"), each figure with the URL it was read from and the date it was read. Nothing here is
 * guessed: a figure we could not find is left out, and the pages then say "no price configured"
 * instead of showing a made-up number. A project overrides or extends all of this from
 * astro.config.mjs: `explainer({economics: {profiles, models, families, prefixes}})` (profiles.ts).
 *
 * A profile's `cache` names a cache strategy of a provider adapter (src/providers/<provider>/cache.ts:
 * `openai-prefix`, `openai-breakpoints`, `anthropic`), whose rules the engine (entries.ts) asks.
 *
 * The profiles are built from the sourced model catalog (catalog.ts: every current OpenAI and
 * Anthropic model, its ids, families, cache facts and prices) plus each provider adapter's
 * fallback (a model of that provider the catalog does not name: its rules, no price, selected by the
 * adapter's id prefixes), and an unknown provider (an ideal cache). Model ids map to profiles in profiles.ts: explicit ids, then families
 * (id prefixes, which also cover dated ids), then provider prefixes, else `unknown`.
 */
import { cacheStrategy, CACHE_STRATEGIES, CATALOG, FALLBACKS as PROVIDER_FALLBACKS } from '../providers/registry.ts';
import type { Encoding, ModelFacts, ModelPrices } from '../providers/shared/catalog.ts';
import type { CacheStrategy, Sourced } from '../providers/types.ts';

export type { Sourced };

/** USD per million tokens: a model's prices as its catalog entry gives them. */
export type Prices = ModelPrices;

export type { Encoding };

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
  /** Figures that were different before a date (price-history.ts prices a request at its own instant). */
  earlierPrices?: ModelFacts['earlierPrices'];
  /** Prices of a prompt longer than a threshold. */
  longPrompt?: ModelFacts['longPrompt'];
}

const READ = '2026-12-01';
const NONE = 'none: no provider facts, an ideal cache is assumed';

const s = <T>(value: T, source: string, note?: string, read = READ): Sourced<T> => ({ value, source, read, ...(note && { note }) });

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
    ...(m.earlierPrices && { earlierPrices: m.earlierPrices }),
    ...(m.longPrompt && { longPrompt: m.longPrompt }),
  };
}

/**
 * The cache of a provider no adapter knows: a plain prefix cache (every prefix cached without
 * markers, read from any alive entry, nothing invalidated by a parameter). Its figures — no minimum,
 * whole-token steps, no expiry — are UNKNOWN's own, so the first registered strategy of that kind serves.
 */
const PLAIN_PREFIX = CACHE_STRATEGIES.find((c) => c.entries === 'prefix' && c.reach === 'any' && !c.perBreakpointTtl)!;

/** The fallback for a model no provider knows: an ideal cache, no price. */
const UNKNOWN: Profile = {
  id: 'unknown',
  title: 'Unknown provider (an ideal prefix cache: every byte-stable prefix, no minimum, no expiry)',
  tokenizer: 'approx',
  cache: PLAIN_PREFIX.id as CacheKind,
  minPrefixTokens: s(0, NONE),
  stepTokens: s(1, NONE),
  retentionMinutes: s(null, NONE),
  refreshOnHit: s(true, NONE),
  prices: {},
};

/** Provider fallbacks (each adapter's: a model of a known provider that no catalog entry names; no price, never a made-up one), then `unknown`. */
const FALLBACKS: Profile[] = [...PROVIDER_FALLBACKS.map((f) => profileOf(f.model)), UNKNOWN];

export const PROFILES: Record<string, Profile> = Object.fromEntries([...CATALOG.map(profileOf), ...FALLBACKS].map((p) => [p.id, p]));

/** Explicit model id → profile (checked first; a `provider/` prefix is also tried without it): the catalog's exact and dated ids. */
export const MODELS: Record<string, string> = Object.fromEntries(CATALOG.flatMap((m) => m.ids.map((id) => [id, m.id])));

/** Model families: id prefixes (dated ids and variants) → profile; the longest matching one wins. */
export const FAMILIES: Record<string, string> = Object.fromEntries(CATALOG.flatMap((m) => m.families.map((f) => [f, m.id])));

/** Provider prefixes → profile (the longest matching prefix wins), after models and families: each adapter's fallback's. */
export const PREFIXES: Record<string, string> = Object.fromEntries(PROVIDER_FALLBACKS.flatMap((f) => f.prefixes.map((x) => [x, f.model.id])));

/** Profile for a model matched by nothing. */
export const FALLBACK_PROFILE = 'unknown';
