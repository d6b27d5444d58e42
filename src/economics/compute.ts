/**
 * Cache economics of one rendered scenario (docs/cache-economics.md): for every request of its
 * chain, the input tokens, what the provider would bill as cache reads and cache writes under the
 * model's profile (entries.ts: each provider's own rules, with the breakpoints the request carries),
 * output tokens (billed, or counted from a settled result or the next request's reply: output.ts), the cost split into its parts, the same request with
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
import { classify, type CacheBreak, type Cause, type Classified } from './classify.ts';
import { billShowsCaching, carriesTokens, markersNotCaptured, unrecordedOfPayload } from './measured.ts';
import { requestParams } from './params.ts';
import { pricesAt, pricingInstant, type AppliedPrice } from './price-history.ts';
import { costs, lostCost, tidy, UNPRICED, type CostSplit, type Priced } from './price.ts';
import { profileFor, type EconomicsConfig, type ProfileMatch } from './profiles.ts';
import type { Profile } from './shipped-profiles.ts';
import type { Sourced } from '../providers/types.ts';
import { cacheGroup } from './shared-cache.ts';
import type { UnaskedCaching } from './unasked.ts';
import { outputsOf, type Output, type OutputSource } from './output.ts';
import { remember, shapeCache, simulate, type Run, type ShapeCache, type Simulated } from './simulate.ts';
import { messageText } from './tokens.ts';

export type { CacheBreak, Cause, CostSplit, ShapeCache };
export { shapeCache };
export { roundedHit } from './entries.ts';

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
  /** The entry read was written by another scenario sharing the cache (`sharesCache:`): its id (absent: this scenario's own). */
  readFromScenario?: string;
  uncachedTokens: number;
  /** Of the uncached tokens, those billed as cache writes. */
  cacheWriteTokens: number;
  /** Of the cache writes, those with the 1-hour TTL (Anthropic). */
  cacheWriteTokens1h: number;
  /** Where this request's breakpoints sit, in tokens (the entries it writes or reaches from). */
  breakpointTokens: number[];
  /** Output tokens (null: unknown — left out of the cost, shown as "—"). */
  outputTokens: number | null;
  /** Where the output count comes from (output.ts): billed (exact), a settled result or the next request's assistant turn (counted: ≈ unless the model counts exactly). */
  outputSource?: OutputSource;
  costUsd: number | null;
  cost: CostSplit | null;
  /** The same request with no caching at all. */
  noCacheCostUsd: number | null;
  /** Prices this request paid other than the profile's current ones (a figure in force before a date, a long-prompt tier); absent: none. */
  pricesApplied?: AppliedPrice[];
  /** The API would reject this request (e.g. more breakpoints than allowed); nothing is cached or billed. */
  apiError?: string;
  /** How to make the request one the API accepts (set with apiError when the strategy or the model says). */
  apiFix?: string;
  /** The provider's documented rule the API rejects it by (the breakpoint limit, or the feature's page); set with apiError. */
  apiRule?: Sourced<unknown>;
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
  /** The steps a cached prefix grows in (OpenAI: 128 tokens; 1 where any length is cached). */
  stepTokens: number;
  /** The request sends media — inline (an image, a video, a document as base64) or by URL or file id — whose tokens the model does not count (normalise.ts holdsUncountedMedia). */
  media?: true;
  retentionMinutes: number | null;
  /** `ttl`: the entry is gone after it (Anthropic); `minimum`: a documented lower bound, it may live longer (OpenAI). */
  retention: 'ttl' | 'minimum';
  /** How the profile's provider caches a prompt (its strategy id: the rules a finding about this request cites). */
  cache: Profile['cache'];
  /** Retention of the expired entry, in minutes (set when expired). */
  expiredRetentionMinutes?: number;
  /** Milliseconds between the expired entry's last use and this request (set when expired). */
  idleMs?: number;
  /** The capture does not record every part of this request the provider received (its payload's `unrecorded`, cache markers aside): the model counts what it holds. */
  partial?: true;
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
  /**
   * How many of the requests the API would reject (apiError: a feature the model does not accept,
   * too many breakpoints). Non-zero: the stream cannot be sent as it is, so its figures are not
   * claims — the costs are null, and the pages show the rejection instead of the token figures.
   */
  rejected: number;
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
  /** The requests as sent never ask for caching, and what asking would save (unasked.ts; set by the corpus check). */
  unasked?: UnaskedCaching;
}

export interface EconomicsRun {
  /** Price every request under this profile instead of the one its model maps to (the side-by-side table). */
  profile?: string;
  /** Name the responsible events (re-folds the events of a break); default true. */
  attribute?: boolean;
  /** Shapes shared by several runs over the same scenario (every profile): one tokenization and interning. */
  shapes?: ShapeCache;
  /**
   * The rendered corpus by scenario id: a scenario linked by `sharesCache:` is simulated with the
   * scenarios it shares the provider cache with (shared-cache.ts). Absent: every scenario alone.
   */
  corpus?: ReadonlyMap<string, RenderedScenario>;
}

/**
 * One request's economics: simulate its cache (simulate.ts) → classify the break (classify.ts) →
 * price it (price.ts) → record it. Each step reads what the one before produced.
 */
function requestEconomics(run: Run, q: RenderedRequest, outputs: ReadonlyMap<number, Output>, own: ReadonlySet<number>, attribute: boolean): RequestEconomics {
  const sim = simulate(run, q);
  const classified = classify(sim, run.r, attribute);
  const o = outputs.get(q.offset);
  const outputTokens = o === undefined ? null : o.source === 'billed' ? o.tokens : sim.t.count(o.text);
  // Priced at the prices in force at the request's own instant, for its prompt's length (price-history.ts).
  const at = pricesAt(sim.p, pricingInstant(run.r.scenario, q.createdAt), sim.shape.input);
  const priced = sim.res.apiError ? UNPRICED : costs(at.profile, sim.shape.input, sim.res.readTokens, sim.res.writeTokens, sim.res.writeTokens1h, outputTokens);
  remember(run, sim);
  const out = { ...record(sim, classified, priced, outputTokens, own.has(q.offset), run.r.scenario.id), ...(o && { outputSource: o.source }) };
  if (!at.applied.length) return out;
  // What lost tokens cost is priced at the same instant's prices.
  const cacheBreak = out.cacheBreak && { ...out.cacheBreak, lostCostUsd: lostCost(at.profile, out.cacheBreak.tokensLost, out.cacheWriteTokens) };
  return { ...out, cacheBreak, pricesApplied: at.applied };
}

/** The record of one request, from its simulation, classification and price. */
function record(s: Simulated, c: Classified, priced: Priced, outputTokens: number | null, own: boolean, scenario: string): RequestEconomics {
  const { q, p, res } = s;
  return {
    offset: q.offset,
    model: q.model,
    profile: p.id,
    profileTitle: p.title,
    matched: s.match.matched,
    // ≈ under an approximate encoding, and where a message held a run of letters counted in pieces (tokens.ts LONG_RUN).
    exact: p.tokenizer !== 'approx' && !(s.t.piecedAny && q.messages.some((m) => m.tokens === undefined && s.t.approximated(messageText(m)))),
    inputTokens: s.shape.input,
    prefixTokens: s.prefixTokens,
    cachedTokens: res.readTokens,
    readFrom: res.read?.writtenBy ?? null,
    ...(res.read?.scenario !== undefined && res.read.scenario !== scenario && { readFromScenario: res.read.scenario }),
    uncachedTokens: s.shape.input - res.readTokens,
    cacheWriteTokens: res.writeTokens,
    cacheWriteTokens1h: res.writeTokens1h,
    breakpointTokens: res.positions.map((x) => x.tokens),
    outputTokens,
    costUsd: priced.total,
    cost: priced.split,
    noCacheCostUsd: priced.noCache,
    ...(res.apiError && { apiError: res.apiError }),
    ...(s.rejected && { apiFix: s.rejected.fix }),
    ...(res.apiError && { apiRule: s.rejected?.rule ?? p.maxBreakpoints }),
    previous: q.previous,
    cutTokens: c.cutTokens,
    expired: c.expired,
    cacheBreak: c.cacheBreak,
    own,
    minPrefixTokens: p.minPrefixTokens.value,
    stepTokens: Math.max(1, p.stepTokens?.value ?? 1),
    ...(s.shape.media && { media: true as const }),
    retentionMinutes: p.retentionMinutes.value,
    retention: s.cache.strategy.retention,
    cache: p.cache,
    ...(c.expiredRetentionMinutes !== undefined && { expiredRetentionMinutes: c.expiredRetentionMinutes }),
    ...(c.idleMs !== undefined && { idleMs: c.idleMs }),
  };
}

export function scenarioEconomics(r: RenderedScenario, config: EconomicsConfig, run: EconomicsRun = {}): ScenarioEconomics {
  const shapes = run.shapes ?? shapeCache();
  const group = cacheGroup(r, run.corpus);
  const runOf = (x: RenderedScenario, shiftMs: number): Run => ({
    r: x,
    config,
    ...(run.profile !== undefined && { forced: config.profiles[run.profile] }),
    shapes,
    caches: new Map(),
    seen: new Map(),
    params: requestParams(x),
    ...(group.length > 1 && { shiftMs }),
  });
  const own = new Set(r.requests.map((q) => q.offset));
  let chain: RequestEconomics[];
  if (group.length === 1) {
    const state = runOf(r, 0);
    const outputs = outputsOf(r);
    chain = r.chain.map((q) => requestEconomics(state, q, outputs, own, run.attribute !== false));
  } else chain = sharedChain(r, group, runOf, own, run.attribute !== false);
  if (markersUnrecorded(r, chain))
    chain = chain.map((e) =>
      e.own && (e.cacheBreak?.cause === 'not-asked' || e.cacheBreak?.cause === 'previous-not-asked') ? { ...e, cacheBreak: { ...e.cacheBreak, cause: 'markers-unrecorded' } } : e,
    );
  const partial = partialRequests(r);
  if (partial.size) chain = chain.map((e) => (e.own && partial.has(e.offset) ? { ...e, partial: true } : e));
  const requests = chain.filter((e) => e.own);
  return { id: r.scenario.id, requests, chain, totals: totalsOf(requests), profiles: profilesOf(requests, config, run) };
}

/** Own requests whose capture does not record a part the provider received (a system prompt, tools), cache markers aside. */
function partialRequests(r: RenderedScenario): Set<number> {
  const payloads = new Map(r.scenario.chain.map((e) => [e.offset, e.payload]));
  return new Set(r.requests.filter((q) => unrecordedOfPayload(payloads.get(q.offset)).some(carriesTokens)).map((q) => q.offset));
}

/**
 * No own request as captured carries a cache marker, and at least one reads nothing because it
 * asks for none — yet the capture says it does not record markers (MARKERS_UNRECORDED: a Claude
 * Code transcript, a span), or the bill shows cache reads or writes, which the provider makes only
 * for a request that asks: whether the requests as sent asked is not in the capture. Their causes
 * then name what the capture lacks, not the request.
 */
function markersUnrecorded(r: RenderedScenario, chain: readonly RequestEconomics[]): boolean {
  const own = chain.filter((e) => e.own);
  if (!own.some((e) => e.cacheBreak?.cause === 'not-asked' || e.cacheBreak?.cause === 'previous-not-asked')) return false;
  return own.every((e) => e.breakpointTokens.length === 0) && (markersNotCaptured(r) || billShowsCaching(r));
}

/**
 * `r`'s chain simulated with the scenarios it shares the cache with (shared-cache.ts): every
 * member's requests in the order of the group's clock (ties: corpus order, then chain order), each
 * through its own run over one cache per profile. Only `r`'s records are kept (and attributed).
 */
function sharedChain(
  r: RenderedScenario,
  group: ReturnType<typeof cacheGroup>,
  runOf: (x: RenderedScenario, shiftMs: number) => Run,
  own: ReadonlySet<number>,
  attribute: boolean,
): RequestEconomics[] {
  const caches: Run['caches'] = new Map();
  const peers = new Map<string, Run>();
  for (const m of group) peers.set(m.r.scenario.id, { ...runOf(m.r, m.shiftMs), caches, peers });
  const sends = group.flatMap((m, member) => m.r.chain.map((q, i) => ({ run: peers.get(m.r.scenario.id)!, q, at: Date.parse(q.createdAt) + m.shiftMs, member, i })));
  sends.sort((a, b) => a.at - b.at || a.member - b.member || a.i - b.i);
  const outputs = new Map(group.map((m) => [m.r.scenario.id, outputsOf(m.r)]));
  const none = new Set<number>();
  const out: RequestEconomics[] = [];
  for (const s of sends) {
    const mine = s.run.r === r;
    const e = requestEconomics(s.run, s.q, outputs.get(s.run.r.scenario.id)!, mine ? own : none, mine && attribute);
    if (mine) out.push(e);
  }
  return out;
}

/** What a request's figures give its totals (totalsOf reads nothing else). */
export type Totalled = Pick<
  RequestEconomics,
  'inputTokens' | 'cachedTokens' | 'cacheWriteTokens' | 'outputTokens' | 'costUsd' | 'cost' | 'noCacheCostUsd' | 'exact' | 'apiError'
> & {
  cacheBreak: Pick<CacheBreak, 'tokensLost' | 'lostCostUsd'> | null;
};

export function totalsOf(requests: readonly Totalled[]): Totals {
  // One pass: a corpus check totals every scenario under every configured profile. Each figure adds
  // the requests in order from 0, as a sum over them one by one would (the same floating-point result).
  let input = 0;
  let cached = 0;
  let writes = 0;
  let output = 0;
  let lost = 0;
  let cost = 0;
  let noCache = 0;
  let lostCost = 0;
  const split = { input: 0, cached: 0, writes: 0, output: 0 };
  // A dollar figure is known only when every request's is (and there is a request).
  let allCost = requests.length > 0;
  let allSplit = requests.length > 0;
  let allNoCache = requests.length > 0;
  let exact = true;
  let rejected = 0;
  for (const e of requests) {
    input += e.inputTokens;
    cached += e.cachedTokens;
    writes += e.cacheWriteTokens;
    output += e.outputTokens ?? 0;
    lost += e.cacheBreak?.tokensLost ?? 0;
    if (e.costUsd === null) allCost = false;
    else cost += e.costUsd;
    if (e.cost === null) allSplit = false;
    else {
      split.input += e.cost.input;
      split.cached += e.cost.cached;
      split.writes += e.cost.writes;
      split.output += e.cost.output;
    }
    if (e.noCacheCostUsd === null) allNoCache = false;
    else noCache += e.noCacheCostUsd;
    lostCost += e.cacheBreak?.lostCostUsd ?? 0;
    if (!e.exact) exact = false;
    if (e.apiError) rejected++;
  }
  return {
    inputTokens: input,
    cachedTokens: cached,
    uncachedTokens: input - cached,
    cacheWriteTokens: writes,
    outputTokens: output,
    tokensLost: lost,
    costUsd: allCost ? tidy(cost) : null,
    cost: allSplit ? { input: tidy(split.input), cached: tidy(split.cached), writes: tidy(split.writes), output: tidy(split.output) } : null,
    noCacheCostUsd: allNoCache ? tidy(noCache) : null,
    lostCostUsd: requests.length > 0 ? tidy(lostCost) : null,
    cachedShare: input ? cached / input : null,
    exact,
    rejected,
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

/** Each profile's mechanicsKey, made once (a corpus check asks for every profile's, scenario after scenario). */
const mechanics = new WeakMap<Profile, string>();

/** What makes two profiles cache alike (everything but the title and the prices: the mechanism and the features accepted). */
function mechanicsKey(p: Profile): string {
  let key = mechanics.get(p);
  if (key === undefined) mechanics.set(p, (key = mechanicsKeyOf(p)));
  return key;
}

function mechanicsKeyOf(p: Profile): string {
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
    // Features the model accepts decide which requests the API rejects.
    Object.entries(p.features ?? {})
      .filter(([, f]) => f.value)
      .map(([k]) => k)
      .sort(),
  ]);
}

/** A request's prices under another profile: the profile in force at its instant, its cost, and what its lost tokens cost. */
function repriced(e: RequestEconomics, profile: Profile, atMs: number): { at: ReturnType<typeof pricesAt>; priced: Priced; lostCostUsd: number | null } {
  const at = pricesAt(profile, atMs, e.inputTokens);
  const priced = e.apiError ? UNPRICED : costs(at.profile, e.inputTokens, e.cachedTokens, e.cacheWriteTokens, e.cacheWriteTokens1h, e.outputTokens);
  return { at, priced, lostCostUsd: e.cacheBreak ? lostCost(at.profile, e.cacheBreak.tokensLost, e.cacheWriteTokens) : null };
}

/** A request's figures under another profile that caches alike: the same tokens, its own prices. */
export function reprice(e: RequestEconomics, profile: Profile, atMs = Number.NaN): RequestEconomics {
  const { at, priced, lostCostUsd } = repriced(e, profile, atMs);
  const p = at.profile;
  const { pricesApplied: _, ...rest } = e;
  return {
    ...rest,
    ...(at.applied.length && { pricesApplied: at.applied }),
    profile: p.id,
    profileTitle: p.title,
    costUsd: priced.total,
    cost: priced.split,
    noCacheCostUsd: priced.noCache,
    cacheBreak: e.cacheBreak && { ...e.cacheBreak, lostCostUsd },
  };
}

/** The same, only the figures its totals read (the side-by-side table totals every request under every profile). */
function repriceTotalled(e: RequestEconomics, profile: Profile, atMs: number): Totalled {
  const { priced, lostCostUsd } = repriced(e, profile, atMs);
  return {
    inputTokens: e.inputTokens,
    cachedTokens: e.cachedTokens,
    cacheWriteTokens: e.cacheWriteTokens,
    outputTokens: e.outputTokens,
    costUsd: priced.total,
    cost: priced.split,
    noCacheCostUsd: priced.noCache,
    exact: e.exact,
    ...(e.apiError !== undefined && { apiError: e.apiError }),
    cacheBreak: e.cacheBreak && { tokensLost: e.cacheBreak.tokensLost, lostCostUsd },
  };
}

/**
 * The scenario's own requests under every configured profile. The cache is simulated once per group
 * of profiles that cache alike (most differ only in prices), over shapes tokenized once; the other
 * profiles of a group are repriced.
 */
export function underEveryProfile(
  r: RenderedScenario,
  config: EconomicsConfig,
  attribute = true,
  corpus?: ReadonlyMap<string, RenderedScenario>,
  shapes: ShapeCache = shapeCache(),
): { profile: Profile; requests: RequestEconomics[] }[] {
  return eachProfile(r, config, attribute, corpus, shapes, reprice);
}

/** Every configured profile with the own requests' figures under it: simulated once per group that caches alike, `price`d for the others. */
function eachProfile<T>(
  r: RenderedScenario,
  config: EconomicsConfig,
  attribute: boolean,
  corpus: ReadonlyMap<string, RenderedScenario> | undefined,
  shapes: ShapeCache,
  price: (e: RequestEconomics, p: Profile, atMs: number) => T,
): { profile: Profile; requests: (RequestEconomics | T)[] }[] {
  const groups = new Map<string, RequestEconomics[]>();
  const instants = new Map(r.chain.map((q) => [q.offset, pricingInstant(r.scenario, q.createdAt)]));
  return Object.values(config.profiles).map((p) => {
    const key = mechanicsKey(p);
    let base = groups.get(key);
    if (!base) groups.set(key, (base = scenarioEconomics(r, config, { profile: p.id, attribute, shapes, ...(corpus && { corpus }) }).requests));
    return { profile: p, requests: base[0]?.profile === p.id ? base : base.map((e) => price(e, p, instants.get(e.offset) ?? Number.NaN)) };
  });
}

/**
 * Totals of the scenario's own requests under every configured profile (the page's side-by-side table; no attribution).
 * `shapes`: the cache the scenario's own economics ran with (EconomicsRun.shapes), so its requests are not tokenized and interned again.
 * A repriced request is made of only the figures its totals read: the table prices every request under
 * every profile (60 × the requests), and whole records were most of its time and allocation.
 */
export function everyProfile(r: RenderedScenario, config: EconomicsConfig, corpus?: ReadonlyMap<string, RenderedScenario>, shapes: ShapeCache = shapeCache()): ProfileTotals[] {
  return eachProfile(r, config, false, corpus, shapes, repriceTotalled).map(({ profile: p, requests }) => ({ profile: p.id, title: p.title, totals: totalsOf(requests) }));
}
