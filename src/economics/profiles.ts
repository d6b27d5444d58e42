/**
 * Provider profiles as a build uses them: the shipped data (shipped-profiles.ts) with a project's
 * overrides from astro.config.mjs merged in, and the lookup of a scenario's model id → profile:
 * an explicit model entry (the id as written, then without its `provider/` prefix), then the
 * longest family prefix of the bare id (families cover dated ids such as
 * `claude-sonnet-4-5-20250929` and variants such as `gpt-5.6-sol`), then the longest provider
 * prefix, then `unknown`. A figure a project adds without a source is recorded as coming from
 * astro.config.mjs.
 */
import { CACHE_STRATEGIES } from '../providers/registry.ts';
import { CACHE_KINDS, FALLBACK_PROFILE, FAMILIES, MODELS, PREFIXES, PROFILES, strategyOf, type CacheKind, type Prices, type Profile, type Sourced } from './shipped-profiles.ts';
import { configFile } from '../project.ts';

type Figure<T> = T | Sourced<T>;

/** A profile as written in astro.config.mjs: any field of a shipped profile, figures plain or sourced. */
export interface ProfileOptions {
  title?: string;
  tokenizer?: Profile['tokenizer'];
  cache?: CacheKind;
  /** Older spelling of `cache`: `prefix` is `openai-prefix`, `breakpoints` is `openai-breakpoints`. */
  strategy?: 'prefix' | 'breakpoints';
  minPrefixTokens?: Figure<number>;
  stepTokens?: Figure<number>;
  retentionMinutes?: Figure<number | null>;
  extendedRetentionMinutes?: Figure<number>;
  refreshOnHit?: Figure<boolean>;
  maxBreakpoints?: Figure<number>;
  lookbackBlocks?: Figure<number>;
  prices?: { [K in keyof Prices]?: Figure<number> };
}

/** `explainer({economics})` in astro.config.mjs. */
export interface EconomicsOptions {
  /** New profiles, or fields overriding a shipped profile's, by profile id. */
  profiles?: Record<string, ProfileOptions>;
  /** Model id → profile id, e.g. `{'openai/gpt-5.6-terra': 'openai-gpt-5.6-terra'}`. */
  models?: Record<string, string>;
  /** Model family (a prefix of the bare model id) → profile id, e.g. `{'gpt-5.6': 'openai-gpt-5.6'}`. */
  families?: Record<string, string>;
  /** Model id prefix → profile id, e.g. `{'acme/': 'unknown'}`. */
  prefixes?: Record<string, string>;
}

export interface EconomicsConfig {
  profiles: Record<string, Profile>;
  models: Record<string, string>;
  families: Record<string, string>;
  prefixes: Record<string, string>;
}

export interface ProfileMatch {
  profile: Profile;
  /** How the model found its profile. */
  matched: 'model' | 'family' | 'prefix' | 'fallback';
  /** The entry that matched (the model id, the family or the prefix). */
  by: string;
}

const TOKENIZERS = ['o200k_base', 'cl100k_base', 'approx'];
/** A strategy's older spelling (its `alias`) → its id: a profile's `strategy:`. */
const STRATEGIES: Record<string, CacheKind> = Object.fromEntries(CACHE_STRATEGIES.flatMap((c) => (c.alias ? [[c.alias, c.id as CacheKind]] : [])));

/** A problem with a project's economics options: what is wrong and how to fix it (UserError's shape, src/errors.ts). */
export interface EconomicsProblem {
  problem: string;
  fix: string;
}

function figure<T>(v: Figure<T> | undefined, read: string): Sourced<T> | undefined {
  if (v === undefined) return undefined;
  if (v !== null && typeof v === 'object' && 'value' in (v as object)) return v as Sourced<T>;
  return { value: v as T, source: configFile(), read };
}

/** The `read` of a figure a project writes as a bare number in its config: the config states no date for it. */
export const UNDATED = 'undated';

/**
 * Merges a project's options over the shipped data; each problem is what is wrong and its fix. A figure
 * written as a bare number is sourced to the config file and read on `readOn` (YYYY-MM-DD), which
 * the config does not state: UNDATED unless a caller knows the date.
 */
export function resolveEconomics(opts: EconomicsOptions = {}, readOn: string = UNDATED): { config: EconomicsConfig; problems: EconomicsProblem[] } {
  const problems: EconomicsProblem[] = [];
  const problem = (what: string, fix: string): void => {
    problems.push({ problem: what, fix });
  };
  const profiles: Record<string, Profile> = { ...PROFILES };
  for (const [id, o] of Object.entries(opts.profiles ?? {})) {
    const base = profiles[id];
    const where = `economics.profiles["${id}"]`;
    if (o.tokenizer !== undefined && !TOKENIZERS.includes(o.tokenizer)) problem(`${where}.tokenizer "${o.tokenizer}" is not one of ${TOKENIZERS.join(', ')}`, 'pick one of those');
    if (o.strategy !== undefined && !STRATEGIES[o.strategy])
      problem(`${where}.strategy "${o.strategy}" is not one of ${Object.keys(STRATEGIES).join(', ')}`, `write cache: one of ${CACHE_KINDS.join(', ')}`);
    if (o.cache !== undefined && !CACHE_KINDS.includes(o.cache)) problem(`${where}.cache "${o.cache}" is not one of ${CACHE_KINDS.join(', ')}`, 'pick one of those');
    const merged: Partial<Profile> = { ...base, id };
    if (o.title !== undefined) merged.title = o.title;
    if (o.tokenizer !== undefined) merged.tokenizer = o.tokenizer;
    const cache = o.cache ?? (o.strategy !== undefined ? STRATEGIES[o.strategy] : undefined);
    if (cache !== undefined) merged.cache = cache;
    for (const k of ['minPrefixTokens', 'stepTokens', 'retentionMinutes', 'extendedRetentionMinutes', 'refreshOnHit', 'maxBreakpoints', 'lookbackBlocks'] as const) {
      const f = figure(o[k] as Figure<never> | undefined, readOn);
      if (f) (merged as Record<string, unknown>)[k] = f;
    }
    const prices: Prices = { ...(base?.prices ?? {}) };
    for (const [k, v] of Object.entries(o.prices ?? {})) {
      const f = figure(v, readOn);
      if (f && (typeof f.value !== 'number' || !(f.value >= 0))) problem(`${where}.prices.${k} must be a number ≥ 0 (USD per million tokens)`, `write e.g. ${k}: 2.5`);
      else if (f) prices[k as keyof Prices] = f;
    }
    merged.prices = prices;
    const missing = ['tokenizer', 'cache', 'minPrefixTokens', 'retentionMinutes', 'refreshOnHit'].filter((k) => (merged as Record<string, unknown>)[k] === undefined);
    if (missing.length) {
      problem(
        `${where} is a new profile but lacks ${missing.join(', ')}`,
        `give every one of them, or use the id of a shipped profile (${Object.keys(PROFILES).join(', ')}) to override some fields`,
      );
      continue;
    }
    if (merged.title === undefined) merged.title = id;
    if (merged.cache !== undefined && CACHE_KINDS.includes(merged.cache) && strategyOf(merged as Profile).entries === 'prefix' && !merged.stepTokens)
      merged.stepTokens = { value: 1, source: configFile(), read: readOn };
    profiles[id] = merged as Profile;
  }
  const models = { ...MODELS, ...(opts.models ?? {}) };
  const families = { ...FAMILIES, ...(opts.families ?? {}) };
  const prefixes = { ...PREFIXES, ...(opts.prefixes ?? {}) };
  for (const [kind, map] of [
    ['models', models],
    ['families', families],
    ['prefixes', prefixes],
  ] as const) {
    for (const [k, id] of Object.entries(map)) {
      if (!profiles[id])
        problem(`economics.${kind}["${k}"] names profile "${id}", which does not exist`, `use one of ${Object.keys(profiles).join(', ')}, or define it under economics.profiles`);
    }
  }
  return { config: { profiles, models, families, prefixes }, problems };
}

/** The shipped data, no overrides. */
export const DEFAULT_ECONOMICS: EconomicsConfig = resolveEconomics().config;

/** The longest key of `map` that `id` starts with and that names an existing profile. */
function longest(c: EconomicsConfig, map: Record<string, string>, id: string): string | undefined {
  let best: string | undefined;
  for (const k of Object.keys(map)) if (id.startsWith(k) && c.profiles[map[k]!] && (best === undefined || k.length > best.length)) best = k;
  return best;
}

/** The model id without a leading `provider/` (scenarios write `openai/gpt-5.6-terra`, traces `gpt-5.6-terra`). */
export const bareModel = (model: string): string => model.slice(model.indexOf('/') + 1);

/** The profile a model id uses, and how it was matched. */
export function profileFor(c: EconomicsConfig, model: string): ProfileMatch {
  const bare = bareModel(model);
  for (const id of [model, bare]) {
    const explicit = c.models[id];
    if (explicit && c.profiles[explicit]) return { profile: c.profiles[explicit], matched: 'model', by: id };
  }
  const family = longest(c, c.families, bare);
  if (family !== undefined) return { profile: c.profiles[c.families[family]!]!, matched: 'family', by: family };
  const prefix = longest(c, c.prefixes, model);
  if (prefix !== undefined) return { profile: c.profiles[c.prefixes[prefix]!]!, matched: 'prefix', by: prefix };
  return { profile: c.profiles[FALLBACK_PROFILE]!, matched: 'fallback', by: FALLBACK_PROFILE };
}
