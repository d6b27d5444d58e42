/**
 * The shape of a catalog entry (a model people use today, the facts the economics need about it)
 * and the helper every provider's catalog writes its figures with: each a `Sourced` value read on
 * one date. Pure data and types.
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
}

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
  tokenizer: 'o200k_base' | 'cl100k_base' | 'approx';
  /** No caching below this many prompt tokens. */
  minPrefixTokens: Sourced;
  /** Minutes an unused entry is documented to stay at least (the lower bound where a range is given). */
  retentionMinutes: Sourced<number | null>;
  /** The longer retention a request can ask for (Anthropic `ttl: "1h"`, OpenAI `prompt_cache_retention: "24h"`). */
  extendedRetentionMinutes?: Sourced;
  /** Request features the model accepts that others of its provider reject (e.g. `mid-conversation-system`). */
  features?: Record<string, Sourced<boolean>>;
  prices: ModelPrices;
}

/** A model of the provider that no catalog entry names: the provider's rules without a price, and the id prefixes that select it. */
export interface ProviderFallback {
  model: ModelFacts;
  prefixes: readonly string[];
}

export const READ = '2026-12-02';

export const s = <T = number>(value: T, source: string, note?: string, read = READ): Sourced<T> => ({ value, source, read, ...(note ? { note } : {}) });
