/**
 * Cache economics of one rendered scenario (spec cache-economics §2–4): for every request of its
 * chain, the input tokens, what the provider would bill as cache reads and cache writes under the
 * model's profile (entries.ts: each provider's own rules, with the breakpoints the request carries),
 * output tokens (from a settled result text), the cost split into its parts, the same request with
 * no caching, and — when an entry the previous requests had cached is not read — why, which event
 * did it (attribution.ts) and how many tokens and dollars were lost.
 *
 * Tokens lost = the tokens of the entry this request would have read had the previous request's
 * bytes stayed the same (and it only appended), minus what it does read: never negative, zero when
 * nothing was cacheable. A request whose previous request's bytes changed names the event even
 * when nothing was lost (the ✂ line moved; `tokensLost` is 0).
 *
 * Pure and browser-safe. Time comes from the events' own timestamps (createdAt), never the clock.
 */
import type { RenderedRequest, RenderedScenario } from '../prompt/render.ts';
import { responsibleEvent, type Target } from './attribution.ts';
import { alive, positionsOf, ProviderCache, roundedHit, withinLookback, type CacheResult, type Entry } from './entries.ts';
import { rejectedFeature } from './features.ts';
import { paramChange, requestParams } from './params.ts';
import { profileFor, type EconomicsConfig, type ProfileMatch } from './profiles.ts';
import type { Profile } from './providers.ts';
import { Interner, OPENING_TOKENS, holds, sharedMessages, shapeOf, sharedTokens, type Position, type Shape } from './shape.ts';
import { tokenizer, type Tokenizer } from './tokens.ts';

export { roundedHit } from './entries.ts';

export type Cause =
  | 'first-request'
  | 'below-minimum'
  | 'expired'
  | 'out-of-reach'
  | 'model-changed'
  | 'system-changed'
  | 'earlier-message-changed'
  | 'fold-changed'
  /** A request parameter the strategy counts as a cache dimension changed (CacheBreak.param names it). */
  | 'parameter-changed';

export interface CacheBreak {
  cause: Cause;
  /** Offsets of the events responsible (the first event after which the lost prefix was gone; a deploy's offset). */
  events: number[];
  /** Tokens of the entry this request would have read had the earlier bytes stayed the same, minus what it reads. */
  tokensLost: number;
  /** What the lost tokens cost beyond reading them from the cache (null: no price configured). */
  lostCostUsd: number | null;
  /** `parameter-changed`: the parameter (e.g. `tool_choice`, `thinking`, `images`). */
  param?: string;
}

/** Cost of one request, part by part (USD). */
export interface CostSplit {
  input: number;
  cached: number;
  writes: number;
  output: number;
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
  /** Longest common token prefix with a request whose cache entry is still alive. */
  prefixTokens: number;
  /** Input tokens billed as cache reads. */
  cachedTokens: number;
  /** Offset of the request that wrote the entry read (null: none read). */
  readFrom: number | null;
  uncachedTokens: number;
  /** Of the uncached tokens, those billed as cache writes. */
  cacheWriteTokens: number;
  /** Of the cache writes, those with the 1-hour TTL (Anthropic). */
  cacheWriteTokens1h: number;
  /** Where this request's breakpoints sit, in tokens (the entries it writes or reaches from). */
  breakpointTokens: number[];
  outputTokens: number | null;
  costUsd: number | null;
  cost: CostSplit | null;
  /** The same request with no caching at all. */
  noCacheCostUsd: number | null;
  /** The API would reject this request (e.g. more breakpoints than allowed); nothing is cached or billed. */
  apiError?: string;
  /** How to make the request one the API accepts (set with apiError when the strategy or the model says). */
  apiFix?: string;
  /** Previous request of the chain (the one the ✂ line compares with). */
  previous: number | null;
  /** Tokens above the ✂ line: the common token prefix with the previous request. */
  cutTokens: number | null;
  /** An entry the previous request had cached would have been read but its retention ran out. */
  expired: boolean;
  cacheBreak: CacheBreak | null;
  /** The request belongs to the scenario itself (not its base chain). */
  own: boolean;
  /** The profile's figures the pages explain a break with. */
  minPrefixTokens: number;
  retentionMinutes: number | null;
  /** `ttl`: the entry is gone after it (Anthropic); `minimum`: a documented lower bound, it may live longer (OpenAI). */
  retention: 'ttl' | 'minimum';
  /** Retention of the expired entry, in minutes (set when expired). */
  expiredRetentionMinutes?: number;
  /** Milliseconds between the expired entry's last use and this request (set when expired). */
  idleMs?: number;
}

export interface Totals {
  inputTokens: number;
  cachedTokens: number;
  uncachedTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  tokensLost: number;
  costUsd: number | null;
  cost: CostSplit | null;
  noCacheCostUsd: number | null;
  lostCostUsd: number | null;
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
  /** The own requests' totals under every configured profile (set for the site's pages, see corpus.ts). */
  byProfile?: ProfileTotals[];
}

export interface EconomicsRun {
  /** Price every request under this profile instead of the one its model maps to (the side-by-side table). */
  profile?: string;
  /** Name the responsible events (re-folds the events of a break); default true. */
  attribute?: boolean;
  /** Shapes shared by several runs over the same scenario (every profile): one tokenization and interning. */
  shapes?: ShapeCache;
}

/** Request shapes by request and encoding, with the interner their prefix ids come from. */
export interface ShapeCache {
  ids: Interner;
  byRequest: Map<RenderedRequest, Map<string, Shape>>;
}

export const shapeCache = (): ShapeCache => ({ ids: new Interner(), byRequest: new Map() });

const perM = (tokens: number, price: number): number => (tokens * price) / 1e6;
/** Dollars without binary-float noise (1e-10 is far below any price step). */
const tidy = (x: number): number => Math.round(x * 1e10) / 1e10;

function costs(
  p: Profile,
  input: number,
  cached: number,
  writes: number,
  writes1h: number,
  output: number | null,
): { total: number | null; split: CostSplit | null; noCache: number | null } {
  const pr = p.prices;
  const needOutput = output !== null && output > 0;
  if (!pr.input || (needOutput && !pr.output)) return { total: null, split: null, noCache: null };
  const out = needOutput ? perM(output!, pr.output!.value) : 0;
  const noCache = tidy(perM(input, pr.input.value) + out);
  const w5 = writes - writes1h;
  if ((cached > 0 && !pr.cachedInput) || (w5 > 0 && !pr.cacheWrite) || (writes1h > 0 && !pr.cacheWrite1h)) return { total: null, split: null, noCache };
  const split: CostSplit = {
    input: tidy(perM(input - cached - writes, pr.input.value)),
    cached: tidy(cached ? perM(cached, pr.cachedInput!.value) : 0),
    writes: tidy((w5 ? perM(w5, pr.cacheWrite!.value) : 0) + (writes1h ? perM(writes1h, pr.cacheWrite1h!.value) : 0)),
    output: tidy(out),
  };
  return { total: tidy(split.input + split.cached + split.writes + split.output), split, noCache };
}

/** What `lost` tokens cost this request beyond reading them: written ones at the write price, the rest at the input price. */
function lostCost(p: Profile, lost: number, writes: number): number | null {
  if (!lost) return 0;
  const pr = p.prices;
  if (!pr.input || !pr.cachedInput) return null;
  const w = Math.min(lost, writes);
  if (w > 0 && !pr.cacheWrite) return null;
  return tidy(perM(w, (pr.cacheWrite?.value ?? 0) - pr.cachedInput.value) + perM(lost - w, pr.input.value - pr.cachedInput.value));
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

/** What one request left behind, for the requests after it. */
interface Seen {
  q: RenderedRequest;
  profile: Profile;
  t: Tokenizer;
  shape: Shape;
  positions: Position[];
  cache: ProviderCache;
}

interface Offer {
  e: Entry;
  tokens: number;
}

/** The entries the previous request offers to a request that keeps its bytes: the best alive and expired at `now`, and every alive one. */
function offered(prev: Seen, now: number, reach: readonly Position[] | null): { alive: Offer | null; expired: Offer | null; all: Offer[] } {
  const p = prev.profile;
  const all: Offer[] = [];
  let best: Offer | null = null;
  let gone: Offer | null = null;
  const strategy = prev.cache.strategy;
  for (const e of prev.cache.entries) {
    if (e.model !== prev.q.model) continue;
    let tokens: number;
    if (strategy.entries === 'prefix') tokens = roundedHit(p, Math.min(sharedTokens(prev.t, e.shape!, prev.shape, true), e.tokens));
    else {
      if (!holds(prev.shape, e)) continue;
      if (strategy.reach === 'lookback' && reach && !reach.some((x) => withinLookback(p, x, e))) continue;
      tokens = e.tokens;
    }
    if (tokens <= 0) continue;
    if (alive(e, now)) {
      all.push({ e, tokens });
      if (!best || tokens > best.tokens) best = { e, tokens };
    } else if (!gone || tokens > gone.tokens) gone = { e, tokens };
  }
  return { alive: best, expired: gone, all };
}

/**
 * The lost entry whose loss the responsible event is looked up for: the shortest entry the previous
 * request offered beyond what this request reads — the one whose loss brought the read down to
 * what it is. (Entries of one request nest, so the events that break them come in order: the
 * longest breaks first — for a layered request, at the first entry appended above its trailing
 * slot — the shortest last, at the change a reviewer names: the entry inserted above the
 * transcript.) Under automatic prefix caching, the prefix one step longer than the read.
 */
function lostTarget(prev: Seen, offers: readonly Offer[], cached: number): Offer | null {
  const lost = offers.filter((o) => o.tokens > cached);
  if (!lost.length) return null;
  const shortest = lost.reduce((a, b) => (b.tokens < a.tokens ? b : a));
  const p = prev.profile;
  if (prev.cache.strategy.entries !== 'prefix') return shortest;
  const longest = lost.reduce((a, b) => (b.tokens > a.tokens ? b : a));
  const next = cached === 0 ? Math.max(1, p.minPrefixTokens.value) : cached + Math.max(1, p.stepTokens?.value ?? 1);
  return { e: longest.e, tokens: Math.min(longest.tokens, next) };
}

/** The lost entry as a prefix of the previous request's messages. */
function targetOf(prev: Seen, lost: Offer): Target {
  const s = prev.shape;
  if (prev.cache.strategy.entries !== 'prefix') {
    const e = lost.e;
    return { messages: s.messages.slice(0, e.k), ...(e.partial !== undefined && { partial: { role: e.role!, text: e.partial } }) };
  }
  let k = 0;
  while (k < s.messages.length && s.cum[k + 1]! <= lost.tokens) k++;
  const rest = lost.tokens - s.cum[k]!;
  if (k >= s.messages.length || rest <= 0) return { messages: s.messages.slice(0, k) };
  const content = Math.max(0, rest - OPENING_TOKENS);
  return { messages: s.messages.slice(0, k), partial: { role: s.messages[k]!.role, tokens: prev.t.tokens(s.texts[k]!).slice(0, content) } };
}

const SYSTEM_ROLES = new Set(['system', 'tools']);
const LEADING_ROLES = new Set(['system', 'tools', 'developer']);

/** The message at `i` is tools, a system message, or an instruction (developer) message of the leading run. */
function isInstructions(messages: readonly { role: string }[], i: number): boolean {
  const role = messages[i]?.role ?? '';
  if (SYSTEM_ROLES.has(role)) return true;
  if (role !== 'developer') return false;
  for (let j = 0; j < i; j++) if (!LEADING_ROLES.has(messages[j]!.role)) return false;
  return true;
}

export function scenarioEconomics(r: RenderedScenario, config: EconomicsConfig, run: EconomicsRun = {}): ScenarioEconomics {
  const own = new Set(r.requests.map((q) => q.offset));
  const settled = settledTexts(r);
  const params = requestParams(r);
  const shapes = run.shapes ?? shapeCache();
  const caches = new Map<string, ProviderCache>();
  const seen = new Map<number, Seen>();
  const chain: RequestEconomics[] = [];
  const forced = run.profile !== undefined ? config.profiles[run.profile] : undefined;
  for (const q of r.chain) {
    const match: ProfileMatch = forced ? { profile: forced, matched: 'model', by: forced.id } : profileFor(config, q.model);
    const p = match.profile;
    const t = tokenizer(p.tokenizer === 'approx' ? 'o200k_base' : p.tokenizer);
    let byEncoding = shapes.byRequest.get(q);
    if (!byEncoding) shapes.byRequest.set(q, (byEncoding = new Map()));
    let shape = byEncoding.get(t.encoding);
    if (!shape) byEncoding.set(t.encoding, (shape = shapeOf(t, shapes.ids, q.messages, q.breakpoints)));
    let cache = caches.get(p.id);
    if (!cache) caches.set(p.id, (cache = new ProviderCache(p, t)));
    const now = Date.parse(q.createdAt);
    const prev = q.previous === null ? undefined : seen.get(q.previous);

    // What the previous request's cache offered, before this request reads and refreshes anything.
    const sameRules = prev !== undefined && prev.profile === p && prev.q.model === q.model;
    const kept = sameRules && sharedMessages(prev.shape, shape) >= prev.shape.messages.length;
    const { positions: mine } = positionsOf(t, p, { offset: q.offset, model: q.model, now, shape, ...(q.breakpoints && { breakpoints: q.breakpoints }) });
    let reach: Position[] | null = null;
    if (prev && cache.strategy.reach === 'lookback') {
      // Had the bytes stayed the same, this request's breakpoints sit where they sit (it kept them), or at the previous request's and its appended end.
      const end = prev.shape.blocks.at(-1)! + Math.max(0, shape.blocks.at(-1)! - prev.shape.blocks.at(-1)!);
      reach = kept ? mine : [...prev.positions, { k: 0, tokens: 0, blocks: end }];
    }
    const before = prev ? offered(prev, now, reach) : undefined;
    const beforeAnyReach = prev && kept && cache.strategy.reach === 'lookback' ? offered(prev, now, null) : before;
    let prefixTokens = 0;
    for (const e of cache.entries) {
      if (e.model !== q.model || !alive(e, now)) continue;
      const w = seen.get(e.writtenBy);
      if (w && w.t === t) prefixTokens = Math.max(prefixTokens, sharedTokens(t, w.shape, shape));
    }

    const changed = prev && prev.q.model === q.model ? paramChange(cache.strategy.invalidates, params.get(prev.q.offset), params.get(q.offset), shape) : undefined;
    if (changed) cache.invalidate(q.model, changed.keepTokens);
    const rejected = rejectedFeature(p, q.messages)?.rejection;
    const res: CacheResult = rejected
      ? { read: null, readTokens: 0, writeTokens: 0, writeTokens1h: 0, positions: mine, apiError: rejected.message }
      : cache.request({ offset: q.offset, model: q.model, now, shape, ...(q.breakpoints && { breakpoints: q.breakpoints }) });
    const cached = res.readTokens;
    const writes = res.writeTokens;

    let cutTokens: number | null = null;
    let expired = false;
    let idleMs: number | undefined;
    let expiredRetention: number | undefined;
    let cacheBreak: CacheBreak | null = null;
    const brk = (cause: Cause, events: number[], lost: number): CacheBreak => ({ cause, events, tokensLost: lost, lostCostUsd: lostCost(p, lost, writes) });
    if (!prev) cacheBreak = brk('first-request', [], 0);
    else {
      cutTokens = prev.q.model === q.model && prev.t === t ? sharedTokens(t, prev.shape, shape) : 0;
      const best = before?.alive ?? null;
      const gone = before?.expired ?? null;
      const lost = Math.max(0, (best?.tokens ?? 0) - cached);
      if (gone && gone.tokens > Math.max(cached, best?.tokens ?? 0)) {
        expired = true;
        idleMs = now - gone.e.lastUse;
        expiredRetention = gone.e.retentionMs / 60_000;
      }
      if (prev.q.model !== q.model) cacheBreak = brk('model-changed', [q.offset], lost);
      else if (!sameRules) cacheBreak = cached ? null : brk('below-minimum', [], 0);
      else if (changed && kept && lost > 0) cacheBreak = { ...brk('parameter-changed', [q.offset], lost), param: changed.param };
      else if (!kept) {
        // The previous request's bytes changed: name the event, lose what the entry held beyond what is read.
        const differs = sharedMessages(prev.shape, shape);
        const target = lost > 0 && run.attribute !== false ? lostTarget(prev, before!.all, cached) : null;
        let who = target ? responsibleEvent(t, r, prev.q, q, targetOf(prev, target)) : null;
        if (!who && run.attribute !== false) who = responsibleEvent(t, r, prev.q, q, { messages: prev.shape.messages.slice(0, differs + 1) });
        const cause: Cause = who?.deploy ? 'fold-changed' : isInstructions(prev.shape.messages, differs) ? 'system-changed' : 'earlier-message-changed';
        cacheBreak = brk(cause, who ? [who.offset] : [], lost);
      } else if (expired) cacheBreak = brk('expired', [], Math.max(0, gone!.tokens - cached));
      else if ((beforeAnyReach?.alive?.tokens ?? 0) > cached) cacheBreak = brk('out-of-reach', [], beforeAnyReach!.alive!.tokens - cached);
      else if (lost > 0) cacheBreak = brk('out-of-reach', [], lost);
      else if (cached === 0) cacheBreak = brk('below-minimum', [], 0);
    }

    const outText = settled.get(q.offset);
    const outputTokens = outText === undefined ? null : t.count(outText);
    const priced = res.apiError ? { total: null, split: null, noCache: null } : costs(p, shape.input, cached, writes, res.writeTokens1h, outputTokens);
    chain.push({
      offset: q.offset,
      model: q.model,
      profile: p.id,
      profileTitle: p.title,
      matched: match.matched,
      exact: p.tokenizer !== 'approx',
      inputTokens: shape.input,
      prefixTokens,
      cachedTokens: cached,
      readFrom: res.read?.writtenBy ?? null,
      uncachedTokens: shape.input - cached,
      cacheWriteTokens: writes,
      cacheWriteTokens1h: res.writeTokens1h,
      breakpointTokens: res.positions.map((x) => x.tokens),
      outputTokens,
      costUsd: priced.total,
      cost: priced.split,
      noCacheCostUsd: priced.noCache,
      ...(res.apiError && { apiError: res.apiError }),
      ...(rejected && { apiFix: rejected.fix }),
      previous: q.previous,
      cutTokens,
      expired,
      cacheBreak,
      own: own.has(q.offset),
      minPrefixTokens: p.minPrefixTokens.value,
      retentionMinutes: p.retentionMinutes.value,
      retention: cache.strategy.retention,
      ...(expiredRetention !== undefined && { expiredRetentionMinutes: expiredRetention }),
      ...(idleMs !== undefined && { idleMs }),
    });
    seen.set(q.offset, { q, profile: p, t, shape, positions: res.positions, cache });
  }
  const requests = chain.filter((e) => e.own);
  return { id: r.scenario.id, requests, chain, totals: totalsOf(requests), profiles: profilesOf(requests, config, run) };
}

export function totalsOf(requests: readonly RequestEconomics[]): Totals {
  const sum = (f: (e: RequestEconomics) => number): number => requests.reduce((n, e) => n + f(e), 0);
  const input = sum((e) => e.inputTokens);
  const cached = sum((e) => e.cachedTokens);
  const all = <T>(f: (e: RequestEconomics) => T | null): boolean => requests.length > 0 && requests.every((e) => f(e) !== null);
  const usd = (f: (e: RequestEconomics) => number | null): number | null => (all(f) ? tidy(sum((e) => f(e)!)) : null);
  return {
    inputTokens: input,
    cachedTokens: cached,
    uncachedTokens: input - cached,
    cacheWriteTokens: sum((e) => e.cacheWriteTokens),
    outputTokens: sum((e) => e.outputTokens ?? 0),
    tokensLost: sum((e) => e.cacheBreak?.tokensLost ?? 0),
    costUsd: usd((e) => e.costUsd),
    cost: all((e) => e.cost)
      ? { input: usd((e) => e.cost!.input)!, cached: usd((e) => e.cost!.cached)!, writes: usd((e) => e.cost!.writes)!, output: usd((e) => e.cost!.output)! }
      : null,
    noCacheCostUsd: usd((e) => e.noCacheCostUsd),
    lostCostUsd: usd((e) => e.cacheBreak?.lostCostUsd ?? 0),
    cachedShare: input ? cached / input : null,
    exact: requests.every((e) => e.exact),
  };
}

function profilesOf(requests: readonly RequestEconomics[], config: EconomicsConfig, run: EconomicsRun): ScenarioEconomics['profiles'] {
  const out = new Map<string, ScenarioEconomics['profiles'][number]>();
  for (const e of requests) {
    if (out.has(e.profile)) continue;
    const m: ProfileMatch = run.profile !== undefined ? { profile: config.profiles[e.profile]!, matched: 'model', by: e.profile } : profileFor(config, e.model);
    const pr = m.profile.prices;
    out.set(e.profile, { id: e.profile, title: e.profileTitle, matched: m.matched, by: m.by, priced: !!(pr.input && pr.cachedInput) });
  }
  return [...out.values()];
}

/** One row of the side-by-side table: a scenario's own requests under one profile. */
export interface ProfileTotals {
  profile: string;
  title: string;
  totals: Totals;
}

/** What makes two profiles cache alike (everything but the title and the prices). */
function mechanicsKey(p: Profile): string {
  const v = (f: { value: unknown } | undefined): unknown => f?.value ?? null;
  return JSON.stringify([
    p.cache,
    p.tokenizer,
    v(p.minPrefixTokens),
    v(p.stepTokens),
    v(p.retentionMinutes),
    v(p.extendedRetentionMinutes),
    v(p.refreshOnHit),
    v(p.maxBreakpoints),
    v(p.lookbackBlocks),
  ]);
}

/** A request's figures under another profile that caches alike: the same tokens, its own prices. */
export function reprice(e: RequestEconomics, p: Profile): RequestEconomics {
  const priced = e.apiError ? { total: null, split: null, noCache: null } : costs(p, e.inputTokens, e.cachedTokens, e.cacheWriteTokens, e.cacheWriteTokens1h, e.outputTokens);
  return {
    ...e,
    profile: p.id,
    profileTitle: p.title,
    costUsd: priced.total,
    cost: priced.split,
    noCacheCostUsd: priced.noCache,
    cacheBreak: e.cacheBreak && { ...e.cacheBreak, lostCostUsd: lostCost(p, e.cacheBreak.tokensLost, e.cacheWriteTokens) },
  };
}

/**
 * The scenario's own requests under every configured profile. The cache is simulated once per group
 * of profiles that cache alike (most differ only in prices), over shapes tokenized once; the other
 * profiles of a group are repriced.
 */
export function underEveryProfile(r: RenderedScenario, config: EconomicsConfig, attribute = true): { profile: Profile; requests: RequestEconomics[] }[] {
  const shapes = shapeCache();
  const groups = new Map<string, RequestEconomics[]>();
  return Object.values(config.profiles).map((p) => {
    const key = mechanicsKey(p);
    let base = groups.get(key);
    if (!base) groups.set(key, (base = scenarioEconomics(r, config, { profile: p.id, attribute, shapes }).requests));
    return { profile: p, requests: base[0]?.profile === p.id ? base : base.map((e) => reprice(e, p)) };
  });
}

/** Totals of the scenario's own requests under every configured profile (the page's side-by-side table; no attribution). */
export function everyProfile(r: RenderedScenario, config: EconomicsConfig): ProfileTotals[] {
  return underEveryProfile(r, config, false).map(({ profile: p, requests }) => ({ profile: p.id, title: p.title, totals: totalsOf(requests) }));
}
