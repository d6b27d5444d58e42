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
 * Model ids map to profiles in profiles.ts: explicit ids, then families (id prefixes, which also
 * cover dated ids), then provider prefixes, else `unknown`.
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
  /** Cache writes: OpenAI GPT-5.6+, and Anthropic's 5-minute TTL. */
  cacheWrite?: Sourced;
  /** Anthropic cache writes with the 1-hour TTL. */
  cacheWrite1h?: Sourced;
  output?: Sourced;
}

export type Encoding = 'o200k_base' | 'cl100k_base';

export type CacheKind = 'openai-prefix' | 'openai-breakpoints' | 'anthropic';
export const CACHE_KINDS: readonly CacheKind[] = ['openai-prefix', 'openai-breakpoints', 'anthropic'];

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
  prices: Prices;
}

const READ = '2026-12-01';
const READ2 = '2026-12-02';
const OPENAI_GUIDE = 'https://developers.openai.com/api/docs/guides/prompt-caching';
const OPENAI_COOKBOOK = 'https://developers.openai.com/cookbook/examples/prompt_caching_201';
const OPENAI_TERRA = 'https://developers.openai.com/de-DE/api/docs/models/gpt-5.6-terra';
const OPENAI_CACHE_OPTIONS = 'https://docs.rs/async-openai/0.42.0/async_openai/types/responses/struct.PromptCacheOptionsParam.html';
const ANTHROPIC_CACHING = 'https://platform.claude.com/docs/en/build-with-claude/prompt-caching';
const ANTHROPIC_MINIMUMS = 'https://github.com/anthropics/anthropic-sdk-python/issues/1194';
const ANTHROPIC_PRICING = 'https://platform.claude.com/docs/zh-CN/about-claude/pricing';
const VERTEX_CLAUDE_CACHING = 'https://docs.cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/prompt-caching?hl=ja';

const NONE = 'none: no provider facts, an ideal cache is assumed';

const s = <T>(value: T, source: string, note?: string, read = READ): Sourced<T> => ({ value, source, read, ...(note && { note }) });

/** Provider-level Anthropic rules (the same for every model). */
export const ANTHROPIC_RULES = {
  retentionMinutes: s(5, ANTHROPIC_CACHING, 'default `ephemeral` TTL'),
  extendedRetentionMinutes: s(60, ANTHROPIC_CACHING, '`ttl: "1h"` on a breakpoint'),
  refreshOnHit: s(true, VERTEX_CLAUDE_CACHING, 'the cache lifetime is refreshed each time the cached content is used'),
  maxBreakpoints: s(4, ANTHROPIC_CACHING, 'up to 4 cache breakpoints per request; more is an error'),
  lookbackBlocks: s(20, ANTHROPIC_CACHING, 'a breakpoint checks for hits at earlier block boundaries, up to about 20 blocks before it'),
} as const;

/** Provider-level OpenAI GPT-5.6+ rules. */
export const OPENAI_BREAKPOINT_RULES = {
  minPrefixTokens: s(1024, OPENAI_GUIDE, 'caching is enabled automatically for prompts of 1024 tokens or longer'),
  retentionMinutes: s(
    30,
    OPENAI_CACHE_OPTIONS,
    'prompt_cache_options.ttl: 30m is the default and only value, a minimum lifetime per breakpoint written; the backend may keep entries longer',
  ),
  refreshOnHit: s(false, OPENAI_CACHE_OPTIONS, 'the TTL is documented per breakpoint written; a refresh on a read is not documented, so none is assumed'),
  maxBreakpoints: s(4, OPENAI_CACHE_OPTIONS, 'a request writes up to four breakpoints: the implicit one and the latest three explicit ones', READ2),
} as const;

/** Provider-level OpenAI rules before GPT-5.6. */
export const OPENAI_PREFIX_RULES = {
  minPrefixTokens: s(1024, OPENAI_COOKBOOK, 'works automatically for prompts of 1024 tokens or more'),
  stepTokens: s(128, OPENAI_COOKBOOK, 'cache hits occur in increments of 128 tokens'),
  retentionMinutes: s(5, OPENAI_GUIDE, 'cached prefixes usually stay 5–10 minutes after last use (always evicted within an hour); the lower bound is used'),
  refreshOnHit: s(true, OPENAI_GUIDE, 'eviction follows inactivity, so a hit keeps the prefix alive'),
} as const;

export const PROFILES: Record<string, Profile> = {
  'openai-gpt-5.6-terra': {
    id: 'openai-gpt-5.6-terra',
    title: 'OpenAI GPT-5.6 Terra (implicit breakpoint near the newest user/tool message)',
    tokenizer: 'o200k_base',
    cache: 'openai-breakpoints',
    ...OPENAI_BREAKPOINT_RULES,
    prices: {
      input: s(2, OPENAI_TERRA),
      cachedInput: s(0.2, OPENAI_TERRA),
      cacheWrite: s(2.5, OPENAI_TERRA, 'cache writes cost 1.25× the uncached input price (1.25 × $2.00)'),
      output: s(12, OPENAI_TERRA),
    },
  },
  'openai-gpt-5.6': {
    id: 'openai-gpt-5.6',
    title: 'OpenAI GPT-5.6 family, model not configured (implicit breakpoint near the newest user/tool message)',
    tokenizer: 'o200k_base',
    cache: 'openai-breakpoints',
    ...OPENAI_BREAKPOINT_RULES,
    prices: {},
  },
  'openai-automatic': {
    id: 'openai-automatic',
    title: 'OpenAI automatic prefix caching (models before GPT-5.6)',
    tokenizer: 'o200k_base',
    cache: 'openai-prefix',
    ...OPENAI_PREFIX_RULES,
    prices: {},
  },
  'anthropic-claude-sonnet-4.5': {
    id: 'anthropic-claude-sonnet-4.5',
    title: 'Anthropic Claude Sonnet 4.5',
    tokenizer: 'approx',
    cache: 'anthropic',
    ...ANTHROPIC_RULES,
    minPrefixTokens: s(
      1024,
      ANTHROPIC_MINIMUMS,
      'minimum cacheable prompt length for Claude Sonnet 4.5, as quoted from the prompt-caching docs (the same table, re-checked 2026-12-01: https://docs.orq.ai/docs/proxy/prompt-caching)',
    ),
    prices: {
      input: s(3, ANTHROPIC_PRICING),
      cachedInput: s(0.3, ANTHROPIC_PRICING, 'cache hits and refreshes'),
      cacheWrite: s(3.75, ANTHROPIC_PRICING, '5-minute cache writes'),
      cacheWrite1h: s(6, ANTHROPIC_PRICING, '1-hour cache writes (2× the input price)'),
      output: s(15, ANTHROPIC_PRICING),
    },
  },
  anthropic: {
    id: 'anthropic',
    title: 'Anthropic, model not configured',
    tokenizer: 'approx',
    cache: 'anthropic',
    ...ANTHROPIC_RULES,
    minPrefixTokens: s(1024, ANTHROPIC_MINIMUMS, 'the smallest minimum listed for current Sonnet models; Opus 4.5/4.6 and Haiku 4.5 need 4096 — map the model to its own profile'),
    prices: {},
  },
  unknown: {
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
};

/** Explicit model id → profile (checked first; a `provider/` prefix is also tried without it). */
export const MODELS: Record<string, string> = {
  'gpt-5.6-terra': 'openai-gpt-5.6-terra',
  'claude-sonnet-4-5': 'anthropic-claude-sonnet-4.5',
};

/** Model families: id prefixes (dated ids and variants) → profile; the longest matching one wins. */
export const FAMILIES: Record<string, string> = {
  'gpt-5.6': 'openai-gpt-5.6',
  'gpt-6': 'openai-gpt-5.6',
  'gpt-7': 'openai-gpt-5.6',
  'gpt-5.6-terra': 'openai-gpt-5.6-terra',
  'claude-sonnet-4-5': 'anthropic-claude-sonnet-4.5',
};

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
