/**
 * Cache economics of one rendered scenario (spec cache-economics §2–4): for every request of its
 * chain, the input tokens, the longest byte-identical prefix it shares with a still-alive earlier
 * request, the tokens the provider would bill as cached under the model's profile, cache writes,
 * output tokens (from a settled result text), cost, and — when it keeps less than the whole
 * previous request cached — why, which event did it, and how many tokens were lost.
 *
 * Pure and browser-safe. Time comes from the events' own timestamps (createdAt), never the clock.
 */
import type { RenderedMessage } from '../folds/types.ts';
import type { RenderedRequest, RenderedScenario } from '../prompt/render.ts';
import { profileFor, type EconomicsConfig, type ProfileMatch } from './profiles.ts';
import type { Profile } from './providers.ts';
import { messageText, messageTokens, tokenizer, type Tokenizer } from './tokens.ts';

export type Cause = 'first-request' | 'below-minimum' | 'expired' | 'model-changed' | 'system-changed' | 'earlier-message-changed';

export interface CacheBreak {
  cause: Cause;
  /** Offsets of the events responsible (provenance of the first differing line). */
  events: number[];
  /** Tokens of the previous request that are not cached in this one. */
  tokensLost: number;
}

export interface RequestEconomics {
  offset: number;
  model: string;
  profile: string;
  profileTitle: string;
  matched: ProfileMatch['matched'];
  /** Token counts are exact (an OpenAI encoding), not ≈. */
  exact: boolean;
  inputTokens: number;
  /** Longest byte-identical prefix shared with a still-alive earlier request of the chain. */
  prefixTokens: number;
  /** Input tokens billed as cache reads. */
  cachedTokens: number;
  uncachedTokens: number;
  /** Of the uncached tokens, those billed as cache writes (breakpoint strategy). */
  cacheWriteTokens: number;
  outputTokens: number | null;
  costUsd: number | null;
  /** The same request with no caching at all. */
  noCacheCostUsd: number | null;
  /** Previous request of the chain (the one the ✂ line compares with). */
  previous: number | null;
  /** Tokens above the ✂ line: the byte-identical prefix shared with the previous request. */
  cutTokens: number | null;
  /** The previous request is a byte-stable prefix, but the provider would have evicted it. */
  expired: boolean;
  cacheBreak: CacheBreak | null;
  /** The request belongs to the scenario itself (not its base chain). */
  own: boolean;
  /** The profile's figures the pages explain a break with. */
  minPrefixTokens: number;
  retentionMinutes: number | null;
  /** Milliseconds between the previous request's last use and this request (set when expired). */
  idleMs?: number;
}

export interface Totals {
  inputTokens: number;
  cachedTokens: number;
  uncachedTokens: number;
  outputTokens: number;
  costUsd: number | null;
  noCacheCostUsd: number | null;
  /** Cached share of input tokens; null without requests. */
  cachedShare: number | null;
  exact: boolean;
}

export interface ScenarioEconomics {
  id: string;
  /** Own requests, in order. */
  requests: RequestEconomics[];
  /** Every request of the chain, in order. */
  chain: RequestEconomics[];
  totals: Totals;
  /** Profiles the own requests used. */
  profiles: { id: string; title: string; matched: ProfileMatch['matched']; by: string; priced: boolean }[];
}

interface Entry {
  q: RenderedRequest;
  model: string;
  lastUse: number;
  /** Breakpoints written: message count and tokens up to the end of that message. */
  breakpoints: { messages: number; tokens: number }[];
}

const sameMessage = (a: RenderedMessage, b: RenderedMessage): boolean => a === b || (a.role === b.role && messageText(a) === messageText(b));

/** Common prefix of two requests: whole identical messages, and its tokens (with the partial message). */
function commonPrefix(t: Tokenizer, a: readonly RenderedMessage[], b: readonly RenderedMessage[], cum: number[]): { messages: number; tokens: number } {
  const n = Math.min(a.length, b.length);
  let k = 0;
  while (k < n && sameMessage(a[k]!, b[k]!)) k++;
  let tokens = cum[k]!;
  if (k < n && a[k]!.role === b[k]!.role) {
    const x = t.tokens(messageText(a[k]!));
    const y = t.tokens(messageText(b[k]!));
    let c = 0;
    const m = Math.min(x.length, y.length);
    while (c < m && x[c] === y[c]) c++;
    // The message's opening framing (all of it but the closing token) plus the shared content tokens.
    tokens += t.framing(b[k]!.role) - 1 + c;
  }
  return { messages: k, tokens };
}

/** Cached tokens of a prefix under the prefix strategy: nothing below the minimum, then whole steps. */
export function roundedHit(p: Profile, prefixTokens: number): number {
  const min = p.minPrefixTokens.value;
  const step = Math.max(1, p.stepTokens?.value ?? 1);
  if (prefixTokens < Math.max(min, 1)) return 0;
  return min + Math.floor((prefixTokens - min) / step) * step;
}

const perM = (tokens: number, price: number): number => (tokens * price) / 1e6;
/** Dollars without binary-float noise (1e-10 is far below any price step). */
const tidy = (x: number): number => Math.round(x * 1e10) / 1e10;

function costs(p: Profile, input: number, cached: number, writes: number, output: number | null): { cost: number | null; noCache: number | null } {
  const pr = p.prices;
  const needOutput = output !== null && output > 0;
  if (!pr.input || (needOutput && !pr.output)) return { cost: null, noCache: null };
  const out = needOutput ? perM(output!, pr.output!.value) : 0;
  const noCache = perM(input, pr.input.value) + out;
  if ((cached > 0 && !pr.cachedInput) || (writes > 0 && !pr.cacheWrite)) return { cost: null, noCache: tidy(noCache) };
  const cost = perM(input - cached - writes, pr.input.value) + (cached ? perM(cached, pr.cachedInput!.value) : 0) + (writes ? perM(writes, pr.cacheWrite!.value) : 0) + out;
  return { cost: tidy(cost), noCache: tidy(noCache) };
}

/** Settled result texts by request offset (any event whose payload names `requestOffset` and has `result.text`). */
function settledTexts(r: RenderedScenario): Map<number, string> {
  const out = new Map<number, string>();
  for (const e of r.scenario.chain) {
    const p = e.payload as { requestOffset?: unknown; result?: { text?: unknown } } | null;
    if (p && typeof p.requestOffset === 'number' && typeof p.result?.text === 'string') out.set(p.requestOffset, p.result.text);
  }
  return out;
}

/** The events responsible for the first differing line: provenance of the cut line, newest first. */
function responsible(q: RenderedRequest, prev: RenderedRequest): number[] {
  if (q.cut === null) return [];
  const lines = [q.lines[q.cut], prev.lines[q.cut]];
  for (const l of lines) {
    const fresh = (l?.from ?? []).filter((o) => o > prev.offset);
    if (fresh.length) return fresh;
  }
  // No line names an event since the previous request: fall back to the cut line's own provenance.
  return [...new Set(lines.flatMap((l) => l?.from ?? []))].sort((a, b) => a - b);
}

export function scenarioEconomics(r: RenderedScenario, config: EconomicsConfig): ScenarioEconomics {
  const own = new Set(r.requests.map((q) => q.offset));
  const settled = settledTexts(r);
  const entries: Entry[] = [];
  const byOffset = new Map<number, RequestEconomics>();
  const chain: RequestEconomics[] = [];
  for (const q of r.chain) {
    const match = profileFor(config, q.model);
    const p = match.profile;
    const t = tokenizer(p.tokenizer === 'approx' ? 'o200k_base' : p.tokenizer);
    const cum = [0];
    for (const m of q.messages) cum.push(cum.at(-1)! + messageTokens(t, m));
    const input = cum.at(-1)! + t.priming;
    const now = Date.parse(q.createdAt);
    const retention = p.retentionMinutes.value === null ? Infinity : p.retentionMinutes.value * 60_000;
    const alive = (e: Entry): boolean => now - e.lastUse <= retention;

    let prefixTokens = 0;
    let hit = 0;
    let hitEntry: Entry | undefined;
    for (const e of entries) {
      if (e.model !== q.model || !alive(e)) continue;
      const cp = commonPrefix(t, e.q.messages, q.messages, cum);
      prefixTokens = Math.max(prefixTokens, cp.tokens);
      const h = p.strategy === 'prefix' ? roundedHit(p, cp.tokens) : Math.max(0, ...e.breakpoints.filter((b) => b.messages <= cp.messages).map((b) => b.tokens));
      if (h > hit) [hit, hitEntry] = [h, e];
    }
    const cached = Math.min(hit, input);
    let writes = 0;
    const written: Entry['breakpoints'] = [];
    if (p.strategy === 'breakpoints') {
      const systems = q.messages.findIndex((m) => m.role !== 'system');
      const at = new Set<number>();
      for (const b of p.breakpoints ?? []) {
        if (b === 'last-message') at.add(q.messages.length);
        else if (systems !== 0) at.add(systems === -1 ? q.messages.length : systems);
      }
      for (const n of [...at].sort((a, b) => a - b)) if (n > 0 && cum[n]! >= p.minPrefixTokens.value) written.push({ messages: n, tokens: cum[n]! });
      const furthest = Math.max(0, ...written.map((b) => b.tokens));
      writes = Math.max(0, furthest - cached);
    }
    if (hitEntry && cached > 0 && p.refreshOnHit.value) hitEntry.lastUse = now;

    // Against the previous request: the ✂ prefix, and why the cache broke.
    const prevEntry = q.previous === null ? undefined : entries.find((e) => e.q.offset === q.previous);
    const prevEcon = q.previous === null ? undefined : byOffset.get(q.previous);
    let cutTokens: number | null = null;
    let expired = false;
    let idleMs: number | undefined;
    let cacheBreak: CacheBreak | null = null;
    if (!prevEntry || !prevEcon) {
      cacheBreak = { cause: 'first-request', events: [], tokensLost: 0 };
    } else {
      const lost = Math.max(0, prevEcon.inputTokens - cached);
      if (prevEntry.model !== q.model) {
        cutTokens = 0;
        cacheBreak = { cause: 'model-changed', events: [q.offset], tokensLost: lost };
      } else {
        const cp = commonPrefix(t, prevEntry.q.messages, q.messages, cum);
        cutTokens = cp.tokens;
        const whole = cp.messages >= prevEntry.q.messages.length;
        if (!whole) {
          const role = prevEntry.q.messages[cp.messages]?.role;
          cacheBreak = { cause: role === 'system' ? 'system-changed' : 'earlier-message-changed', events: responsible(q, prevEntry.q), tokensLost: lost };
        } else if (!alive(prevEntry) && now - prevEntry.lastUse > retention) {
          expired = true;
          idleMs = now - prevEntry.lastUse;
          cacheBreak = { cause: 'expired', events: [], tokensLost: lost };
        } else if (cached === 0 || (p.strategy === 'breakpoints' && cached < cum[prevEntry.q.messages.length]!)) {
          // A byte-stable prefix exists, but it (or the breakpoint at its end) is below the minimum.
          cacheBreak = { cause: 'below-minimum', events: [], tokensLost: lost };
        }
      }
    }

    const outText = settled.get(q.offset);
    const outputTokens = outText === undefined ? null : t.count(outText);
    const { cost, noCache } = costs(p, input, cached, writes, outputTokens);
    const econ: RequestEconomics = {
      offset: q.offset,
      model: q.model,
      profile: p.id,
      profileTitle: p.title,
      matched: match.matched,
      exact: p.tokenizer !== 'approx',
      inputTokens: input,
      prefixTokens,
      cachedTokens: cached,
      uncachedTokens: input - cached,
      cacheWriteTokens: writes,
      outputTokens,
      costUsd: cost,
      noCacheCostUsd: noCache,
      previous: q.previous,
      cutTokens,
      expired,
      cacheBreak,
      own: own.has(q.offset),
      minPrefixTokens: p.minPrefixTokens.value,
      retentionMinutes: p.retentionMinutes.value,
      ...(idleMs !== undefined && { idleMs }),
    };
    byOffset.set(q.offset, econ);
    chain.push(econ);
    // Under the prefix strategy every prefix of this request is reusable; under breakpoints only the written ones.
    const breakpoints = p.strategy === 'prefix' ? [] : written;
    entries.push({ q, model: q.model, lastUse: now, breakpoints });
  }
  const requests = chain.filter((e) => e.own);
  return { id: r.scenario.id, requests, chain, totals: totalsOf(requests), profiles: profilesOf(requests, config) };
}

export function totalsOf(requests: readonly RequestEconomics[]): Totals {
  const sum = (f: (e: RequestEconomics) => number): number => requests.reduce((n, e) => n + f(e), 0);
  const input = sum((e) => e.inputTokens);
  const cached = sum((e) => e.cachedTokens);
  const allPriced = (k: 'costUsd' | 'noCacheCostUsd'): number | null => (requests.length && requests.every((e) => e[k] !== null) ? tidy(sum((e) => e[k]!)) : null);
  return {
    inputTokens: input,
    cachedTokens: cached,
    uncachedTokens: input - cached,
    outputTokens: sum((e) => e.outputTokens ?? 0),
    costUsd: allPriced('costUsd'),
    noCacheCostUsd: allPriced('noCacheCostUsd'),
    cachedShare: input ? cached / input : null,
    exact: requests.every((e) => e.exact),
  };
}

function profilesOf(requests: readonly RequestEconomics[], config: EconomicsConfig): ScenarioEconomics['profiles'] {
  const out = new Map<string, ScenarioEconomics['profiles'][number]>();
  for (const e of requests) {
    if (out.has(e.profile)) continue;
    const m = profileFor(config, e.model);
    const pr = m.profile.prices;
    out.set(e.profile, { id: e.profile, title: e.profileTitle, matched: m.matched, by: m.by, priced: !!(pr.input && pr.cachedInput) });
  }
  return [...out.values()];
}
