/**
 * Google Gemini's catalog entries and cache rules (docs/cache-economics.md, "What the provider would cache"), for the
 * Gemini API and Vertex AI (the same generateContent bodies). Implicit caching on Gemini 2.5 and
 * later: no markers, a common prefix of at least the model's minimum is read at the model's cached
 * price, no write price; the minimums changed during 2026, so each says which version of the page it
 * was read in. Explicit caches (`cachedContents`, created with a TTL) are billed per token-hour of
 * storage on top (GEMINI_RULES.storage*; the what-if prices them), and are not offered on Gemini 4.
 * Every figure is `Sourced`; what we could not read from Google's own pages is said in the note
 * ("observed": only third parties report it), or left out ("no price configured").
 */
import { s, type ModelFacts, type ProviderFallback } from '../shared/catalog.ts';

export const G_CACHING = 'https://ai.google.dev/gemini-api/docs/caching';
export const G_PRICING = 'https://ai.google.dev/gemini-api/docs/pricing';
const G_LATEST = 'https://ai.google.dev/gemini-api/docs/generate-content/latest-model';
const G_INTERACTIONS_CACHING = 'https://ai.google.dev/gemini-api/docs/interactions/caching';
const V_CACHING = 'https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/context-cache/context-cache-overview';
const READ = '2026-12-06';
const FORUM = (n: string) => `Google’s pricing page as quoted in Google’s developer forum (discuss.ai.google.dev/t/${n})`;

export const GEMINI_RULES = {
  implicitOn: s(
    true,
    G_CACHING,
    '"Implicit caching is enabled by default for all Gemini 2.5 and newer models … There is nothing you need to do in order to enable this" (page last updated 2026-07-07)',
    READ,
  ),
  noGuarantee: s(
    'no cost saving guarantee',
    G_CACHING,
    'implicit caching: "no cost saving guarantee"; no retention is documented ("send requests with similar prefix in a short amount of time") — the model keeps an entry alive and says an older one "may have been evicted"',
    READ,
  ),
  promptIncludesCached: s(
    true,
    V_CACHING,
    'cachedContentTokenCount is "the number of tokens in the cached part of your input"; promptTokenCount counts the whole prompt, cached part included',
    READ,
  ),
  vertexImplicitRetention: s(
    24 * 60,
    V_CACHING,
    'Vertex AI keeps implicit caches in memory and durable tiers, up to 24 hours; "Implicit caching provides a 90% discount on cached tokens compared to standard input tokens"',
    READ,
  ),
  explicitTtlDefaultMinutes: s(60, G_CACHING, 'explicit caching: "If not set, the TTL defaults to 1 hour"; billed by cached token count and storage duration', READ),
  noExplicitOnGemini4: s(
    false,
    G_INTERACTIONS_CACHING,
    'explicit caching (creating cachedContents) is not offered for Gemini 4 models, and the Interactions API "only supports implicit caching"',
    READ,
  ),
  cachedContentExcludes: s(
    'systemInstruction, tools, toolConfig',
    G_CACHING,
    'a request that uses a cachedContent takes its system instruction and tools from the cache: sending systemInstruction, tools or toolConfig beside it is rejected (400 INVALID_ARGUMENT: "CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config")',
    READ,
  ),
  interactionsPrefix: s(
    'not in the body',
    G_INTERACTIONS_CACHING,
    'with the Interactions API’s previous_interaction_id the server holds the conversation so far: the request body carries only the new turn, so the prefix a cache hit reads is not in the capture',
    READ,
  ),
} as const;

/** Gemini 2.5 Pro's storage price of an explicit cache, USD per million tokens per hour. */
export const GEMINI_25_PRO_STORAGE = s(4.5, G_PRICING, `"$4.50 / 1,000,000 tokens per hour (storage price)" — ${FORUM('question-about-gemini-api-caching-pricing/107349')}`, READ);

const gemini = (m: Omit<ModelFacts, 'provider' | 'cache' | 'tokenizer' | 'retentionMinutes'>): ModelFacts => ({
  provider: 'google',
  cache: 'gemini-implicit',
  tokenizer: 'approx',
  retentionMinutes: s(null, G_CACHING, GEMINI_RULES.noGuarantee.note, READ),
  ...m,
});

export const GEMINI_CATALOG: ModelFacts[] = [
  gemini({
    id: 'google-gemini-2.5-pro',
    title: 'Google Gemini 2.5 Pro',
    ids: ['gemini-2.5-pro'],
    families: ['gemini-2.5-pro'],
    minPrefixTokens: s(2048, G_CACHING, 'the implicit-caching table: "Gemini 2.5 Pro 2048" (page last updated 2026-07-07); the version last updated 2026-05-07 said 4096', READ),
    prices: {
      input: s(
        1.25,
        G_PRICING,
        `input "$1.25, prompts <= 200k tokens" ($2.50 above: the long-prompt tier) — transcription of the page read 2026-10-07 (api-evangelist/deepmind plans/deepmind-plans-pricing.yml)`,
        READ,
      ),
      cachedInput: s(
        0.125,
        G_PRICING,
        `context caching "$0.125, prompts ≤ 200k tokens" ($0.25 above); an earlier version of the page said $0.31 — ${FORUM('question-about-gemini-api-caching-pricing/107349')}`,
        READ,
      ),
      output: s(10, G_PRICING, 'output $10.00 for prompts ≤ 200k tokens (observed: deploybase.ai "Gemini 2.5 Pricing", 2026-01-08, quoting the page)', READ),
      storagePerHour: GEMINI_25_PRO_STORAGE,
    },
    longPrompt: {
      aboveTokens: s(200_000, G_PRICING, 'the price column splits at "prompts <= 200k tokens" / "prompts > 200k tokens"', READ),
      prices: {
        input: s(2.5, G_PRICING, 'input "$2.50, prompts > 200k tokens" (transcription of the page read 2026-10-07, api-evangelist/deepmind)', READ),
        cachedInput: s(0.25, G_PRICING, `context caching "$0.25, prompts > 200k tokens" — ${FORUM('question-about-gemini-api-caching-pricing/107349')}`, READ),
        output: s(15, G_PRICING, 'output $15.00 for prompts > 200k tokens (observed: deploybase.ai, 2026-01-08, quoting the page)', READ),
      },
    },
  }),
  gemini({
    id: 'google-gemini-2.5-flash',
    title: 'Google Gemini 2.5 Flash',
    ids: ['gemini-2.5-flash'],
    families: ['gemini-2.5-flash'],
    minPrefixTokens: s(2048, G_CACHING, 'the implicit-caching table: "Gemini 2.5 Flash 2048" (page last updated 2026-07-07); the version last updated 2026-05-07 said 1024', READ),
    prices: {
      input: s(0.3, G_PRICING, 'input "$0.30 (text / image / video)" — transcription of the page read 2026-10-07 (api-evangelist/deepmind)', READ),
      output: s(2.5, G_PRICING, 'output $2.50 (observed: deploybase.ai, 2026-01-08, quoting the page)', READ),
    },
  }),
  gemini({
    id: 'google-gemini-4-argon',
    title: 'Google Gemini 4 Argon',
    ids: ['gemini-4-argon'],
    families: ['gemini-4-argon'],
    minPrefixTokens: s(
      4096,
      G_CACHING,
      'assumed: the implicit-caching table (read 2026-12-06) does not list Gemini 4 Argon; every Gemini 3.5 and later model it lists (3.5–3.8 Flash, 3.1 Pro) needs 4,096',
      READ,
    ),
    prices: {
      input: s(4, G_LATEST, '"$2 per 1M input tokens until November 30, 2026 (then $4)" — the Gemini 4 Argon guide (zh-CN rendering); in force from 2026-12-01', READ),
      cachedInput: s(
        0.2,
        G_PRICING,
        'cached input $0.20 from 2026-12-01 ($0.10 before; observed: LiteLLM discussion #46238 and TokenMeter v0.13.1 quoting the pricing page); implicit caching only',
        READ,
      ),
      output: s(20, G_LATEST, '"$10 per 1M output tokens until November 30, 2026 (then $20)"; thinking tokens bill as output', READ),
    },
    // The launch prices, in force until 2026-11-30 inclusive: doubled on 2026-12-01.
    earlierPrices: [
      { field: 'input', until: '2026-12-01', value: s(2, G_LATEST, 'the launch price: "$2 per 1M input tokens until November 30, 2026"', READ) },
      {
        field: 'cachedInput',
        until: '2026-12-01',
        value: s(0.1, G_PRICING, 'cached input $0.10 at the launch price (observed: LiteLLM discussion #46238, TokenMeter v0.13.1)', READ),
      },
      { field: 'output', until: '2026-12-01', value: s(10, G_LATEST, 'the launch price: "$10 per 1M output tokens until November 30, 2026"', READ) },
    ],
  }),
];

export const GEMINI_FALLBACK = {
  model: {
    id: 'google',
    title: 'Google Gemini, model not in the catalog',
    provider: 'google',
    ids: [],
    families: [],
    cache: 'gemini-implicit',
    tokenizer: 'approx',
    minPrefixTokens: s(4096, G_CACHING, 'the largest minimum of the implicit-caching table (Gemini 3.5+ Flash, 3.1 Pro): map the model to its own profile', READ),
    retentionMinutes: s(null, G_CACHING, GEMINI_RULES.noGuarantee.note, READ),
    prices: {},
  },
  prefixes: ['gemini-', 'google/', 'models/gemini-'],
} as const satisfies ProviderFallback;
