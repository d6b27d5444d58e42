/**
 * The provider's cache as a list of entries (spec cache-economics §2). An entry is a prefix of a
 * request ending at a breakpoint (or, for OpenAI automatic caching, the whole token sequence of a
 * request), written by that request, alive until its own retention runs out after its last use.
 * Reading an entry refreshes that entry only. A request reads the longest alive entry of its model
 * that is a byte-identical prefix of it and that it can reach:
 *
 * - `openai-prefix`: any entry; the hit is the common token prefix, nothing below the minimum,
 *   then whole `stepTokens` steps. Every request of at least the minimum writes an entry (free).
 * - `openai-breakpoints`: any entry that is a prefix (no lookback limit is documented). Entries are
 *   written at the implicit breakpoint (end of the newest user/tool message, else the last message)
 *   and the latest `maxBreakpoints − 1` explicit ones, each if at least the minimum.
 * - `anthropic`: an entry a breakpoint's lookback reaches: the breakpoint checks `lookbackBlocks`
 *   block boundaries (20), counting its own as the first — so an entry ending 19 blocks before it is
 *   found and one ending 20 or more blocks before it is missed unless another breakpoint reaches it.
 *   Entries are written at every breakpoint of at least the minimum; more than `maxBreakpoints`
 *   breakpoints is the error the API returns (nothing is read, written or billed).
 *
 * Write tokens are the tokens from the end of what was read to the furthest breakpoint written,
 * each stretch billed at the TTL of the breakpoint that ends it. Time is the requests' own
 * timestamps (ms); an entry is alive while `now − lastUse ≤ retention`.
 */
import type { Breakpoint } from '../folds/types.ts';
import { cacheBreakpoints } from '../wire/breakpoints.ts';
import type { Profile } from './providers.ts';
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
  /** The breakpoints the request carries (none: the profile's default placement). */
  breakpoints?: readonly Breakpoint[];
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

/** The newest message a GPT-5.6 implicit breakpoint sits after: the last user or tool message, else the last one. */
export function implicitBreakpoint(messages: readonly { role: string }[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user' || messages[i]!.role === 'tool') return i;
  return messages.length - 1;
}

/** The positions a request's breakpoints mark, in order (explicit ones when it carries any, else the profile's default). */
export function positionsOf(t: Tokenizer, p: Profile, q: CacheRequest): { positions: Position[]; explicit: number } {
  const s = q.shape;
  if (!s.messages.length || p.cache === 'openai-prefix') return { positions: [], explicit: 0 };
  const explicit = (q.breakpoints ?? []).map((b) => positionOf(t, s, b)).filter((x): x is Position => x !== null);
  let positions: Position[];
  if (p.cache === 'anthropic') positions = explicit.length ? explicit : cacheBreakpoints(s.messages).map((i) => afterMessage(s, i));
  else {
    // GPT-5.6: the implicit breakpoint, plus the latest explicit ones up to the per-request write limit.
    const max = p.maxBreakpoints?.value ?? Infinity;
    positions = [afterMessage(s, implicitBreakpoint(s.messages)), ...explicit.slice(Math.max(0, explicit.length - (max - 1)))];
  }
  const seen = new Set<string>();
  const out = positions
    .filter((x) => {
      const key = `${x.k}:${x.partial ?? ''}:${x.ttl ?? ''}`;
      return !seen.has(key) && !!seen.add(key);
    })
    .sort((a, b) => a.tokens - b.tokens);
  return { positions: out, explicit: explicit.length };
}

export class ProviderCache {
  readonly entries: Entry[] = [];

  readonly profile: Profile;
  readonly t: Tokenizer;

  constructor(profile: Profile, t: Tokenizer) {
    this.profile = profile;
    this.t = t;
  }

  /** Entries of `model` that the request holds byte for byte and can reach, alive at `now` or not. */
  candidates(q: CacheRequest, positions: readonly Position[]): { entry: Entry; tokens: number }[] {
    const p = this.profile;
    const out: { entry: Entry; tokens: number }[] = [];
    for (const e of this.entries) {
      if (e.model !== q.model) continue;
      if (p.cache === 'openai-prefix') {
        const hit = roundedHit(p, Math.min(sharedTokens(this.t, e.shape!, q.shape), e.tokens));
        if (hit > 0) out.push({ entry: e, tokens: hit });
        continue;
      }
      if (!holds(q.shape, e)) continue;
      if (p.cache === 'anthropic') {
        const back = p.lookbackBlocks?.value ?? Infinity;
        if (!positions.some((x) => x.blocks >= e.blocks && x.blocks - e.blocks < back && x.tokens >= e.tokens)) continue;
      }
      out.push({ entry: e, tokens: e.tokens });
    }
    return out;
  }

  /** Prices one request against the cache, then records what it read and wrote. */
  request(q: CacheRequest): CacheResult {
    const p = this.profile;
    const { positions, explicit } = positionsOf(this.t, p, q);
    const max = p.maxBreakpoints?.value;
    if (p.cache === 'anthropic' && max !== undefined && explicit > max) {
      return {
        read: null,
        readTokens: 0,
        writeTokens: 0,
        writeTokens1h: 0,
        positions,
        apiError: `${explicit} cache breakpoints; the API accepts at most ${max} and rejects the request`,
      };
    }
    let read: { entry: Entry; tokens: number } | null = null;
    for (const c of this.candidates(q, positions)) {
      if (!alive(c.entry, q.now)) continue;
      if (!read || c.tokens > read.tokens || (c.tokens === read.tokens && c.entry.lastUse >= read.entry.lastUse)) read = c;
    }
    const readTokens = Math.min(read?.tokens ?? 0, q.shape.input);
    if (read && p.refreshOnHit.value) read.entry.lastUse = q.now;
    const min = p.minPrefixTokens.value;
    let writeTokens = 0;
    let writeTokens1h = 0;
    if (p.cache === 'openai-prefix') {
      if (q.shape.input >= Math.max(1, min)) this.add(q, { k: q.shape.messages.length, tokens: q.shape.input, blocks: q.shape.blocks.at(-1)! }, 'default', q.shape);
    } else {
      let done = readTokens;
      for (const x of positions) {
        if (x.tokens < Math.max(1, min)) continue;
        const prefixId = q.shape.prefix[x.k]!;
        const same = this.entries.find((e) => e.model === q.model && e.k === x.k && e.prefixId === prefixId && e.partial === x.partial && alive(e, q.now));
        // An alive entry at this very breakpoint is found there (a read, which refreshes it); otherwise it is written.
        if (same) {
          if (p.refreshOnHit.value) same.lastUse = q.now;
        } else this.add(q, x, p.cache === 'anthropic' ? (x.ttl ?? '5m') : 'default');
        if (x.tokens > done) {
          if (x.ttl === '1h' && p.cache === 'anthropic') writeTokens1h += x.tokens - done;
          writeTokens += x.tokens - done;
          done = x.tokens;
        }
      }
    }
    return { read: read?.entry ?? null, readTokens, writeTokens, writeTokens1h, positions };
  }

  private add(q: CacheRequest, x: Position, ttl: Entry['ttl'], shape?: Shape): void {
    const m = x.partial !== undefined ? q.shape.messages[x.k] : undefined;
    this.entries.push({
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
    });
  }
}
