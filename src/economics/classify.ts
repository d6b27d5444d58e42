/**
 * Why the cache broke (docs/cache-economics.md, "Why the cache broke"): one cause per request, with the event responsible
 * and the tokens lost. A request breaks the cache when an entry the previous requests had cached
 * (alive, reachable) is not read although it would have been had the earlier bytes stayed the same;
 * tokens lost = that entry's tokens beyond what this request reads — never negative, zero when
 * nothing was cacheable. A request whose previous request's bytes changed names the event even when
 * nothing was lost (the ✂ line moved). The responsible event is found by re-folding the events
 * between the two requests (attribution.ts).
 */
import type { RenderedScenario } from '../prompt/render.ts';
import { responsibleEvent, type Target } from './attribution.ts';
import { lostCost } from './price.ts';
import { OPENING_TOKENS, sharedMessages, sharedTokens } from './shape.ts';
import type { Offer, Seen, Simulated } from './simulate.ts';

export type Cause =
  | 'first-request'
  | 'below-minimum'
  /** A request as sent that marks no breakpoint, where the provider caches only what a request asks for. */
  | 'not-asked'
  /** Nothing to read: the request before, as sent, asked for no caching and so wrote nothing (this one may ask). */
  | 'previous-not-asked'
  /**
   * `not-asked` or `previous-not-asked` where the capture, not the request, lacks the markers: no
   * request as captured carries one, and the capture says it does not record them
   * (MARKERS_UNRECORDED) or the bill shows cache reads or writes, which the provider makes only for
   * a request that asks (set by compute.ts; classify never gives it).
   */
  | 'markers-unrecorded'
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

/** The classification of one request against the previous one. */
export interface Classified {
  cacheBreak: CacheBreak | null;
  /** Tokens above the ✂ line (null: first request). */
  cutTokens: number | null;
  expired: boolean;
  idleMs?: number;
  expiredRetentionMinutes?: number;
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

/** The previous request's bytes changed: the event whose folding removed the lost entry, and whether tools/system or a message changed. */
function byteBreak(s: Simulated, r: RenderedScenario, attribute: boolean, lost: number): { cause: Cause; events: number[] } {
  const prev = s.prev!;
  const differs = sharedMessages(prev.shape, s.shape);
  const target = lost > 0 && attribute ? lostTarget(prev, s.before!.all, s.res.readTokens) : null;
  let who = target ? responsibleEvent(s.t, r, prev.q, s.q, targetOf(prev, target)) : null;
  if (!who && attribute) who = responsibleEvent(s.t, r, prev.q, s.q, { messages: prev.shape.messages.slice(0, differs + 1) });
  const cause: Cause = who?.deploy ? 'fold-changed' : isInstructions(prev.shape.messages, differs) ? 'system-changed' : 'earlier-message-changed';
  return { cause, events: who ? [who.offset] : [] };
}

/**
 * The request as sent carries no breakpoint and its provider caches only what a request asks for
 * (an Anthropic or Bedrock body without a marker): it reads and writes nothing because it asked for
 * nothing — not because of a minimum or an eviction.
 */
const notAsked = (s: Simulated): boolean => !!s.q.asSent && !s.res.positions.length && s.cache.strategy.entries === 'breakpoints';

/** The one cause of this request's break (null: nothing the previous requests cached was lost). */
function cause(s: Simulated, r: RenderedScenario, attribute: boolean, lost: number, expired: boolean): { cause: Cause; events: number[]; lost: number; param?: string } | null {
  const prev = s.prev!;
  const cached = s.res.readTokens;
  const gone = s.before?.expired ?? null;
  const reachable = s.beforeAnyReach?.alive?.tokens ?? 0;
  if (prev.q.model !== s.q.model) return { cause: 'model-changed', events: [s.q.offset], lost };
  if (!cached && notAsked(s)) return { cause: 'not-asked', events: lost > 0 ? [s.q.offset] : [], lost };
  if (!s.sameRules) return cached ? null : { cause: 'below-minimum', events: [], lost: 0 };
  if (s.changed && s.kept && lost > 0) return { cause: 'parameter-changed', events: [s.q.offset], lost, param: s.changed.param };
  if (!s.kept) return { ...byteBreak(s, r, attribute, lost), lost };
  if (expired) return { cause: 'expired', events: [], lost: Math.max(0, gone!.tokens - cached) };
  if (reachable > cached) return { cause: 'out-of-reach', events: [], lost: reachable - cached };
  if (lost > 0) return { cause: 'out-of-reach', events: [], lost };
  if (cached === 0 && prev.q.asSent && !prev.positions.length && prev.cache.strategy.entries === 'breakpoints') return { cause: 'previous-not-asked', events: [], lost: 0 };
  return cached === 0 ? { cause: 'below-minimum', events: [], lost: 0 } : null;
}

export function classify(s: Simulated, r: RenderedScenario, attribute: boolean): Classified {
  const brk = (c: NonNullable<ReturnType<typeof cause>>): CacheBreak => ({
    cause: c.cause,
    events: c.events,
    tokensLost: c.lost,
    lostCostUsd: lostCost(s.p, c.lost, s.res.writeTokens),
    ...(c.param !== undefined && { param: c.param }),
  });
  const prev = s.prev;
  if (!prev) return { cacheBreak: brk({ cause: 'first-request', events: [], lost: 0 }), cutTokens: null, expired: false };
  const cached = s.res.readTokens;
  const cutTokens = prev.q.model === s.q.model && prev.t === s.t ? sharedTokens(s.t, prev.shape, s.shape) : 0;
  const best = s.before?.alive ?? null;
  const gone = s.before?.expired ?? null;
  const lost = Math.max(0, (best?.tokens ?? 0) - cached);
  const expired = !!gone && gone.tokens > Math.max(cached, best?.tokens ?? 0);
  const c = cause(s, r, attribute, lost, expired);
  return {
    cacheBreak: c && brk(c),
    cutTokens,
    expired,
    ...(expired && { idleMs: s.now - gone!.e.lastUse, expiredRetentionMinutes: gone!.e.retentionMs / 60_000 }),
  };
}
