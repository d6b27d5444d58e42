/**
 * Our catalog's prices against a maintained price dataset, `@pydantic/genai-prices` (a pinned
 * devDependency): which dataset and version, every price of ours the dataset disagrees with and why
 * we keep ours, and the priced catalog entries the dataset lacks. Pure data, so the report and the
 * page can say where each price came from without loading the 2 MB dataset;
 * src/providers/price-dataset.test.ts compares every priced catalog entry against the installed
 * dataset and fails on any disagreement or gap not written down here.
 *
 * Prices are not *taken* from the dataset at run time: it is a devDependency (a project installing
 * this package does not get it, and the economics also run in the browser, where it would add
 * ~2 MB), it carries no source page or read date per figure, and where it covers one of our models
 * it agrees with our sourced figure except as listed below. The test makes it the cross-check that
 * catches a price that moved: bump the pin, run the test, and fix whichever side is wrong.
 */
import type { BilledPrice } from './shared/catalog.ts';

/** The dataset, its pinned version (package.json devDependencies) and the day we compared. */
export const PRICE_DATASET = {
  name: '@pydantic/genai-prices',
  version: '0.1.8',
  url: 'https://github.com/pydantic/genai-prices',
  license: 'MIT',
  /** Prices are looked up as of this day (the dataset has dated price changes). */
  compared: '2026-12-03',
} as const;

export type PriceField = BilledPrice;
export const PRICE_FIELDS: readonly PriceField[] = ['input', 'cachedInput', 'cacheWrite', 'cacheWrite1h', 'output'];

/** A price of ours the dataset gives otherwise, and why ours is kept. */
export interface PriceDisagreement {
  /** Catalog entry (profile) id. */
  profile: string;
  field: PriceField;
  /** Our figure and the dataset's (USD per million tokens; null: that side has none). */
  ours: number | null;
  dataset: number | null;
  /** The dataset model the entry's id resolved to. */
  datasetModel: string;
  /** Why ours is kept, and the provider's page (URL, date read) it rests on. */
  reason: string;
  source: string;
  read: string;
}

export const PRICE_DISAGREEMENTS: readonly PriceDisagreement[] = [
  {
    profile: 'anthropic-claude-sonnet-5.5',
    field: 'cachedInput',
    ours: 0.1,
    dataset: 0.2,
    datasetModel: 'claude-sonnet-5',
    reason:
      'the dataset has no Claude Sonnet 5.5 entry and resolves claude-sonnet-5-5 to Claude Sonnet 5 (hits at 0.1× of $2); the pricing page’s Sonnet 5.5 row prices hits at $0.10 (0.05×, its footnote)',
    source: 'https://platform.claude.com/docs/en/about-claude/pricing',
    read: '2026-12-02',
  },
  // Bedrock: the dataset agrees with every other Bedrock Claude price of ours (global and regional, the
  // regional ones 10 % above), but has no 1-hour cache write; ours is Anthropic's 2× input (observed).
  ...(
    [
      ['bedrock-claude-sonnet-4.5-global', 6, 'global.anthropic.claude-sonnet-4-5-20250929-v1:0'],
      ['bedrock-claude-sonnet-4.5-regional', 6.6, 'regional.anthropic.claude-sonnet-4-5-20250929-v1:0'],
      ['bedrock-claude-sonnet-4.6-global', 6, 'global.anthropic.claude-sonnet-4-6-v1:0'],
      ['bedrock-claude-sonnet-4.6-regional', 6.6, 'regional.anthropic.claude-sonnet-4-6-v1:0'],
      ['bedrock-claude-haiku-4.5-global', 2, 'global.anthropic.claude-haiku-4-5-20251001-v1:0'],
      ['bedrock-claude-haiku-4.5-regional', 2.2, 'regional.anthropic.claude-haiku-4-5-20251001-v1:0'],
    ] as const
  ).map(
    ([profile, ours, datasetModel]): PriceDisagreement => ({
      profile,
      field: 'cacheWrite1h',
      ours,
      dataset: null,
      datasetModel,
      reason:
        'the dataset has no 1-hour cache write for Bedrock; Bedrock accepts ttl: "1h" checkpoints (CachePointBlock) and ours is Anthropic’s 1-hour write price for the row (× 1.1 on a regional profile), observed as Bedrock’s',
      source: 'https://platform.claude.com/docs/en/about-claude/pricing',
      read: '2026-12-06',
    }),
  ),
  {
    profile: 'google-gemini-2.5-flash',
    field: 'cachedInput',
    ours: null,
    dataset: 0.03,
    datasetModel: 'gemini-2.5-flash',
    reason:
      'no copy of Google’s pricing page we could read gives Gemini 2.5 Flash’s context-caching price; the dataset is not the provider’s page, so ours stays "no price configured" (a cache hit on 2.5 Flash is then unpriced)',
    source: 'https://ai.google.dev/gemini-api/docs/pricing',
    read: '2026-12-06',
  },
];

/** Priced catalog entries the dataset has no model for (ours is the only figure), with the id looked up. */
export const NOT_IN_DATASET: readonly { profile: string; id: string }[] = [
  { profile: 'openai-gpt-6.1-sol', id: 'gpt-6.1-sol' },
  { profile: 'openai-gpt-6.1-terra', id: 'gpt-6.1-terra' },
  { profile: 'openai-gpt-6.2-sol', id: 'gpt-6.2-sol' },
  { profile: 'anthropic-claude-haiku-5.5', id: 'claude-haiku-5-5' },
  { profile: 'google-gemini-4-argon', id: 'gemini-4-argon' },
];

/** What the dataset says about one catalog price: it agrees, it disagrees (ours kept, with why), or it lacks the model. */
export type DatasetCheck =
  | { dataset: string; version: string; agrees: true }
  | { dataset: string; version: string; agrees: false; value: number | null; model: string; reason: string }
  | { dataset: string; version: string; lacksModel: true };

export function datasetCheck(profile: string, field: PriceField): DatasetCheck {
  const at = { dataset: PRICE_DATASET.name, version: PRICE_DATASET.version };
  if (NOT_IN_DATASET.some((m) => m.profile === profile)) return { ...at, lacksModel: true };
  const d = PRICE_DISAGREEMENTS.find((x) => x.profile === profile && x.field === field);
  return d ? { ...at, agrees: false, value: d.dataset, model: d.datasetModel, reason: d.reason } : { ...at, agrees: true };
}
