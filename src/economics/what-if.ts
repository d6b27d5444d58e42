/**
 * What-if: the same scenario re-priced under the other retention choices its provider offers, so a
 * reviewer can answer "would the 1-hour TTL pay for this stream's idle gaps?" without running
 * anything. The economics are a black box here: every figure comes from `scenarioEconomics` run
 * over a variant of the scenario (breakpoints with another TTL, keep-alive requests added, every
 * idle gap set to one length) or under a variant profile (another retention, another write price).
 *
 * Options: a profile's cache strategy says which it offers (its `whatIf`, in the provider's
 * src/providers/<provider>/cache.ts; this file names no provider):
 * - breakpoints with a TTL of their own (`perBreakpointTtl`): every breakpoint 5 min; 1 h on the
 *   first breakpoint (the stable prefix: tools and system) and 5 min after it (longer TTLs must come
 *   before shorter ones); every breakpoint 1 h — where the profile prices the 1-hour write;
 * - otherwise the strategy's longer retention (a profile variant with that retention, its writes
 *   priced the same, at a price of their own, or not priced), or why it has none;
 * - and, where the strategy allows it and the profile says a read refreshes an entry, every entry
 *   kept alive by a keep-alive request (the previous request sent again) 30 s before it would expire.
 * A strategy that offers no choice (`whatIf` absent) gets no what-if, and the page says why.
 *
 * "Pays from": with every idle gap of the stream set to one length g, an entry last used k gaps ago
 * is alive iff k·g ≤ its retention R, so the cost of either choice only changes at g = R/k. The
 * stream is re-priced once per interval between those points; the longer retention pays on the
 * intervals where it costs less. A conversation of more than PAYS_FROM_MAX_K + 1 requests is
 * re-priced at k ≤ PAYS_FROM_MAX_K only (gaps down to R/32; each re-pricing is the whole stream, so
 * every k of a 400-request conversation was 800 re-pricings of 400 requests), and says so.
 * Pure; time is the requests' own timestamps.
 *
 * A scenario that shares a provider cache with others (`sharesCache:`, shared-cache.ts) is re-priced
 * over that shared cache, given the corpus: only its own requests change from option to option; the
 * scenarios it shares the cache with keep their requests and times (under the option's profile).
 */
import type { Breakpoint } from '../folds/types.ts';
import { requestWith, withRequests, type RenderedRequest, type RenderedScenario } from '../prompt/render.ts';
import { adapterOfStrategy, CATALOG } from '../providers/registry.ts';
import { explicitCacheChoice } from './explicit-cache.ts';
import { scenarioEconomics, shapeCache, type ShapeCache, type Totals } from './compute.ts';
import { profileFor, type EconomicsConfig } from './profiles.ts';
import { strategyOf, type Profile, type Sourced } from './shipped-profiles.ts';

export type WhatIfOptionId = 'as-is' | 'ttl-5m' | 'ttl-1h-first' | 'ttl-1h' | 'keep-alive' | 'retention-24h' | 'write-12h' | 'explicit-cache';

export interface WhatIfOption {
  id: WhatIfOptionId;
  /** `every breakpoint 1 h`. */
  label: string;
  /** The scenario's own requests under this choice (keep-alive requests included). */
  totals: Totals;
  /** Keep-alive requests added (keep-alive only). */
  keepAlive: number;
  /** Cost minus the as-is cost (null: no price). */
  deltaUsd: number | null;
  /** The cost of 1,000 conversations like this one (null: no price). */
  per1000Usd: number | null;
  /** Labels of the choices that come to the same figures (shown as one row). */
  same: string[];
}

/** Where a longer retention starts (and stops) paying, with every idle gap set to one length. */
export interface PaysFrom {
  /** The option compared with the default retention. */
  longer: WhatIfOptionId;
  shortMinutes: number;
  longMinutes: number;
  /** The longer retention costs less for idle gaps above this (null: at no gap length). */
  fromMinutes: number | null;
  /** …and up to this (null: from `fromMinutes` on, with no upper end found). */
  untilMinutes: number | null;
  /** Set when the gaps tried stop at R/k for this k (a conversation longer than PAYS_FROM_MAX_K + 1 requests). */
  coarseK?: number;
}

/** At most this many gaps back are told apart by "pays from" (see the file header). */
export const PAYS_FROM_MAX_K = 32;

export interface WhatIf {
  profile: string;
  title: string;
  options: WhatIfOption[];
  paysFrom: PaysFrom | null;
  /** The own requests' idle gaps (ms): the time since the chain's previous request. */
  idleGapsMs: number[];
  /** What the reader should know about these figures (modelling choices, sources). */
  notes: string[];
  sources: Sourced<unknown>[];
}

/** Why there is no what-if for a scenario. */
export interface NoWhatIf {
  reason: string;
}

const KEEP_ALIVE_MARGIN_MS = 30_000;
const MINUTE = 60_000;

const round = (x: number): number => Math.round(x * 1e10) / 1e10;

/** The breakpoints a request carries, or (a fold's own request) the default placement made explicit, each with `ttl`. A request as sent gets none it did not ask for. */
function withTtl(q: RenderedRequest, p: Profile, ttl: (i: number) => Breakpoint['ttl']): RenderedRequest {
  const defaults = q.asSent ? [] : (adapterOfStrategy(p.cache)?.defaultBreakpoints(q.messages) ?? []);
  const marks: Breakpoint[] = q.breakpoints?.length ? [...q.breakpoints] : defaults.map((message) => ({ message }));
  return requestWith(q, { breakpoints: marks.map((b, i) => ({ ...b, ttl: ttl(i) })) });
}

/** The chain with the previous request sent again `margin` before each entry of `retentionMs` would lapse. */
function keepAlive(r: RenderedScenario, retentionMs: number): { scenario: RenderedScenario; added: number } {
  const own = new Set(r.requests.map((q) => q.offset));
  const chain: RenderedRequest[] = [];
  const requests: RenderedRequest[] = [];
  let added = 0;
  const every = Math.max(1000, retentionMs - KEEP_ALIVE_MARGIN_MS);
  r.chain.forEach((q, i) => {
    const prev = i > 0 ? r.chain[i - 1]! : undefined;
    if (prev) {
      const next = Date.parse(q.createdAt);
      let last = Date.parse(prev.createdAt);
      for (let k = 1; next - last > retentionMs; k++) {
        last += every;
        // A fractional offset keeps the ping between the two requests and apart from every event.
        const ping = requestWith(prev, { offset: prev.offset + k / 1e6, previous: prev.offset, createdAt: new Date(last).toISOString() });
        chain.push(ping);
        if (own.has(q.offset)) {
          requests.push(ping);
          added++;
        }
      }
    }
    chain.push(q);
    if (own.has(q.offset)) requests.push(q);
  });
  return { scenario: { ...r, chain, requests }, added };
}

/** The chain with every idle gap `gapMs` long. */
function retimed(r: RenderedScenario, gapMs: number): RenderedScenario {
  const t0 = Date.parse(r.chain[0]!.createdAt);
  const at = new Map(r.chain.map((q, i) => [q.offset, new Date(t0 + i * gapMs).toISOString()]));
  return withRequests(r, (q) => requestWith(q, { createdAt: at.get(q.offset)! }));
}

/** A way of running the scenario: a variant of it, under a profile. */
interface Run {
  id: WhatIfOptionId;
  label: string;
  profile: Profile;
  scenario: (r: RenderedScenario) => RenderedScenario;
}

/** The choices the profile's cache strategy offers (its `whatIf`, src/providers/<provider>/cache.ts), as runs; undefined: it offers none. */
function runsFor(
  p: Profile,
  asSent: boolean,
): { runs: Run[]; longer?: [WhatIfOptionId, WhatIfOptionId]; keepAlive: boolean; notes: string[]; sources: Sourced<unknown>[] } | undefined {
  const strategy = strategyOf(p);
  const choices = strategy.whatIf;
  if (!choices) return undefined;
  const same = (r: RenderedScenario): RenderedScenario => r;
  const label = strategy.perBreakpointTtl ? (asSent ? 'as the requests ask' : 'as placed by the fold') : (choices.asIs ?? 'as-is');
  const runs: Run[] = [{ id: 'as-is', label, profile: p, scenario: same }];
  const notes: string[] = [];
  const sources: Sourced<unknown>[] = [p.retentionMinutes];
  const keepAlive = choices.keepAlive === true;
  const noKeepAlive = choices.keepAlive === true ? [] : [choices.keepAlive.no];
  // Breakpoints that choose their own TTL: 5 min or 1 h.
  if (strategy.perBreakpointTtl) {
    if (p.extendedRetentionMinutes && p.prices.cacheWrite1h) {
      runs.push(
        { id: 'ttl-5m', label: 'every breakpoint 5 min', profile: p, scenario: (r) => withRequests(r, (q) => withTtl(q, p, () => '5m')) },
        {
          id: 'ttl-1h-first',
          label: '1 h on the first breakpoint, 5 min after',
          profile: p,
          scenario: (r) => withRequests(r, (q) => withTtl(q, p, (i) => (i === 0 ? '1h' : '5m'))),
        },
        { id: 'ttl-1h', label: 'every breakpoint 1 h', profile: p, scenario: (r) => withRequests(r, (q) => withTtl(q, p, () => '1h')) },
      );
      sources.push(p.extendedRetentionMinutes, p.prices.cacheWrite1h);
      notes.push(...noKeepAlive);
      return { runs, longer: ['ttl-5m', 'ttl-1h'], keepAlive, notes, sources };
    }
    // No 1-hour run to compare against (an unpriced model's profile): no "pays from" either.
    notes.push('the 1-hour TTL is not priced for this profile', ...noKeepAlive);
    return { runs, keepAlive, notes, sources };
  }
  // A longer retention the request can ask for (the catalog's figure for the model, where it lists one).
  const longer = choices.longer?.(p.id, CATALOG.find((m) => m.id === p.id)?.extendedRetentionMinutes);
  if (!longer || 'none' in longer) {
    if (longer) notes.push(longer.none);
    notes.push(...noKeepAlive);
    return { runs, keepAlive, notes, sources };
  }
  const { cacheWrite: _default, ...unpriced } = p.prices;
  const prices = longer.write === 'unpriced' ? unpriced : 'price' in longer.write ? { ...p.prices, cacheWrite: longer.write.price } : p.prices;
  runs.push({ id: longer.id, label: longer.label, profile: { ...p, retentionMinutes: longer.minutes, prices }, scenario: same });
  sources.push(longer.minutes, ...(longer.write === 'unpriced' ? [] : ['price' in longer.write ? longer.write.price : longer.write.same]));
  notes.push(...longer.notes, ...noKeepAlive);
  return { runs, longer: ['as-is', longer.id], keepAlive, notes, sources };
}

/** The own requests' totals of one run (every request forced onto the run's profile, no attribution). */
function totals(r: RenderedScenario, config: EconomicsConfig, p: Profile, shapes: ShapeCache, corpus?: Corpus): Totals {
  const c: EconomicsConfig = { ...config, profiles: { ...config.profiles, [p.id]: p } };
  return scenarioEconomics(r, c, { profile: p.id, attribute: false, shapes, ...(corpus && { corpus }) }).totals;
}

/** Where the longer retention costs less, with every idle gap set to one length (see the file header). */
function paysFrom(r: RenderedScenario, config: EconomicsConfig, short: Run, long: Run, shapes: ShapeCache, corpus?: Corpus): PaysFrom | null {
  const rs = short.profile.retentionMinutes.value;
  const rl = long.id === 'ttl-1h' ? long.profile.extendedRetentionMinutes?.value : long.profile.retentionMinutes.value;
  if (rs === null || rl === null || rl === undefined) return null;
  const n = r.chain.length;
  if (n < 2) return null;
  const points = new Set<number>();
  const kMax = Math.min(n - 1, PAYS_FROM_MAX_K);
  for (const R of [rs, rl]) for (let k = 1; k <= kMax; k++) points.add((R * MINUTE) / k);
  const ends = [...points].sort((a, b) => a - b);
  const uppers = [...ends, ends.at(-1)! + MINUTE];
  let from: number | null = null;
  let until: number | null = null;
  let lower = 0;
  for (const g of uppers) {
    const v = retimed(r, g);
    const a = totals(short.scenario(v), config, short.profile, shapes, corpus).costUsd;
    const b = totals(long.scenario(v), config, long.profile, shapes, corpus).costUsd;
    if (a === null || b === null) return null;
    if (b < a) {
      if (from === null) from = lower;
      until = g === uppers.at(-1) ? null : g;
    }
    lower = g;
  }
  const m = (x: number | null): number | null => (x === null ? null : round(x / MINUTE));
  return {
    longer: long.id,
    shortMinutes: rs,
    longMinutes: rl,
    fromMinutes: m(from),
    untilMinutes: from === null ? null : m(until),
    ...(kMax < n - 1 && { coarseK: kMax }),
  };
}

/** The what-if of a scenario, or why there is none. */
/** The rendered corpus by scenario id (for a scenario that shares a provider cache). */
type Corpus = ReadonlyMap<string, RenderedScenario>;

export function whatIf(r: RenderedScenario, config: EconomicsConfig, corpus?: Corpus): WhatIf | NoWhatIf {
  if (!r.requests.length) return { reason: 'the scenario has no request' };
  const ids = new Set(r.chain.map((q) => profileFor(config, q.model).profile.id));
  if (ids.size > 1) return { reason: `its requests use ${ids.size} profiles (${[...ids].join(', ')}); a what-if re-prices one` };
  const p = profileFor(config, r.requests[0]!.model).profile;
  if (p.retentionMinutes.value === null) return storageChoice(r, config, p) ?? { reason: `profile ${p.id} never expires an entry: retention changes nothing` };
  const choices = runsFor(
    p,
    r.requests.every((q) => q.asSent),
  );
  if (!choices) return { reason: `${strategyOf(p).title} offers no retention choice to compare` };
  const { runs, longer, notes, sources } = choices;
  const shapes = shapeCache();
  const all: { run: Run; totals: Totals; keepAlive: number }[] = runs.map((run) => ({ run, totals: totals(run.scenario(r), config, run.profile, shapes, corpus), keepAlive: 0 }));
  if (p.refreshOnHit.value && choices.keepAlive) {
    // Per-breakpoint TTLs: the keep-alive keeps 5-minute breakpoints alive (whatever TTL the fold asks for), so it stands beside "1 h".
    const short = runs.find((x) => x.id === 'ttl-5m');
    const ka = keepAlive(short ? short.scenario(r) : r, p.retentionMinutes.value * MINUTE);
    all.push({
      run: {
        id: 'keep-alive',
        label: `keep-alive request ${KEEP_ALIVE_MARGIN_MS / 1000} s before the ${p.retentionMinutes.value}-minute retention runs out`,
        profile: p,
        scenario: (x) => x,
      },
      totals: totals(ka.scenario, config, p, shapes, corpus),
      keepAlive: ka.added,
    });
  }
  const base = all[0]!.totals;
  const key = (t: Totals): string => JSON.stringify([t.costUsd, t.cachedTokens, t.cacheWriteTokens, t.inputTokens]);
  const options: WhatIfOption[] = [];
  for (const { run, totals: t, keepAlive: k } of all) {
    if (run.id === 'keep-alive' && k === 0) {
      notes.push(`no idle gap reaches the ${p.retentionMinutes.value}-minute retention: a keep-alive request is never needed`);
      continue;
    }
    if (run.id === 'keep-alive') notes.push('a keep-alive request is the previous request sent again (its output is not counted: ask for one token)');
    // A choice with the same figures as one already listed is named on that row (e.g. as-is = every breakpoint 5 min).
    const twin = options.find((o) => key(o.totals) === key(t) && o.keepAlive === k);
    if (twin) {
      twin.same.push(run.label);
      continue;
    }
    options.push({
      id: run.id,
      label: run.label,
      totals: t,
      keepAlive: k,
      deltaUsd: t.costUsd === null || base.costUsd === null ? null : round(t.costUsd - base.costUsd),
      per1000Usd: t.costUsd === null ? null : round(t.costUsd * 1000),
      same: [],
    });
  }
  const byId = new Map(runs.map((x) => [x.id, x]));
  const pays = longer ? paysFrom(r, config, byId.get(longer[0])!, byId.get(longer[1])!, shapes, corpus) : null;
  const own = new Set(r.requests.map((q) => q.offset));
  const idleGapsMs = r.chain.flatMap((q, i) => (i > 0 && own.has(q.offset) ? [Date.parse(q.createdAt) - Date.parse(r.chain[i - 1]!.createdAt)] : []));
  return { profile: p.id, title: p.title, options, paysFrom: pays, idleGapsMs, notes, sources };
}

export const isWhatIf = (w: WhatIf | NoWhatIf): w is WhatIf => 'options' in w;

/** A profile with an explicit cache billed per token-hour (explicit-cache.ts): the implicit cache as-is beside an explicit cache of the system prompt. */
function storageChoice(r: RenderedScenario, config: EconomicsConfig, p: Profile): WhatIf | undefined {
  const c = explicitCacheChoice(r, config, p);
  if (!c) return undefined;
  const option = (id: WhatIfOptionId, label: string, t: Totals): WhatIfOption => ({
    id,
    label,
    totals: t,
    keepAlive: 0,
    deltaUsd: t.costUsd === null || c.asIs.costUsd === null ? null : round(t.costUsd - c.asIs.costUsd),
    per1000Usd: t.costUsd === null ? null : round(t.costUsd * 1000),
    same: [],
  });
  const own = new Set(r.requests.map((q) => q.offset));
  return {
    profile: p.id,
    title: p.title,
    options: [
      option('as-is', 'implicit caching (the default; no guarantee)', c.asIs),
      option('explicit-cache', `explicit cache of the system prompt (≈${c.prefixTokens.toLocaleString('en-US')} tokens, stored ${Math.round(c.hours * 600) / 10} min)`, c.explicit),
    ],
    paysFrom: null,
    idleGapsMs: r.chain.flatMap((q, i) => (i > 0 && own.has(q.offset) ? [Date.parse(q.createdAt) - Date.parse(r.chain[i - 1]!.createdAt)] : [])),
    notes: [
      `the explicit cache is created at the first request (its tokens billed once at the input price) and stored until the last: ${Math.round(c.hours * 600) / 10} min at $${p.prices.storagePerHour!.value} per million tokens per hour = $${c.storageUsd}`,
      'implicit hits are not guaranteed: as-is is the best case of the implicit cache',
    ],
    sources: [p.prices.storagePerHour!, p.prices.cachedInput!, p.prices.input!],
  };
}
