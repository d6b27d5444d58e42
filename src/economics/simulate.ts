/**
 * The cache simulation of one request (docs/cache-economics.md, "What the provider would cache"): its profile and tokenizer, its
 * shape (tokenized once per encoding, shared by runs over the same scenario), what the previous
 * request's entries offered before this request reads anything (the classification compares with
 * it), a request-parameter change that invalidates entries (params.ts), a feature the model rejects
 * (features.ts), and what the provider's cache reads and writes (entries.ts). The previous
 * request's state is a `Seen`, recorded once a request is simulated.
 */
import type { RenderedMessage } from '../folds/types.ts';
import type { RenderedRequest, RenderedScenario } from '../prompt/render.ts';
import type { Invalidation, Rejection, RequestParams } from '../providers/types.ts';
import { alive, positionsOf, ProviderCache, roundedHit, withinLookback, type CacheResult, type Entry } from './entries.ts';
import { rejectedFeature } from './features.ts';
import { paramChange } from './params.ts';
import { profileFor, type EconomicsConfig, type ProfileMatch } from './profiles.ts';
import type { Profile } from './shipped-profiles.ts';
import { holds, Interner, OPENING_TOKENS, shapeOf, sharedMessages, sharedTokens, type Position, type Shape } from './shape.ts';
import { tokenizer, type Tokenizer } from './tokens.ts';

/**
 * Request shapes by the request's messages and breakpoints (a shape depends on nothing else: a
 * what-if variant that only retimes or re-prices a request reuses its shape) and encoding, with the
 * interner their prefix ids come from.
 */
export interface ShapeCache {
  ids: Interner;
  byMessages: WeakMap<readonly RenderedMessage[], { breakpoints: RenderedRequest['breakpoints']; byEncoding: Map<string, Shape> }[]>;
}

export const shapeCache = (): ShapeCache => ({ ids: new Interner(), byMessages: new WeakMap() });

/** What one request left behind, for the requests after it. */
export interface Seen {
  q: RenderedRequest;
  profile: Profile;
  t: Tokenizer;
  shape: Shape;
  positions: Position[];
  cache: ProviderCache;
}

export interface Offer {
  e: Entry;
  tokens: number;
}

/**
 * The entries the previous request offers to a request that keeps its bytes: the best alive at
 * `now` and the best expired one that offers more than it (what a retention that ran out lost;
 * null when none does) — the first written, of equals — and, asked only to name what a break lost,
 * every alive one. Newest first, and the search stops when nothing older can beat what it found
 * (ProviderCache.tokensBound): a long conversation leaves thousands of entries.
 */
export function offered(prev: Seen, now: number, reach: readonly Position[] | null): { alive: Offer | null; expired: Offer | null; readonly all: Offer[] } {
  const p = prev.profile;
  const cache = prev.cache;
  const strategy = cache.strategy;
  const entries = cache.entries;
  /** What `e` offers (0: nothing). */
  const offer = (e: Entry): number => {
    if (strategy.entries === 'prefix') return roundedHit(p, Math.min(sharedTokens(prev.t, e.shape!, prev.shape, true), e.tokens));
    if (!holds(prev.shape, e)) return 0;
    if (strategy.reach === 'lookback' && reach && !reach.some((x) => withinLookback(p, x, e))) return 0;
    return e.tokens;
  };
  /** The best offer of the entries alive (or not) at `now`, above `floor`; of equals the first written (going newest first, an equal replaces). */
  const bestOf = (live: boolean, floor: number): Offer | null => {
    let best: Offer | null = null;
    for (let i = entries.length - 1; i >= 0; i--) {
      const least = best ? best.tokens : floor + 1;
      if (cache.offerBound(cache.tokensBound(i)) < least) break;
      const e = entries[i]!;
      if (e.model !== prev.q.model || alive(e, now) !== live || cache.offerBound(e.tokens) < least) continue;
      const tokens = offer(e);
      if (tokens > 0 && tokens >= least) best = { e, tokens };
    }
    return best;
  };
  const best = bestOf(true, 0);
  let all: Offer[] | undefined;
  return {
    alive: best,
    expired: bestOf(false, best?.tokens ?? 0),
    get all(): Offer[] {
      all ??= entries.flatMap((e) => {
        if (e.model !== prev.q.model || !alive(e, now)) return [];
        const tokens = offer(e);
        return tokens > 0 ? [{ e, tokens }] : [];
      });
      return all;
    },
  };
}

/** What a scenario's simulation keeps from request to request. */
export interface Run {
  r: RenderedScenario;
  config: EconomicsConfig;
  /** Price every request under this profile instead of its model's. */
  forced?: Profile;
  shapes: ShapeCache;
  caches: Map<string, ProviderCache>;
  seen: Map<number, Seen>;
  params: Map<number, RequestParams>;
  /** Scenarios sharing the cache (shared-cache.ts): this scenario's offset on the group's clock, and every member's run by scenario id. */
  shiftMs?: number;
  peers?: ReadonlyMap<string, Run>;
}

/** One request simulated: everything the classification, the pricing and the record read. */
export interface Simulated {
  q: RenderedRequest;
  match: ProfileMatch;
  p: Profile;
  t: Tokenizer;
  shape: Shape;
  cache: ProviderCache;
  now: number;
  prev?: Seen;
  /** Same profile and model as the previous request. */
  sameRules: boolean;
  /** This request holds every message of the previous one (it only appended). */
  kept: boolean;
  /** What the previous request's entries offered had the bytes stayed the same (with and without the lookback). */
  before?: Offers;
  beforeAnyReach?: Offers;
  /** Longest common token prefix with a request whose entry is alive. */
  prefixTokens: number;
  changed?: Invalidation;
  rejected?: Rejection;
  res: CacheResult;
}

export type Offers = ReturnType<typeof offered>;

function shapeFor(run: Run, q: RenderedRequest, t: Tokenizer): Shape {
  let same = run.shapes.byMessages.get(q.messages);
  if (!same) run.shapes.byMessages.set(q.messages, (same = []));
  let byEncoding = same.find((x) => x.breakpoints === q.breakpoints)?.byEncoding;
  if (!byEncoding) same.push({ breakpoints: q.breakpoints, byEncoding: (byEncoding = new Map()) });
  let shape = byEncoding.get(t.encoding);
  if (!shape) byEncoding.set(t.encoding, (shape = shapeOf(t, run.shapes.ids, q.messages, q.breakpoints)));
  return shape;
}

function cacheFor(run: Run, p: Profile, t: Tokenizer): ProviderCache {
  let cache = run.caches.get(p.id);
  if (!cache) run.caches.set(p.id, (cache = new ProviderCache(p, t)));
  return cache;
}

/** Where this request's breakpoints would reach from had the previous request's bytes stayed the same (a lookback strategy only). */
function reachOf(s: Pick<Simulated, 'prev' | 'shape' | 'kept' | 'cache'>, mine: Position[]): Position[] | null {
  const prev = s.prev;
  if (!prev || s.cache.strategy.reach !== 'lookback') return null;
  if (s.kept) return mine;
  // The previous request's breakpoints, and its end moved by what this request appended.
  const end = prev.shape.blocks.at(-1)! + Math.max(0, s.shape.blocks.at(-1)! - prev.shape.blocks.at(-1)!);
  return [...prev.positions, { k: 0, tokens: 0, blocks: end }];
}

/** The run of the scenario that wrote `e` (its own run when the cache is not shared). */
const writerOf = (run: Run, e: Entry): Run | undefined => (e.scenario === undefined ? run : run.peers?.get(e.scenario));

/**
 * Which entries of the shared cache a request may read: its own scenario's, and another's unless a
 * request parameter differs in a way the provider's strategy says invalidates that entry (the same
 * rule as a change between two requests of one conversation, params.ts).
 */
function readableBy(run: Run, cache: ProviderCache, params: RequestParams | undefined, shape: Shape): ((e: Entry) => boolean) | undefined {
  if (!run.peers) return undefined;
  const own = run.r.scenario.id;
  return (e) => {
    if (e.scenario === own) return true;
    const change = paramChange(cache.strategy.invalidates, writerOf(run, e)?.params.get(e.writtenBy), params, shape);
    return !change || e.tokens <= change.keepTokens;
  };
}

/** Longest common token prefix with any alive entry's writer (newest first, until no older writer is long enough to share more). */
function prefixTokensOf(run: Run, s: Pick<Simulated, 'q' | 't' | 'shape' | 'cache' | 'now'>): number {
  let n = 0;
  const entries = s.cache.entries;
  for (let i = entries.length - 1; i >= 0; i--) {
    // What a writer shares is at most its own length (and the opening of a next message).
    if (s.cache.inputBound(i) + OPENING_TOKENS <= n) break;
    const e = entries[i]!;
    if (e.model !== s.q.model || !alive(e, s.now)) continue;
    const w = writerOf(run, e)?.seen.get(e.writtenBy);
    if (w && w.t === s.t && w.shape.input + OPENING_TOKENS > n) n = Math.max(n, sharedTokens(s.t, w.shape, s.shape));
  }
  return n;
}

export function simulate(run: Run, q: RenderedRequest): Simulated {
  const match: ProfileMatch = run.forced ? { profile: run.forced, matched: 'model', by: run.forced.id } : profileFor(run.config, q.model);
  const p = match.profile;
  const t = tokenizer(p.tokenizer === 'approx' ? 'o200k_base' : p.tokenizer);
  const shape = shapeFor(run, q, t);
  const cache = cacheFor(run, p, t);
  const now = Date.parse(q.createdAt) + (run.shiftMs ?? 0);
  const prev = q.previous === null ? undefined : run.seen.get(q.previous);
  const sameRules = prev !== undefined && prev.profile === p && prev.q.model === q.model;
  const kept = sameRules && sharedMessages(prev.shape, shape) >= prev.shape.messages.length;
  const params = run.params.get(q.offset);
  const readable = readableBy(run, cache, params, shape);
  const request = {
    offset: q.offset,
    model: q.model,
    now,
    shape,
    ...(q.breakpoints && { breakpoints: q.breakpoints }),
    ...(q.asSent && { asSent: true }),
    ...(params && { params }),
    ...(readable && { scenario: run.r.scenario.id, readable }),
  };
  const { positions: mine } = positionsOf(t, p, request);
  // What the previous request's cache offered, before this request reads and refreshes anything.
  const before = prev ? offered(prev, now, reachOf({ prev, shape, kept, cache }, mine)) : undefined;
  const beforeAnyReach = prev && kept && cache.strategy.reach === 'lookback' ? offered(prev, now, null) : before;
  const prefixTokens = prefixTokensOf(run, { q, t, shape, cache, now });
  const changed = sameRules ? paramChange(cache.strategy.invalidates, run.params.get(prev!.q.offset), params, shape) : undefined;
  if (changed) cache.invalidate(q.model, changed.keepTokens, readable && run.r.scenario.id);
  const rejected = rejectedFeature(p, q.messages)?.rejection;
  const res: CacheResult = rejected ? { read: null, readTokens: 0, writeTokens: 0, writeTokens1h: 0, positions: mine, apiError: rejected.message } : cache.request(request);
  return { q, match, p, t, shape, cache, now, prev, sameRules, kept, before, beforeAnyReach, prefixTokens, changed, rejected, res };
}

/** What the request leaves for the requests after it. */
export function remember(run: Run, s: Simulated): void {
  run.seen.set(s.q.offset, { q: s.q, profile: s.p, t: s.t, shape: s.shape, positions: s.res.positions, cache: s.cache });
}
