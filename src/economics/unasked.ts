/**
 * "These requests never ask for caching" (docs/cache-economics.md, "What the provider would cache"): requests as
 * sent (an imported trace) that carry no cache breakpoint, on a provider that caches only what a
 * request asks for, read and write nothing — every input token is billed in full. What a team most
 * needs to hear then is what asking would save: each way the provider's adapter lists
 * (`askCaching`: Anthropic's one breakpoint after the system prompt, and automatic caching) priced
 * over the same requests, per conversation and per 1,000 conversations like it.
 *
 * Not said when the bill shows caching (a measured cached or written token: something the capture
 * does not show asked for it), nor for a fold's own requests (they get the fold's breakpoints).
 * Pure; every figure is `scenarioEconomics` over a variant of the scenario with the breakpoints added.
 */
import { requestWith, withRequests, type RenderedRequest, type RenderedScenario } from '../prompt/render.ts';
import { adapterOfStrategy, providerOf } from '../providers/registry.ts';
import type { AskCaching, ProviderAdapter, Sourced } from '../providers/types.ts';
import { scenarioEconomics, shapeCache, type ScenarioEconomics, type Totals } from './compute.ts';
import { formatTokens, formatUsd } from './format.ts';
import { billShowsCaching, markersNotCaptured } from './measured.ts';
import { profileFor, type EconomicsConfig } from './profiles.ts';

export interface AskOption {
  id: string;
  label: string;
  /** The own requests' totals had every request asked this way. */
  totals: Totals;
  /** As-is cost minus this option's cost, for the whole conversation (null: no price). */
  savedUsd: number | null;
  /** The same for 1,000 conversations like this one (null: no price). */
  per1000Usd: number | null;
  source: Sourced<string>;
}

export interface UnaskedCaching {
  /** Own requests (every one of them asks for no caching). */
  requests: number;
  options: AskOption[];
  /** Token figures (and so the dollars) are approximate. */
  exact: boolean;
  /** The sentence the page, the report and the linter say. */
  sentence: string;
}

const round = (x: number): number => Math.round(x * 1e10) / 1e10;

/** The requests of the scenario had each one as sent without breakpoints asked this way. */
function asked(r: RenderedScenario, way: AskCaching): RenderedScenario {
  return withRequests(r, (q) => (q.asSent && !q.breakpoints?.length ? requestWith(q, { breakpoints: way.breakpoints(q.messages).map((message) => ({ message })) }) : q));
}

/** The finding for one scenario, or null when its requests ask for caching (or need not). */
export function unaskedCaching(r: RenderedScenario, econ: ScenarioEconomics, config: EconomicsConfig, corpus?: ReadonlyMap<string, RenderedScenario>): UnaskedCaching | null {
  if (!r.requests.length || !econ.requests.length) return null;
  if (!r.requests.every((q) => q.asSent && !q.breakpoints?.length)) return null;
  const t = econ.totals;
  if (t.cachedTokens || t.cacheWriteTokens || t.rejected) return null;
  // The bill is the truth: cached or written tokens on it mean the requests did ask, somewhere the capture does not show.
  if (billShowsCaching(r)) return null;
  // A capture that does not record cache markers cannot say the requests never asked.
  if (markersNotCaptured(r)) return null;
  const payloads = new Map(r.scenario.chain.map((e) => [e.offset, e.payload]));
  // The request's own format names its adapter (an imported payload's `format`); else the adapter of the profile's cache strategy.
  const adapterOf = (q: RenderedRequest): ProviderAdapter | undefined => {
    const format = (payloads.get(q.offset) as { format?: unknown } | undefined)?.format;
    return (typeof format === 'string' && providerOf(format)) || adapterOfStrategy(profileFor(config, q.model).profile.cache);
  };
  const adapters = new Set(r.requests.map(adapterOf));
  if (adapters.size !== 1) return null;
  const ways = [...adapters][0]?.askCaching;
  if (!ways?.length) return null;
  const shapes = shapeCache();
  const options: AskOption[] = [];
  for (const way of ways) {
    if (!r.requests.some((q) => way.breakpoints(q.messages).length)) continue;
    const totals = scenarioEconomics(asked(r, way), config, { attribute: false, shapes, ...(corpus && { corpus }) }).totals;
    const savedUsd = totals.costUsd === null || t.costUsd === null ? null : round(t.costUsd - totals.costUsd);
    options.push({ id: way.id, label: way.label, totals, savedUsd, per1000Usd: savedUsd === null ? null : round(savedUsd * 1000), source: way.source });
  }
  const u: UnaskedCaching = { requests: econ.requests.length, options, exact: t.exact, sentence: '' };
  u.sentence = unaskedSentence(u);
  return u;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "These 4 requests never ask for caching: …; one breakpoint after the system prompt would save $X per conversation ($Y per 1,000)." */
export function unaskedSentence(u: Pick<UnaskedCaching, 'requests' | 'options' | 'exact'>): string {
  const a = u.exact ? '' : '≈';
  const these = u.requests === 1 ? 'This request never asks' : `These ${plural(u.requests, 'request')} never ask`;
  const head = `${these} for caching: nothing is read from the cache or written to it, and every input token is billed at the full price`;
  const parts = u.options.map((o) => {
    const cached = `${formatTokens(o.totals.cachedTokens, u.exact)} tokens read from the cache`;
    if (o.savedUsd === null) return `${o.label} would have ${cached} (no price configured)`;
    if (o.savedUsd < 0) return `${o.label} would cost ${a}${formatUsd(-o.savedUsd)} more here (${cached}: too few to pay for its writes)`;
    if (o.savedUsd === 0) return `${o.label} would save nothing here (${cached})`;
    return `${o.label} would save ${a}${formatUsd(o.savedUsd)} per conversation (${a}${formatUsd(o.per1000Usd!)} per 1,000 conversations like it)`;
  });
  return parts.length ? `${head}. ${capital(parts.join('; '))}.` : `${head}.`;
}

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
