/**
 * The one data file of provider facts: cache profiles (how a provider caches a prompt prefix, for
 * how long, from how many tokens) and prices, each figure with the URL it was read from and the
 * date it was read. Nothing here is guessed: a figure we could not find is left out, and the
 * pages then say "no price configured" instead of showing a made-up number. A project overrides or
 * extends all of this from astro.config.mjs: `explainer({economics: {profiles, models, prefixes}})`
 * (see options.ts and profiles.ts).
 *
 * Model ids in scenarios are often invented. A model maps to a profile by an explicit `models`
 * entry first, then by the longest matching `prefixes` entry (`openai/`, `anthropic/`), else the
 * `unknown` profile. Scenarios name models `provider/model`; imported traces carry the provider's
 * own bare ids (`claude-sonnet-4-5`, `gpt-5.6-terra`), so those map too.
 */

/** A figure and where it comes from. */
export interface Sourced<T = number> {
  value: T;
  /** URL the figure was read from (or `astro.config.mjs` for a project's own figure). */
  source: string;
  /** Date it was read, YYYY-MM-DD. */
  read: string;
  note?: string;
}

/** USD per million tokens. */
export interface Prices {
  input?: Sourced;
  cachedInput?: Sourced;
  /** Cache writes (breakpoint strategy only). */
  cacheWrite?: Sourced;
  output?: Sourced;
}

export type Encoding = 'o200k_base' | 'cl100k_base';

export interface Profile {
  id: string;
  title: string;
  /**
   * How tokens are counted: a BPE encoding (exact for the OpenAI models that use it) or `approx`
   * (the o200k_base count, shown with ≈; see tokens.ts for why).
   */
  tokenizer: Encoding | 'approx';
  /**
   * `prefix`: every prefix the provider has seen is reusable (OpenAI automatic caching before
   * GPT-5.6), hits rounded down to `stepTokens`. `breakpoints`: only the prefixes ending at a
   * cache breakpoint are written and hit (Anthropic `cache_control`, OpenAI GPT-5.6).
   */
  strategy: 'prefix' | 'breakpoints';
  /** Where breakpoints sit (breakpoints strategy): after the leading system messages, on the last message. */
  breakpoints?: ('system' | 'last-message')[];
  /** No caching below this many prefix tokens. */
  minPrefixTokens: Sourced;
  /** Cache hits grow in steps of this many tokens beyond the minimum (prefix strategy). */
  stepTokens?: Sourced;
  /** Minutes after its last use that a cache entry is gone; null: never (an ideal cache). */
  retentionMinutes: Sourced<number | null>;
  /** A hit refreshes the entry's lifetime. */
  refreshOnHit: Sourced<boolean>;
  prices: Prices;
}

const READ = '2026-12-01';
const OPENAI_GUIDE = 'https://developers.openai.com/api/docs/guides/prompt-caching';
const OPENAI_COOKBOOK = 'https://developers.openai.com/cookbook/examples/prompt_caching_201';
const OPENAI_TERRA = 'https://developers.openai.com/de-DE/api/docs/models/gpt-5.6-terra';
const OPENAI_CACHE_OPTIONS = 'https://docs.rs/async-openai/0.42.0/async_openai/types/responses/struct.PromptCacheOptionsParam.html';
const ANTHROPIC_CACHING = 'https://platform.claude.com/docs/en/build-with-claude/prompt-caching';
const ANTHROPIC_MINIMUMS = 'https://github.com/anthropics/anthropic-sdk-python/issues/1194';
const ANTHROPIC_PRICING = 'https://platform.claude.com/docs/zh-CN/about-claude/pricing';
const VERTEX_CLAUDE_CACHING = 'https://docs.cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/prompt-caching?hl=ja';

const NONE = 'none: no provider facts, an ideal cache is assumed';

const s = <T>(value: T, source: string, note?: string): Sourced<T> => ({ value, source, read: READ, ...(note && { note }) });

const anthropicCaching = {
  tokenizer: 'approx',
  strategy: 'breakpoints',
  breakpoints: ['system', 'last-message'],
  retentionMinutes: s(5, ANTHROPIC_CACHING, 'default `ephemeral` TTL (a 1-hour TTL is an option at 2× the input price for writes)'),
  refreshOnHit: s(true, VERTEX_CLAUDE_CACHING, 'the cache lifetime is refreshed each time the cached content is used'),
} as const;

export const PROFILES: Record<string, Profile> = {
  'openai-gpt-5.6-terra': {
    id: 'openai-gpt-5.6-terra',
    title: 'OpenAI GPT-5.6 Terra (implicit breakpoint on the newest message)',
    tokenizer: 'o200k_base',
    strategy: 'breakpoints',
    breakpoints: ['last-message'],
    minPrefixTokens: s(1024, OPENAI_GUIDE, 'caching is enabled automatically for prompts of 1024 tokens or longer'),
    retentionMinutes: s(
      30,
      OPENAI_CACHE_OPTIONS,
      "prompt_cache_options.ttl: 30m is the default and only value, a minimum lifetime per breakpoint written (the same text is in every client generated from OpenAI's API spec, e.g. openai-client-base 0.16.0)",
    ),
    refreshOnHit: s(false, OPENAI_CACHE_OPTIONS, 'the TTL is documented per breakpoint written; a refresh on a read is not documented, so none is assumed'),
    prices: {
      input: s(2, OPENAI_TERRA),
      cachedInput: s(0.2, OPENAI_TERRA),
      cacheWrite: s(2.5, OPENAI_TERRA, 'cache writes cost 1.25× the uncached input price (1.25 × $2.00)'),
      output: s(12, OPENAI_TERRA),
    },
  },
  'openai-automatic': {
    id: 'openai-automatic',
    title: 'OpenAI automatic prefix caching (models before GPT-5.6)',
    tokenizer: 'o200k_base',
    strategy: 'prefix',
    minPrefixTokens: s(1024, OPENAI_COOKBOOK, 'works automatically for prompts of 1024 tokens or more'),
    stepTokens: s(128, OPENAI_COOKBOOK, 'cache hits occur in increments of 128 tokens'),
    retentionMinutes: s(5, OPENAI_GUIDE, 'cached prefixes usually stay 5–10 minutes after last use (always evicted within an hour); the lower bound is used'),
    refreshOnHit: s(true, OPENAI_GUIDE, 'eviction follows inactivity, so a hit keeps the prefix alive'),
    prices: {},
  },
  'anthropic-claude-sonnet-4.5': {
    id: 'anthropic-claude-sonnet-4.5',
    title: 'Anthropic Claude Sonnet 4.5 (breakpoints after the system prompt and on the last message)',
    ...anthropicCaching,
    breakpoints: [...anthropicCaching.breakpoints],
    minPrefixTokens: s(
      1024,
      ANTHROPIC_MINIMUMS,
      'minimum cacheable prompt length for Claude Sonnet 4.5, as quoted from the prompt-caching docs (the same table, re-checked 2026-12-01: https://docs.orq.ai/docs/proxy/prompt-caching)',
    ),
    prices: {
      input: s(3, ANTHROPIC_PRICING),
      cachedInput: s(0.3, ANTHROPIC_PRICING, 'cache hits and refreshes'),
      cacheWrite: s(3.75, ANTHROPIC_PRICING, '5-minute cache writes'),
      output: s(15, ANTHROPIC_PRICING),
    },
  },
  anthropic: {
    id: 'anthropic',
    title: 'Anthropic, model not configured (breakpoints after the system prompt and on the last message)',
    ...anthropicCaching,
    breakpoints: [...anthropicCaching.breakpoints],
    minPrefixTokens: s(1024, ANTHROPIC_MINIMUMS, 'the smallest minimum listed for current Sonnet models; Opus 4.5/4.6 and Haiku 4.5 need 4096 — map the model to its own profile'),
    prices: {},
  },
  unknown: {
    id: 'unknown',
    title: 'Unknown provider (an ideal prefix cache: every byte-stable prefix, no minimum, no expiry)',
    tokenizer: 'approx',
    strategy: 'prefix',
    minPrefixTokens: s(0, NONE),
    stepTokens: s(1, NONE),
    retentionMinutes: s(null, NONE),
    refreshOnHit: s(true, NONE),
    prices: {},
  },
};

/** Explicit model → profile entries (checked first). */
export const MODELS: Record<string, string> = {
  'openai/gpt-5.6-terra': 'openai-gpt-5.6-terra',
  'anthropic/claude-sonnet-4-5': 'anthropic-claude-sonnet-4.5',
  'gpt-5.6-terra': 'openai-gpt-5.6-terra',
  'claude-sonnet-4-5': 'anthropic-claude-sonnet-4.5',
};

/** Provider prefixes → profile (the longest matching prefix wins). */
export const PREFIXES: Record<string, string> = {
  'openai/': 'openai-automatic',
  'anthropic/': 'anthropic',
  // Bare provider ids, as a trace imported with `npm run import` names them.
  'gpt-': 'openai-automatic',
  'claude-': 'anthropic',
};

/** Profile for a model matched by nothing. */
export const FALLBACK_PROFILE = 'unknown';
