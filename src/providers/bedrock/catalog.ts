/**
 * Amazon Bedrock's catalog entries and cache rules (docs/cache-economics.md, "What the provider would cache"): Claude on
 * Bedrock through its inference profiles, and Amazon Nova. A model id on Bedrock is an inference
 * profile — `global.` (routed worldwide), a geography (`us.`, `eu.`, `apac.`, `jp.`) or the bare
 * in-region id (`anthropic.claude-…`) — and the profile decides the price: from Claude Sonnet 4.5 on,
 * a regional or geographic profile costs 10 % more than the global one. So each Claude model has two
 * entries, `-global` and `-regional`, the regional prices the global ones times the uplift (a figure
 * of its own, `BEDROCK_RULES.regionalUplift`, so the page can say where the 10 % comes from).
 *
 * Every figure is `Sourced`. AWS's own pricing page (aws.amazon.com/bedrock/pricing) is not in the
 * index we read with: the global Claude prices are Anthropic's list prices, which third-party
 * readings of the Bedrock page report as identical — said in each note, as "observed".
 */
import { s, type ModelFacts, type ModelPrices, type ProviderFallback, type Sourced } from '../shared/catalog.ts';

const B_CACHING = 'https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html';
const B_CACHE_POINT = 'https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CachePointBlock.html';
const B_USAGE = 'https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html';
const STRANDS_CACHING = 'https://strandsagents.com/docs/user-guide/sdk/model-providers/amazon-bedrock-prompt-caching/';
const A_ON_BEDROCK = 'https://platform.claude.com/docs/zh-TW/build-with-claude/claude-on-amazon-bedrock';
const A_PRICING = 'https://platform.claude.com/docs/en/about-claude/pricing';
const READ = '2026-12-06';

const OBSERVED_PRICE =
  'observed: AWS’s Bedrock pricing page is not in our index; the global profile’s rate is Anthropic’s list price (platform.claude.com pricing table, this row), which third-party readings of the Bedrock page (clauder-navi.com/en/bedrock-claude-cost, sam.mehdi.consulting "Saving Money on Bedrock is Hard", 2026) report as the Bedrock global rate';

// ── Provider-level rules ─────────────────────────────────────────────────────────────────────────
export const BEDROCK_RULES = {
  maxCheckpoints: s(
    4,
    B_CACHING,
    'the user guide’s supported-models table: "Max checkpoints per request" 4 for every Claude and Nova model (table read in a copy of the page quoted by portkey.ai/docs/integrations/llms/bedrock/prompt-caching; the index holds the page itself only in part)',
    READ,
  ),
  cacheOrder: s(
    ['tools', 'system', 'messages'] as const,
    B_CACHING,
    'cachePoint blocks go in toolConfig.tools, system and messages; the prefix is counted cumulatively in that order: "You can create your first checkpoint after your prompt and the model’s responses reach 1,024 tokens. You can create a second checkpoint after the total reaches 2,048 tokens"',
    READ,
  ),
  ttlMinutes: s(5, B_CACHING, 'a checkpoint’s default TTL is 5 minutes, reset on each cache hit', READ),
  ttl1hMinutes: s(
    60,
    B_CACHE_POINT,
    'cachePoint: {"type": "default", "ttl": "1h"} (accepted values "5m", "1h"); TTLs must not increase across toolConfig → system → messages (a longer TTL after a shorter one is rejected with a ValidationException) — read in the CachePointBlock reference as summarised by AWS’s Strands Agents SDK (strandsagents.com/docs/api/typescript/BedrockCacheTTL)',
    READ,
  ),
  refreshOnHit: s(true, B_CACHING, 'the TTL is reset with each successful cache hit', READ),
  lookbackBlocks: s(
    20,
    'https://github.com/aws/agent-toolkit-for-aws/blob/main/skills/core-skills/amazon-bedrock/references/prompt-caching.md',
    'secondary source (AWS’s agent toolkit, an AWS repository): with a single cachePoint on Claude models, Bedrock checks about 20 preceding blocks for an earlier entry (Anthropic’s own lookback rule)',
    READ,
  ),
  /** Anthropic-style `cache_control` in a Converse body is not a Converse field. */
  converseMarker: s(
    'cachePoint',
    B_CACHE_POINT,
    'Converse caches at cachePoint blocks only; a cache_control key is not part of any Converse content block, so Converse caches nothing for it (Anthropic’s cache_control applies to InvokeModel bodies, which are Anthropic Messages bodies)',
    READ,
  ),
  novaToolsCheckpoint: s(
    false,
    B_CACHING,
    'the supported-models table lists the fields a checkpoint may sit in: "system, messages, tools" for Claude, "system, messages" for Amazon Nova — "Tools caching is not supported for Amazon Nova models" (table read as quoted by portkey.ai, see maxCheckpoints)',
    READ,
  ),
  usageExcludesCache: s(
    true,
    B_USAGE,
    'TokenUsage: inputTokens counts the input tokens not read from or written to the cache; cacheReadInputTokens and cacheWriteInputTokens are separate',
    READ,
  ),
  regionalUplift: s(
    1.1,
    A_ON_BEDROCK,
    '"從 Claude Sonnet 4.5 及所有未來模型開始,Amazon Bedrock 提供兩種端點類型" — global endpoints and regional endpoints, the regional ones at a 10 % premium over global (Anthropic’s Claude on Amazon Bedrock page, "Global vs regional endpoints"; the same premium is reported for geographic cross-region profiles such as us.anthropic.claude-sonnet-4-6)',
    READ,
  ),
} as const;

/** The inference-profile prefixes of a geography (regional pricing), and the global one. */
export const GEO_PROFILES = ['us.', 'eu.', 'apac.', 'jp.'] as const;
export const GLOBAL_PROFILE = 'global.';

const BEDROCK_TTL = BEDROCK_RULES.ttlMinutes;
const BEDROCK_TTL_1H = BEDROCK_RULES.ttl1hMinutes;

/** Prices of one Claude row (global), and the same row with the regional uplift. */
function claudePrices(row: string, input: number, write5m: number, write1h: number, read: number, output: number, uplift = 1): ModelPrices {
  const f = (v: number, what: string): Sourced => {
    const value = Math.round(v * uplift * 1e6) / 1e6;
    const note = `${OBSERVED_PRICE}, row ${row}: ${what}`;
    return uplift === 1 ? s(value, A_PRICING, note, READ) : s(value, A_PRICING, `${note}; × ${uplift} for a regional or geographic profile (${A_ON_BEDROCK})`, READ);
  };
  return {
    input: f(input, 'base input'),
    cacheWrite: f(write5m, '5m cache writes'),
    cacheWrite1h: f(write1h, '1h cache writes'),
    cachedInput: f(read, 'cache hits'),
    output: f(output, 'output'),
  };
}

const bedrock = (m: Omit<ModelFacts, 'provider' | 'cache' | 'tokenizer' | 'retentionMinutes' | 'extendedRetentionMinutes'>, nova = false): ModelFacts => ({
  provider: 'bedrock',
  cache: 'bedrock',
  tokenizer: 'approx',
  retentionMinutes: BEDROCK_TTL,
  ...(!nova && { extendedRetentionMinutes: BEDROCK_TTL_1H }),
  ...m,
});

/** The two entries of one Claude model on Bedrock: the global profile and the regional ones. */
function claude(o: {
  key: string;
  title: string;
  base: string /** The full base model id (Anthropic's Bedrock page). */;
  full: string;
  minPrefixTokens: Sourced;
  row: string;
  prices: [number, number, number, number, number];
}): ModelFacts[] {
  const [input, w5, w1, read, output] = o.prices;
  const uplift = BEDROCK_RULES.regionalUplift.value;
  return [
    bedrock({
      id: `bedrock-${o.key}-global`,
      title: `Amazon Bedrock ${o.title} (global)`,
      ids: [`${GLOBAL_PROFILE}${o.full}`],
      families: [`${GLOBAL_PROFILE}${o.base}`],
      minPrefixTokens: o.minPrefixTokens,
      prices: claudePrices(o.row, input, w5, w1, read, output),
    }),
    bedrock({
      id: `bedrock-${o.key}-regional`,
      title: `Amazon Bedrock ${o.title} (regional, +10 %)`,
      ids: [...GEO_PROFILES.map((g) => `${g}${o.full}`), o.full],
      families: [...GEO_PROFILES.map((g) => `${g}${o.base}`), o.base],
      minPrefixTokens: o.minPrefixTokens,
      prices: claudePrices(o.row, input, w5, w1, read, output, uplift),
    }),
  ];
}

const MIN_SONNET = s(
  1024,
  STRANDS_CACHING,
  'secondary source (AWS’s own Strands Agents SDK docs): the guide to Bedrock prompt caching says "Each model has a minimum token requirement (e.g., 1,024 tokens for Claude Sonnet, 4,096 tokens for Claude Haiku)"; the user guide’s own table was not readable for the 4.5 generation',
  READ,
);
const MIN_HAIKU_45 = s(4096, STRANDS_CACHING, 'secondary source (AWS’s Strands Agents SDK docs), as above: "4,096 tokens for Claude Haiku" (Claude Haiku 4.5)', READ);

export const BEDROCK_CATALOG: ModelFacts[] = [
  ...claude({
    key: 'claude-sonnet-4.5',
    title: 'Claude Sonnet 4.5',
    base: 'anthropic.claude-sonnet-4-5',
    full: 'anthropic.claude-sonnet-4-5-20250929-v1:0',
    minPrefixTokens: MIN_SONNET,
    row: 'Claude Sonnet 4.5',
    prices: [3, 3.75, 6, 0.3, 15],
  }),
  ...claude({
    key: 'claude-sonnet-4.6',
    title: 'Claude Sonnet 4.6',
    base: 'anthropic.claude-sonnet-4-6',
    full: 'anthropic.claude-sonnet-4-6',
    minPrefixTokens: MIN_SONNET,
    row: 'Claude Sonnet 4.6',
    prices: [3, 3.75, 6, 0.3, 15],
  }),
  ...claude({
    key: 'claude-haiku-4.5',
    title: 'Claude Haiku 4.5',
    base: 'anthropic.claude-haiku-4-5',
    full: 'anthropic.claude-haiku-4-5-20251001-v1:0',
    minPrefixTokens: MIN_HAIKU_45,
    row: 'Claude Haiku 4.5',
    prices: [1, 1.25, 2, 0.1, 5],
  }),
  bedrock(
    {
      id: 'bedrock-nova-pro',
      title: 'Amazon Bedrock Amazon Nova Pro (no price configured)',
      ids: [],
      families: [...GEO_PROFILES.map((g) => `${g}amazon.nova-pro`), 'amazon.nova-pro'],
      minPrefixTokens: s(
        1000,
        B_CACHING,
        'the supported-models table: "Min tokens per checkpoint" 1,000 for Amazon Nova Micro, Lite and Pro (as quoted, see maxCheckpoints)',
        READ,
      ),
      prices: {},
    },
    true,
  ),
];

/** A Bedrock model the catalog does not name: the cache rules, no price. */
export const BEDROCK_FALLBACK = {
  model: {
    id: 'bedrock',
    title: 'Amazon Bedrock, model not in the catalog',
    provider: 'bedrock',
    ids: [],
    families: [],
    cache: 'bedrock',
    tokenizer: 'approx',
    minPrefixTokens: s(
      1024,
      STRANDS_CACHING,
      'secondary source (AWS’s Strands Agents SDK docs): the Claude Sonnet minimum; Haiku needs 4,096 and Nova 1,000: map the model to its own profile',
      READ,
    ),
    retentionMinutes: BEDROCK_TTL,
    extendedRetentionMinutes: BEDROCK_TTL_1H,
    prices: {},
  },
  prefixes: [GLOBAL_PROFILE, ...GEO_PROFILES.map((g) => `${g}anthropic.`), ...GEO_PROFILES.map((g) => `${g}amazon.`), 'anthropic.', 'amazon.', 'bedrock/'],
} as const satisfies ProviderFallback;
