/**
 * The provider's cache as a list of entries (docs/cache-economics.md, "What the provider would cache"). An entry is a prefix of a
 * request ending at a breakpoint (or, for OpenAI automatic caching, the whole token sequence of a
 * request), written by that request, alive until its own retention runs out after its last use.
 * Reading an entry refreshes that entry only. A request reads the longest alive entry of its model
 * that is a byte-identical prefix of it and that it can reach:
 *
 * - `prefix` entries (a strategy's `entries`; OpenAI before GPT-5.6): any entry; the hit is the
 *   common token prefix, nothing below the minimum, then whole `stepTokens` steps. Every request of
 *   at least the minimum writes an entry (free).
 * - `breakpoints` entries: written at every point the strategy places (its `points`: the request's
 *   own breakpoints, or — for a fold's own request without any, never for one as sent — the
 *   provider's default placement) of at least the minimum; read whole, by
 *   any request holding them (`reach: any`) or only when a breakpoint's lookback reaches them
 *   (`reach: lookback`: the breakpoint checks `lookbackBlocks` block boundaries, counting its own as
 *   the first — an entry 20 or more blocks behind is missed unless another breakpoint reaches it).
 *   A request the strategy `rejects` (too many breakpoints) is the error the API returns: nothing is
 *   read, written or billed.
 * The rules are each provider's adapter's (src/providers/<provider>/cache.ts); nothing here names one.
 *
 * Write tokens are the tokens from the end of what was read to the furthest breakpoint written,
 * each stretch billed at the TTL of the breakpoint that ends it. Time is the requests' own
 * timestamps (ms); an entry is alive while `now − lastUse ≤ retention`.
 */
import type { Breakpoint } from '../folds/types.ts';
import { adapterOfStrategy } from '../providers/registry.ts';
import type { CacheStrategy, RequestParams } from '../providers/types.ts';
import { strategyOf, type Profile } from './shipped-profiles.ts';
import { afterMessage, holds, positionOf, sharedTokens, type Position, type Shape } from './shape.ts';
import type { Tokenizer } from './tokens.ts';

export interface Entry {
  model: string;
  /** Offset of the request that wrote it. */
  writtenBy: number;
  k: number;
  prefixId: number;
  /** Role of message `k` and the part of it covered, when the entry ends inside it. */
  role?: string;
  partial?: string;
  tokens: number;
  blocks: number;
  ttl: '5m' | '1h' | 'default';
  retentionMs: number;
  lastUse: number;
  /** `openai-prefix`: the whole request (its entry is its token sequence). */
  shape?: Shape;
  /** Id of the scenario that wrote it, when scenarios share the cache (shared-cache.ts); absent otherwise. */
  scenario?: string;
}

/** Cached tokens of a common prefix under automatic prefix caching: nothing below the minimum, then whole steps. */
export function roundedHit(p: Profile, prefixTokens: number): number {
  const min = p.minPrefixTokens.value;
  const step = Math.max(1, p.stepTokens?.value ?? 1);
  if (prefixTokens < Math.max(min, 1)) return 0;
  return min + Math.floor((prefixTokens - min) / step) * step;
}

const minutes = (m: number | null | undefined): number => (m === null || m === undefined ? Infinity : m * 60_000);

export function retentionOf(p: Profile, ttl: Entry['ttl']): number {
  return ttl === '1h' && p.extendedRetentionMinutes ? minutes(p.extendedRetentionMinutes.value) : minutes(p.retentionMinutes.value);
}

export const alive = (e: Entry, now: number): boolean => now - e.lastUse <= e.retentionMs;

/** The request being priced. */
export interface CacheRequest {
  offset: number;
  model: string;
  now: number;
  shape: Shape;
  /** The breakpoints the request carries (none: the profile's default placement, unless `asSent`). */
  breakpoints?: readonly Breakpoint[];
  /** The request as sent: no breakpoint means none (no default placement). */
  asSent?: boolean;
  /** The request parameters its provider adapter read (params.ts); absent: none. */
  params?: RequestParams;
  /** Scenarios sharing the cache (shared-cache.ts): the scenario sending it, and which other scenarios' entries it may read. */
  scenario?: string;
  readable?: (e: Entry) => boolean;
}

export interface CacheResult {
  /** The entry read (null: none). */
  read: Entry | null;
  readTokens: number;
  writeTokens: number;
  /** Of the write tokens, those written with the 1-hour TTL. */
  writeTokens1h: number;
  /** Where the request's breakpoints sit (what it can write and reach from). */
  positions: Position[];
  /** The API would reject the request (Anthropic: too many breakpoints). */
  apiError?: string;
}

/**
 * The positions a request's breakpoints mark, in order: explicit ones when it carries any; else the
 * strategy's default for a fold's own request, and nothing the request did not ask for when it is
 * one as sent (an imported request without `cache_control` caches nothing on Anthropic).
 */
export function positionsOf(t: Tokenizer, p: Profile, q: CacheRequest): { positions: Position[]; explicit: number } {
  const s = q.shape;
  const strategy = strategyOf(p);
  if (!s.messages.length || strategy.entries === 'prefix') return { positions: [], explicit: 0 };
  const explicit = (q.breakpoints ?? []).map((b) => positionOf(t, s, b)).filter((x): x is Position => x !== null);
  const at = (i: number): Position => afterMessage(s, i);
  const defaults = explicit.length || q.asSent ? [] : (adapterOfStrategy(p.cache)?.defaultBreakpoints(s.messages) ?? []).map(at);
  const positions = strategy.points(explicit, defaults, s.messages, at, p, q.params ?? {});
  const seen = new Set<string>();
  const out = positions
    .filter((x) => {
      const key = `${x.k}:${x.partial ?? ''}:${x.ttl ?? ''}`;
      return !seen.has(key) && !!seen.add(key);
    })
    .sort((a, b) => a.tokens - b.tokens);
  return { positions: out, explicit: explicit.length };
}

/** A breakpoint at `x` reaches an entry ending at `e` (a `lookback` strategy: within the profile's lookbackBlocks). */
export function withinLookback(p: Profile, x: { blocks: number }, e: { blocks: number }): boolean {
  const back = p.lookbackBlocks?.value ?? Infinity;
  return x.blocks >= e.blocks && x.blocks - e.blocks < back;
}

/** Where an entry ends, as a key: its model, message, prefix and partial text. */
const endKey = (model: string, k: number, prefixId: number, partial: string | undefined): string =>
  `${model}\u0000${k}\u0000${prefixId}\u0000${partial === undefined ? '\u0001' : partial}`;

export class ProviderCache {
  readonly entries: Entry[] = [];
  /** Of `entries[0..i]`: the most tokens an entry holds, and the longest input of a request that wrote one — what lets a search going newest first stop as soon as nothing older can beat what it found. */
  private readonly maxTokens: number[] = [];
  private readonly maxInput: number[] = [];
  /** Entries by where they end (model, message, prefix, partial), in order: the one at a breakpoint is found there, not by a scan. */
  private readonly at = new Map<string, Entry[]>();

  readonly profile: Profile;
  readonly strategy: CacheStrategy;
  readonly t: Tokenizer;

  constructor(profile: Profile, t: Tokenizer) {
    this.profile = profile;
    this.strategy = strategyOf(profile);
    this.t = t;
  }

  /** The most tokens an entry among `entries[0..i]` holds (0 when i < 0). */
  tokensBound(i: number): number {
    return i >= 0 ? this.maxTokens[i]! : 0;
  }

  /** The most an entry holding `tokens` can give a request: the tokens, as the strategy rounds a hit. */
  offerBound(tokens: number): number {
    return this.strategy.entries === 'prefix' ? roundedHit(this.profile, tokens) : tokens;
  }

  /** The longest input of a request that wrote one of `entries[0..i]` (0 when i < 0). */
  inputBound(i: number): number {
    return i >= 0 ? this.maxInput[i]! : 0;
  }

  /**
   * The entry the request reads: of the entries of its model it holds byte for byte, can reach and
   * that are alive at its instant, the one giving the most tokens (then the most recently used, then
   * the newest). Newest first, and an entry that could not give more than the best so far is not
   * compared token by token (its own length bounds what it gives): a conversation of thousands of
   * requests leaves thousands of entries, and comparing each request with every one of them took
   * most of a build (2,000 requests: 113 s of 139).
   */
  private best(q: CacheRequest, positions: readonly Position[]): { entry: Entry; tokens: number } | null {
    const p = this.profile;
    let read: { entry: Entry; tokens: number; index: number } | null = null;
    for (let i = this.entries.length - 1; i >= 0; i--) {
      // Nothing older can give as much as the best so far: done.
      if (read && this.offerBound(this.tokensBound(i)) < read.tokens) break;
      const e = this.entries[i]!;
      if (e.model !== q.model || !alive(e, q.now)) continue;
      // What the entry could give at most; one that cannot reach the best so far is not compared.
      if (read && this.offerBound(e.tokens) < read.tokens) continue;
      if (q.readable && !q.readable(e)) continue;
      let tokens: number;
      if (this.strategy.entries === 'prefix') {
        tokens = roundedHit(p, Math.min(sharedTokens(this.t, e.shape!, q.shape), e.tokens));
        if (tokens <= 0) continue;
      } else {
        if (!holds(q.shape, e)) continue;
        if (this.strategy.reach === 'lookback' && !positions.some((x) => withinLookback(p, x, e) && x.tokens >= e.tokens)) continue;
        tokens = e.tokens;
      }
      // The order the entries were compared in before: more tokens, then the later use, then the newer entry.
      if (!read || tokens > read.tokens || (tokens === read.tokens && (e.lastUse > read.entry.lastUse || (e.lastUse === read.entry.lastUse && i > read.index))))
        read = { entry: e, tokens, index: i };
    }
    return read;
  }

  /** Prices one request against the cache, then records what it read and wrote. */
  request(q: CacheRequest): CacheResult {
    const p = this.profile;
    const { positions, explicit } = positionsOf(this.t, p, q);
    const apiError = this.strategy.rejects(explicit, p);
    if (apiError) return { read: null, readTokens: 0, writeTokens: 0, writeTokens1h: 0, positions, apiError };
    const read = this.best(q, positions);
    const readTokens = Math.min(read?.tokens ?? 0, q.shape.input);
    if (read && p.refreshOnHit.value) read.entry.lastUse = q.now;
    const min = p.minPrefixTokens.value;
    let writeTokens = 0;
    let writeTokens1h = 0;
    if (this.strategy.entries === 'prefix') {
      if (q.shape.input >= Math.max(1, min)) this.add(q, { k: q.shape.messages.length, tokens: q.shape.input, blocks: q.shape.blocks.at(-1)! }, 'default', q.shape);
    } else {
      let done = readTokens;
      for (const x of positions) {
        if (x.tokens < Math.max(1, min)) continue;
        const prefixId = q.shape.prefix[x.k]!;
        const same = this.at.get(endKey(q.model, x.k, prefixId, x.partial))?.find((e) => alive(e, q.now) && (!q.readable || q.readable(e)));
        // An alive entry at this very breakpoint is found there (a read, which refreshes it); otherwise it is written.
        if (same) {
          if (p.refreshOnHit.value) same.lastUse = q.now;
        } else this.add(q, x, this.strategy.perBreakpointTtl ? (x.ttl ?? '5m') : 'default');
        if (x.tokens > done) {
          if (x.ttl === '1h' && this.strategy.perBreakpointTtl) writeTokens1h += x.tokens - done;
          writeTokens += x.tokens - done;
          done = x.tokens;
        }
      }
    }
    return { read: read?.entry ?? null, readTokens, writeTokens, writeTokens1h, positions };
  }

  /**
   * A request-parameter change invalidated every entry of `model` beyond `keepTokens` (they are
   * gone for this conversation). In a shared cache only the scenario's own entries: another
   * scenario's stay for requests with its parameters (`readable` keeps them from this one).
   */
  invalidate(model: string, keepTokens: number, scenario?: string): void {
    const before = this.entries.length;
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (e.model === model && e.tokens > keepTokens && e.scenario === scenario) this.entries.splice(i, 1);
    }
    if (this.entries.length === before) return;
    const kept = this.entries.splice(0);
    this.maxTokens.length = this.maxInput.length = 0;
    this.at.clear();
    for (const e of kept) this.index(e, this.inputs.get(e)!);
  }

  /** The input of the request that wrote each entry (for inputBound, kept across an invalidation). */
  private readonly inputs = new WeakMap<Entry, number>();

  /** Adds `e`, written by a request of `input` tokens, to the list and its indexes. */
  private index(e: Entry, input: number): void {
    const n = this.entries.length;
    this.entries.push(e);
    this.inputs.set(e, input);
    this.maxTokens.push(Math.max(this.tokensBound(n - 1), e.tokens));
    this.maxInput.push(Math.max(this.inputBound(n - 1), input));
    const key = endKey(e.model, e.k, e.prefixId, e.partial);
    const list = this.at.get(key);
    if (list) list.push(e);
    else this.at.set(key, [e]);
  }

  private add(q: CacheRequest, x: Position, ttl: Entry['ttl'], shape?: Shape): void {
    const m = x.partial !== undefined ? q.shape.messages[x.k] : undefined;
    this.index(
      {
        model: q.model,
        writtenBy: q.offset,
        k: x.k,
        prefixId: q.shape.prefix[x.k]!,
        ...(m && { role: m.role, partial: x.partial }),
        tokens: x.tokens,
        blocks: x.blocks,
        ttl,
        retentionMs: retentionOf(this.profile, ttl),
        lastUse: q.now,
        ...(shape && { shape }),
        ...(q.scenario !== undefined && { scenario: q.scenario }),
      },
      q.shape.input,
    );
  }
}
