/**
 * Anthropic's catalog entries and provider-level cache rules (docs/cache-economics.md, "What the provider would cache"): every
 * current Claude model, its ids and id families, minimum cacheable prefix, TTLs and prices, each a
 * `Sourced` figure with the page it was read from and the date read; RULES are the cache rules of
 * the `anthropic` strategy (cache.ts). See shared/catalog.ts for how ids are matched and why
 * the prices are kept by hand.
 */
import { s, type ModelFacts, type ModelPrices, type ProviderFallback, type Sourced } from '../shared/catalog.ts';

const A_CACHING = 'https://platform.claude.com/docs/en/build-with-claude/prompt-caching';
const A_PRICING = 'https://platform.claude.com/docs/en/about-claude/pricing';
const A_PRICING_ZH = 'https://platform.claude.com/docs/zh-CN/about-claude/pricing';
const A_MID_SYSTEM = 'https://platform.claude.com/docs/zh-CN/build-with-claude/mid-conversation-system-messages';

const A_CACHING_COPY =
  'read in a verbatim copy of this page’s markdown (docs/en/build-with-claude/prompt-caching.md) stored in a public repository; the search index holds the page itself only in part';
const A_MIN = (models: string) => `"Cache limitations": the minimum cacheable prompt length is this many tokens for ${models}; ${A_CACHING_COPY}`;
const A_ROW = (model: string, via = 'the English page') => `the "Model pricing" table, row ${model} (read in ${via})`;

/**
 * The models Anthropic's page "Mid-conversation system messages and tool changes" lists, in the
 * official translations read 2026-12-03 (zh-CN, the source below; zh-TW, ko and ja give the same
 * list). The English page (platform.claude.com/docs/build-with-claude/mid-conversation-system-messages)
 * carries the same title, but its availability note is not in the index; older verbatim copies of
 * it said "Claude Opus 4.8 only", then "Fable 5, Mythos 5, Opus 4.8 and Opus 5", then added
 * Fable 5.1, Mythos 5.1 and Opus 5.5 — the translations are the newest version read.
 */
export const MID_SYSTEM_MODELS = [
  'Claude Fable 5.1',
  'Claude Mythos 5.1',
  'Claude Fable 5',
  'Claude Mythos 5',
  'Claude Opus 5.5',
  'Claude Opus 4.8',
  'Claude Opus 5',
  'Claude Sonnet 5.5',
  'Claude Haiku 5.5',
] as const;

/**
 * Which models accept a mid-conversation system message — and so a mid-conversation tool change,
 * which rides on one (`tool_addition` / `tool_removal` blocks in a `{"role": "system"}` message;
 * the newest verbatim copy of the English page: tool changes "are in beta on the same models").
 * The rule the Anthropic adapter cites when a model rejects one. Claude Sonnet 5 is named as not
 * accepting it; a third-party release note (langchainjs @langchain/anthropic 1.5.13) says Sonnet 5
 * takes system messages but not tool changes — not Anthropic's word, and the page says otherwise.
 */
export const MID_SYSTEM_RULE: Sourced<boolean> = s(
  true,
  A_MID_SYSTEM,
  `"此功能适用于 ${MID_SYSTEM_MODELS.join('、')}" (available on ${MID_SYSTEM_MODELS.join(', ')}); "此功能不适用于 Claude Sonnet 5" (not available on Claude Sonnet 5). No beta header for system messages; tool changes are a beta on the same models. Appended at its position, the cached prefix before it stays readable`,
  '2026-12-03',
);

// ── Provider-level rules ─────────────────────────────────────────────────────────────────────────
export const ANTHROPIC_RULES = {
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
} as const;

// ── Shared per-model facts ───────────────────────────────────────────────────────────────────────
const A_TTL = s(5, A_CACHING, 'default `ephemeral` lifetime, refreshed on every read');
const A_TTL_1H = s(60, A_CACHING, '`ttl: "1h"`, written at 2× the input price');

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

const anthropic = (m: Omit<ModelFacts, 'provider' | 'cache' | 'tokenizer' | 'retentionMinutes' | 'extendedRetentionMinutes'>): ModelFacts => ({
  provider: 'anthropic',
  cache: 'anthropic',
  tokenizer: 'approx',
  retentionMinutes: A_TTL,
  extendedRetentionMinutes: A_TTL_1H,
  ...m,
});

/**
 * Older models that Claude Code 1.0.x transcripts name (claude-3-7-sonnet-20250219 for the main
 * loop, claude-3-5-haiku-20241022 for its small tasks), both deprecated. Their rows were read
 * 2026-12-06 in a stored copy of the English pricing page from when it listed Claude Opus 4.6 as the
 * newest model (the current page's table, read only in part, no longer reaches them); their minimums
 * in the prompt-caching page's "Cache limitations" list as quoted in anthropics/anthropic-sdk-python#1194
 * ("1024 tokens for … Claude Sonnet 3.7 (deprecated)"; "2048 tokens for Claude Haiku 3.5 (deprecated)
 * and Claude Haiku 3").
 */
const A_PRICING_OLD = 'https://platform.claude.com/docs/en/docs/about-claude/pricing';
const A_OLD_COPY = 'a stored copy of the English page from when it listed Claude Opus 4.6 as the newest model';
/** A row of that copy, read 2026-12-06. */
function oldPrices(row: string, input: number, write5m: number, write1h: number, read: number, output: number): ModelPrices {
  const note = A_ROW(row, A_OLD_COPY);
  const at = (value: number, what = '') => s(value, A_PRICING_OLD, `${note}${what}`, '2026-12-06');
  return {
    input: at(input),
    cacheWrite: at(write5m, ': 5m cache writes'),
    cacheWrite1h: at(write1h, ': 1h cache writes'),
    cachedInput: at(read, ': cache hits & refreshes'),
    output: at(output),
  };
}
const A_MIN_QUOTED = (models: string) =>
  `"Cache limitations": the minimum cacheable prompt length is this many tokens for ${models}; the page's list as quoted in anthropics/anthropic-sdk-python#1194`;

export const ANTHROPIC_CATALOG: ModelFacts[] = [
  // ── Anthropic ──────────────────────────────────────────────────────────────────────────────────
  anthropic({
    id: 'anthropic-claude-sonnet-3.7',
    title: 'Anthropic Claude Sonnet 3.7 (deprecated)',
    ids: ['claude-3-7-sonnet-20250219', 'claude-3-7-sonnet-latest'],
    families: ['claude-3-7-sonnet'],
    minPrefixTokens: s(1024, A_CACHING, A_MIN_QUOTED('Claude Sonnet 3.7 (deprecated)'), '2026-12-06'),
    prices: oldPrices('Claude Sonnet 3.7 (deprecated)', 3, 3.75, 6, 0.3, 15),
  }),
  anthropic({
    id: 'anthropic-claude-haiku-3.5',
    title: 'Anthropic Claude Haiku 3.5 (deprecated)',
    ids: ['claude-3-5-haiku-20241022', 'claude-3-5-haiku-latest'],
    families: ['claude-3-5-haiku'],
    minPrefixTokens: s(2048, A_CACHING, A_MIN_QUOTED('Claude Haiku 3.5 (deprecated) and Claude Haiku 3'), '2026-12-06'),
    prices: oldPrices('Claude Haiku 3.5', 0.8, 1, 1.6, 0.08, 4),
  }),
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
    features: { 'mid-conversation-system': MID_SYSTEM_RULE },
    prices: anthropicPrices('Claude Opus 4.8', 5, 6.25, 10, 0.5, 25, A_PRICING, 'the English page'),
  }),
  anthropic({
    id: 'anthropic-claude-opus-5',
    title: 'Anthropic Claude Opus 5',
    // No family: `claude-opus-5-5` is another model (Opus 5.5, not configured here).
    ids: ['claude-opus-5'],
    families: [],
    minPrefixTokens: A_MIN_512,
    features: { 'mid-conversation-system': MID_SYSTEM_RULE },
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
    features: { 'mid-conversation-system': MID_SYSTEM_RULE },
    prices: anthropicPrices('Claude Sonnet 5.5', 2, 2.5, 4, 0.1, 10, A_PRICING, 'a verbatim quote of the row in a public research note, retrieved 2026-10-08'),
    // Launched with cache reads at 0.1× ($0.20); cut to 0.05× ($0.10) on 2026-10-07.
    earlierPrices: [
      {
        field: 'cachedInput',
        until: '2026-10-07',
        value: s(
          0.2,
          'https://platform.claude.com/docs/zh-CN/models/sonnet-5-5/overview',
          'the Sonnet 5.5 overview’s launch price: "Cache read $0.20 / MTok" (an earlier copy of the page, read 2026-12-06); the cut to $0.10 took effect on 2026-10-07 — the date is observed (kurofune/claudit v1.9.2 and TheKrush/PromptFuel v1.0.23 release notes, both re-reading the pricing page), not read on Anthropic’s page',
          '2026-12-06',
        ),
      },
    ],
  }),
  anthropic({
    id: 'anthropic-claude-opus-5.5',
    title: 'Anthropic Claude Opus 5.5 (cache reads at 0.05×)',
    ids: ['claude-opus-5-5'],
    families: ['claude-opus-5-5'],
    minPrefixTokens: A_MIN_512_NEW,
    features: { 'mid-conversation-system': MID_SYSTEM_RULE },
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
    features: { 'mid-conversation-system': MID_SYSTEM_RULE },
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
    features: { 'mid-conversation-system': MID_SYSTEM_RULE },
    prices: anthropicPrices('Claude Fable 5 (and Mythos 5, limited availability)', 10, 12.5, 20, 1, 50, A_PRICING, 'the English page'),
  }),
  anthropic({
    id: 'anthropic-claude-fable-5.1',
    title: 'Anthropic Claude Fable 5.1 (cache reads at 0.025×)',
    ids: ['claude-fable-5-1', 'claude-mythos-5-1'],
    families: ['claude-fable-5-1', 'claude-mythos-5-1'],
    minPrefixTokens: A_MIN_512,
    features: { 'mid-conversation-system': MID_SYSTEM_RULE },
    prices: anthropicPrices('Claude Fable 5.1 (and Mythos 5.1, limited availability)', 10, 12.5, 20, 0.25, 50, A_PRICING, 'the English page; hits are 0.025× input on this model'),
  }),
];

/** A Claude model the catalog does not name: the provider's rules, no price (never a made-up one); matched by these id prefixes. */
export const ANTHROPIC_FALLBACK = {
  model: {
    id: 'anthropic',
    title: 'Anthropic, model not in the catalog',
    provider: 'anthropic',
    ids: [],
    families: [],
    cache: 'anthropic',
    tokenizer: 'approx',
    minPrefixTokens: s(
      1024,
      A_CACHING,
      'the minimum of most current Sonnet and Opus models (512 for the newest, 4,096 for Opus 4.5/4.6 and Haiku 4.5): map the model to its own profile',
      '2026-12-01',
    ),
    retentionMinutes: ANTHROPIC_RULES.ttlMinutes,
    extendedRetentionMinutes: ANTHROPIC_RULES.ttl1hMinutes,
    prices: {},
  },
  prefixes: ['anthropic/', 'claude-'],
} as const satisfies ProviderFallback;

/** The side-by-side's default Anthropic rows: Opus/Sonnet/Haiku 5.5 and Sonnet 4.5, the model agents still default to and the one the Bedrock rows serve (a hand-kept choice). */
export const ANTHROPIC_SIDE_BY_SIDE = ['anthropic-claude-opus-5.5', 'anthropic-claude-sonnet-5.5', 'anthropic-claude-haiku-5.5', 'anthropic-claude-sonnet-4.5'] as const;
