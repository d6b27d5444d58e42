/**
 * OpenAI's catalog entries and provider-level cache rules (docs/cache-economics.md, "What the provider would cache"): the current
 * GPT models, their ids and families, which cache strategy each uses (automatic prefix caching
 * before GPT-5.6, breakpoints from GPT-5.6 on), retention and prices, each a `Sourced` figure with
 * the page it was read from and the date read. Shared by the Chat Completions and Responses
 * adapters (one provider, two formats). See shared/catalog.ts for how ids are matched.
 */
import { s, type ModelFacts, type ModelPrices, type ProviderFallback } from '../shared/catalog.ts';

const O_GUIDE = 'https://developers.openai.com/api/docs/guides/prompt-caching';
const O_COOKBOOK = 'https://developers.openai.com/cookbook/examples/prompt_caching_201';
const O_PRICING = 'https://developers.openai.com/api/docs/pricing';
const O_API_CACHE_OPTIONS = 'https://docs.rs/async-openai/0.42.0/async_openai/types/responses/struct.PromptCacheOptionsParam.html';
const O_MODEL = (id: string) => `https://developers.openai.com/api/docs/models/${id}`;
const O_ROW = (model: string) => `the model page's text-token pricing for ${model}`;

// ── Provider-level rules ─────────────────────────────────────────────────────────────────────────
/** Automatic prefix caching, before GPT-5.6. */
export const OPENAI_RULES = {
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
  /** What a cache hit needs: the whole prefix byte for byte. */
  exactPrefix: s(
    true,
    O_GUIDE,
    '"Cache hits are only possible for exact prefix matches within a prompt. To realize caching benefits, place static content like instructions and examples at the beginning of your prompt, and put variable content, such as user-specific information, at the end." (the guide’s "Structuring prompts", read as quoted in an OpenAI community forum answer, community.openai.com/t/967577; the search index holds the guide itself only in part)',
    '2026-12-03',
  ),
} as const;

/** GPT-5.6 and later: breakpoints. */
export const OPENAI_BREAKPOINT_RULES = {
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
} as const;

// ── Shared per-model facts ───────────────────────────────────────────────────────────────────────
const O_MIN = s(1024, O_GUIDE, 'caching starts at 1024 prompt tokens');
const O_RETENTION = s(5, O_GUIDE, '5 to 10 minutes of inactivity (lower bound), always evicted within one hour');
const O_EXTENDED = s(24 * 60, O_GUIDE, '`prompt_cache_retention: "24h"`: up to 24 hours (an upper bound); this model is on the guide’s list of models offering it');
const O56_RETENTION = s(30, O_API_CACHE_OPTIONS, 'minimum lifetime per breakpoint written (`ttl: "30m"`, the default); secondary source — see RULES.openaiBreakpoints.ttlMinutes');

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

/**
 * GPT-5.3-Codex, the model of Codex CLI sessions from February 2026: OpenAI's model page is not
 * among the documents we could read, so its list prices come from secondary sources that agree —
 * the pinned price dataset (@pydantic/genai-prices 0.1.8), a dated snapshot of OpenAI's Codex
 * prices (fernando-nog.netlify.app/gpt-coding-model-costs-2026, 2026-05-05) and GitHub Docs'
 * models-and-pricing table — each read 2026-12-06. The source stays OpenAI's model page.
 */
function codexSecondaryPrices(model: string, input: number, cached: number, output: number): ModelPrices {
  const note = `secondary source: ${model} at $${input} input, $${cached} cached input and $${output} output per MTok in three sources that agree (the pinned price dataset @pydantic/genai-prices 0.1.8; https://fernando-nog.netlify.app/gpt-coding-model-costs-2026/, a snapshot of OpenAI's prices of 2026-05-05; GitHub Docs' models-and-pricing table); we could not read OpenAI's own model page`;
  return { input: s(input, O_MODEL(model), note), cachedInput: s(cached, O_MODEL(model), note), output: s(output, O_MODEL(model), note) };
}

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

export const OPENAI_CATALOG: ModelFacts[] = [
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
    id: 'openai-gpt-5-codex',
    title: 'OpenAI GPT-5-Codex (shut down, per its model page)',
    ids: ['gpt-5-codex'],
    families: [],
    extendedRetentionMinutes: O_EXTENDED,
    prices: openaiPrices('gpt-5-codex', 1.25, 0.125, 10, undefined, 'read 2026-12-06 in a stored copy of the page, which marks the model as shut down'),
  }),
  openaiPrefix({
    id: 'openai-gpt-5-3-codex',
    title: 'OpenAI GPT-5.3-Codex',
    ids: ['gpt-5.3-codex'],
    families: [],
    prices: codexSecondaryPrices('gpt-5.3-codex', 1.75, 0.175, 14),
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
];

/** An OpenAI model the catalog does not name: automatic prefix caching as before GPT-5.6, no price; matched by these id prefixes. */
export const OPENAI_FALLBACK = {
  model: {
    id: 'openai-automatic',
    title: 'OpenAI, model not in the catalog (automatic prefix caching, as before GPT-5.6)',
    provider: 'openai',
    ids: [],
    families: [],
    cache: 'openai-prefix',
    tokenizer: 'o200k_base',
    minPrefixTokens: OPENAI_RULES.minPrefixTokens,
    retentionMinutes: OPENAI_RULES.retentionMinutes,
    prices: {},
  },
  // Bare provider ids (as a trace imported with `npm run import` names them) after the scenario prefix.
  prefixes: ['openai/', 'gpt-'],
} as const satisfies ProviderFallback;

/** The side-by-side's default OpenAI rows: the current Sol/Terra and GPT-5.5/5.4 mini (a hand-kept choice, not a usage statistic). */
export const OPENAI_SIDE_BY_SIDE = ['openai-gpt-6.2-sol', 'openai-gpt-6.1-terra', 'openai-gpt-5.6-terra', 'openai-gpt-5.4-mini'] as const;

/** The host of OpenAI's own documentation (a figure read elsewhere is a secondary source). */
export const OPENAI_DOC_HOSTS = ['developers.openai.com'] as const;

/** A current OpenAI model as a scenario names it, for documentation examples. */
export const OPENAI_EXAMPLE_MODEL = 'openai/gpt-5.6-terra';

/** How OpenAI's models count and cache, for the model catalog's table. */
export const OPENAI_CATALOG_NOTE =
  'Token counts exact. Caching: "prefix" is automatic prefix caching in 128-token steps (before GPT-5.6); "breakpoints" is GPT-5.6 and later (implicit and explicit breakpoints, writes billed). "Write" is the 30-minute write.';
