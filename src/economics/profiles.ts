/**
 * Provider profiles as a build uses them: the shipped data (providers.ts) with a project's
 * overrides from astro.config.mjs merged in, and the lookup of a scenario's model id → profile
 * (explicit entry, then the longest provider prefix, then `unknown`). A figure a project adds
 * without a source is recorded as coming from astro.config.mjs.
 */
import { FALLBACK_PROFILE, MODELS, PREFIXES, PROFILES, type Prices, type Profile, type Sourced } from './providers.ts';

type Figure<T> = T | Sourced<T>;

/** A profile as written in astro.config.mjs: any field of a shipped profile, figures plain or sourced. */
export interface ProfileOptions {
  title?: string;
  tokenizer?: Profile['tokenizer'];
  strategy?: Profile['strategy'];
  breakpoints?: Profile['breakpoints'];
  minPrefixTokens?: Figure<number>;
  stepTokens?: Figure<number>;
  retentionMinutes?: Figure<number | null>;
  refreshOnHit?: Figure<boolean>;
  prices?: { [K in keyof Prices]?: Figure<number> };
}

/** `explainer({economics})` in astro.config.mjs. */
export interface EconomicsOptions {
  /** New profiles, or fields overriding a shipped profile's, by profile id. */
  profiles?: Record<string, ProfileOptions>;
  /** Model id → profile id, e.g. `{'openai/gpt-5.6-terra': 'openai-gpt-5.6-terra'}`. */
  models?: Record<string, string>;
  /** Model id prefix → profile id, e.g. `{'acme/': 'unknown'}`. */
  prefixes?: Record<string, string>;
}

export interface EconomicsConfig {
  profiles: Record<string, Profile>;
  models: Record<string, string>;
  prefixes: Record<string, string>;
}

export interface ProfileMatch {
  profile: Profile;
  /** How the model found its profile. */
  matched: 'model' | 'prefix' | 'fallback';
  /** The entry that matched (the model id or the prefix). */
  by: string;
}

const CONFIG_SOURCE = 'astro.config.mjs';
const TOKENIZERS = ['o200k_base', 'cl100k_base', 'approx'];
const STRATEGIES = ['prefix', 'breakpoints'];

function figure<T>(v: Figure<T> | undefined, read: string): Sourced<T> | undefined {
  if (v === undefined) return undefined;
  if (v !== null && typeof v === 'object' && 'value' in (v as object)) return v as Sourced<T>;
  return { value: v as T, source: CONFIG_SOURCE, read };
}

/** Merges a project's options over the shipped data; problems are messages with their fix. */
export function resolveEconomics(opts: EconomicsOptions = {}, today = 'astro.config.mjs'): { config: EconomicsConfig; problems: string[] } {
  const problems: string[] = [];
  const profiles: Record<string, Profile> = { ...PROFILES };
  for (const [id, o] of Object.entries(opts.profiles ?? {})) {
    const base = profiles[id];
    const where = `economics.profiles["${id}"]`;
    if (o.tokenizer !== undefined && !TOKENIZERS.includes(o.tokenizer))
      problems.push(`${where}.tokenizer "${o.tokenizer}" is not one of ${TOKENIZERS.join(', ')}\n  fix: pick one of those`);
    if (o.strategy !== undefined && !STRATEGIES.includes(o.strategy))
      problems.push(`${where}.strategy "${o.strategy}" is not one of ${STRATEGIES.join(', ')}\n  fix: pick one of those`);
    const merged: Partial<Profile> = { ...base, id };
    if (o.title !== undefined) merged.title = o.title;
    if (o.tokenizer !== undefined) merged.tokenizer = o.tokenizer;
    if (o.strategy !== undefined) merged.strategy = o.strategy;
    if (o.breakpoints !== undefined) merged.breakpoints = o.breakpoints;
    for (const k of ['minPrefixTokens', 'stepTokens', 'retentionMinutes', 'refreshOnHit'] as const) {
      const f = figure(o[k] as Figure<never> | undefined, today);
      if (f) (merged as Record<string, unknown>)[k] = f;
    }
    const prices: Prices = { ...(base?.prices ?? {}) };
    for (const [k, v] of Object.entries(o.prices ?? {})) {
      const f = figure(v, today);
      if (f && (typeof f.value !== 'number' || !(f.value >= 0))) problems.push(`${where}.prices.${k} must be a number ≥ 0 (USD per million tokens)\n  fix: write e.g. ${k}: 2.5`);
      else if (f) prices[k as keyof Prices] = f;
    }
    merged.prices = prices;
    const missing = ['tokenizer', 'strategy', 'minPrefixTokens', 'retentionMinutes', 'refreshOnHit'].filter((k) => (merged as Record<string, unknown>)[k] === undefined);
    if (missing.length) {
      problems.push(
        `${where} is a new profile but lacks ${missing.join(', ')}\n  fix: give every one of them, or use the id of a shipped profile (${Object.keys(PROFILES).join(', ')}) to override some fields`,
      );
      continue;
    }
    if (merged.title === undefined) merged.title = id;
    if (merged.strategy === 'breakpoints' && !merged.breakpoints?.length) merged.breakpoints = ['last-message'];
    if (merged.strategy === 'prefix' && !merged.stepTokens) merged.stepTokens = { value: 1, source: CONFIG_SOURCE, read: today };
    profiles[id] = merged as Profile;
  }
  const models = { ...MODELS, ...(opts.models ?? {}) };
  const prefixes = { ...PREFIXES, ...(opts.prefixes ?? {}) };
  for (const [kind, map] of [
    ['models', models],
    ['prefixes', prefixes],
  ] as const) {
    for (const [k, id] of Object.entries(map)) {
      if (!profiles[id])
        problems.push(
          `economics.${kind}["${k}"] names profile "${id}", which does not exist\n  fix: use one of ${Object.keys(profiles).join(', ')}, or define it under economics.profiles`,
        );
    }
  }
  return { config: { profiles, models, prefixes }, problems };
}

/** The shipped data, no overrides. */
export const DEFAULT_ECONOMICS: EconomicsConfig = resolveEconomics().config;

/** The profile a model id uses, and how it was matched. */
export function profileFor(c: EconomicsConfig, model: string): ProfileMatch {
  const explicit = c.models[model];
  if (explicit && c.profiles[explicit]) return { profile: c.profiles[explicit], matched: 'model', by: model };
  const prefix = Object.keys(c.prefixes)
    .filter((p) => model.startsWith(p) && c.profiles[c.prefixes[p]!])
    .sort((a, b) => b.length - a.length)[0];
  if (prefix !== undefined) return { profile: c.profiles[c.prefixes[prefix]!]!, matched: 'prefix', by: prefix };
  return { profile: c.profiles[FALLBACK_PROFILE]!, matched: 'fallback', by: FALLBACK_PROFILE };
}
