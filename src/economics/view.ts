/**
 * What the pages say about a request's cache economics, as plain strings and links: the pane
 * header's token figures, the note under the ✂ line (tokens above it; when the cache broke, the
 * cause and the event that did it; an expired prefix marked as such), and the per-scenario panel's
 * rows and bar chart geometry. Browser-safe and free of the tokenizer (types only), so the page
 * script can show the same words for panes it builds.
 */
import type { Cause, RequestEconomics, ScenarioEconomics } from './compute.ts';
import { formatDuration, formatMinutes, formatShare, formatTokens, formatUsd, NO_PRICE, REJECTED } from './format.ts';
import { LONG_RUN } from './tokens.ts';

export interface PaneTokens {
  /** `cached 0 · new 663 · 663 tokens · $0.00237` */
  text: string;
  /** Profile and how to read the figures. */
  title: string;
  /** A first request that reads an entry another scenario wrote (`sharesCache:`): what the pane says instead of "nothing is cached yet". */
  firstStory?: string;
}

export interface CutNote {
  /** `501 tokens above this line` */
  above: string;
  /** Sentence on the cause; absent when the previous request stays cached. */
  cause?: string;
  /** Events responsible, with the label of their link. */
  events: { offset: number; label: string }[];
  /** `661 tokens lost, $0.0012`, or `nothing cached was lost` */
  lost?: string;
  kind: Cause | 'kept';
  /** Nothing was read from the cache although text above the line is byte-stable (expired, below the minimum, or what stayed is too short to cache). */
  uncached?: true;
}

/** `may have been evicted (idle 30 min 1 s; documented minimum 30 min)` / `expired (idle 5 min 1 s; TTL 5 min)`. */
export function expiryText(e: RequestEconomics): string {
  const idle = formatDuration(e.idleMs ?? 0);
  const ret = e.expiredRetentionMinutes ?? e.retentionMinutes;
  const limit = ret === null ? 'no retention limit' : e.retention === 'ttl' ? `TTL ${formatMinutes(ret)}` : `documented minimum ${formatMinutes(ret)}`;
  return `${e.retention === 'ttl' ? 'expired' : 'may have been evicted'} (idle ${idle}; ${limit})`;
}

const CAUSE_TEXT: Record<Cause, (e: RequestEconomics) => string> = {
  'first-request': (e) =>
    e.readFromScenario === undefined
      ? 'first request of the chain: nothing cached yet'
      : `first request of the chain: it reads what \`${e.readFromScenario}\` @${e.readFrom} wrote to the cache they share`,
  'below-minimum': (e) =>
    e.partial
      ? `not cached in the model: what the capture holds of the request stays below the profile’s ${formatTokens(e.minPrefixTokens)}-token minimum — the capture does not record every part the provider received (the bill counts them)`
      : `not cached: nothing reaches the profile’s ${formatTokens(e.minPrefixTokens)}-token minimum`,
  'not-asked': () => 'not cached: the request as sent asks for no caching (it carries no cache breakpoint)',
  'previous-not-asked': () => 'nothing to read yet: the request before asked for no caching, so it wrote nothing',
  'markers-unrecorded': () =>
    'not cached in the model: the capture records no cache marker, so whether the request as sent asked for caching is not known (the model never invents one)',
  expired: (e) => `byte-stable, but the cache entry ${expiryText(e)}`,
  'out-of-reach': () => 'byte-stable, but the cached entry lies beyond the lookback of this request’s breakpoints',
  'model-changed': () => 'cache broke: the model changed',
  'system-changed': () => 'cache broke: tools or a system message above the end of the previous request changed',
  'earlier-message-changed': () => 'cache broke: an earlier message was rewritten, removed or reordered',
  'fold-changed': () => 'cache broke: a deploy changed the fold’s rule mid-stream',
  'parameter-changed': (e) => `cache broke: the request parameter \`${e.cacheBreak?.param ?? '?'}\` changed, which invalidates the messages entries (tools and system still read)`,
};

/**
 * A cause's one name, the same in the pane's badge, the economics table and the lede (one cause, one
 * name): an entry past a TTL "expired", past a documented minimum "may have been evicted".
 */
const CAUSE_NAME: Record<Cause, (e: RequestEconomics) => string> = {
  'first-request': () => 'first request of the chain',
  'below-minimum': (e) => `below the ${formatTokens(e.minPrefixTokens)}-token minimum${e.partial ? ' in what the capture holds' : ''}`,
  'not-asked': () => 'the request asks for no caching',
  'previous-not-asked': () => 'the request before asked for no caching',
  'markers-unrecorded': () => 'the capture records no cache marker',
  expired: (e) => `the cache entry ${e.retention === 'ttl' ? 'expired' : 'may have been evicted'} (idle past its retention)`,
  'out-of-reach': () => 'the cache entry is beyond the lookback',
  'model-changed': () => 'the model changed',
  'system-changed': () => 'tools or a system message changed',
  'earlier-message-changed': () => 'an earlier message changed',
  'fold-changed': () => 'a deploy changed the fold',
  'parameter-changed': (e) => `the request parameter ${e.cacheBreak?.param ?? ''} changed`,
};

/** The name of a cause of a cache break (see CAUSE_NAME). */
export const causeName = (cause: Cause, e: RequestEconomics): string => CAUSE_NAME[cause](e);

const BYTE_CAUSES = new Set<Cause>(['model-changed', 'system-changed', 'earlier-message-changed', 'fold-changed']);

/** The responsible events with their link labels: `@40 <event type>`, or `the deploy at @44`. */
export function breakEvents(e: RequestEconomics, typeOf: (offset: number) => string): { offset: number; label: string }[] {
  const b = e.cacheBreak;
  return (b?.events ?? []).map((o) => ({ offset: o, label: b!.cause === 'fold-changed' ? `the deploy at @${o}` : `@${o} ${typeOf(o)}`.trim() }));
}

export function causeText(e: RequestEconomics): string {
  const b = e.cacheBreak;
  if (e.apiError) return `rejected by the API: ${e.apiError}`;
  if (!b) return 'the whole previous request stays cached';
  let text = CAUSE_TEXT[b.cause](e);
  if (BYTE_CAUSES.has(b.cause) && e.expired) text += `; its cache entry also ${expiryText(e)}`;
  return text;
}

/** `661 tokens lost, $0.0012`; `nothing cached was lost` for a moved ✂ line that cost nothing. */
export function lostText(e: RequestEconomics): string | undefined {
  const b = e.cacheBreak;
  if (b && !b.tokensLost && BYTE_CAUSES.has(b.cause)) return 'nothing cached was lost';
  if (!b?.tokensLost) return undefined;
  const cost = b.lostCostUsd === null ? '' : `, ${e.exact ? '' : '≈'}${formatUsd(b.lostCostUsd)}`;
  return `${formatTokens(b.tokensLost, e.exact)} tokens lost${cost}`;
}

/**
 * Why a profile's counts in a scenario are ≈, for the sentence under its name (EconomicsPanel);
 * undefined when they are exact. A provider without an offline tokenizer (the profile's `approx`),
 * or, under an exact one, a message with a run of one kind of character counted in pieces (tokens.ts
 * LONG_RUN) — an OpenAI request's ≈ is never the provider's.
 */
export function approximateWhy(econ: Pick<ScenarioEconomics, 'requests'>, profile: { id: string; tokenizer: string }): string | undefined {
  if (econ.requests.every((e) => e.profile !== profile.id || e.exact)) return undefined;
  return profile.tokenizer === 'approx'
    ? 'no offline tokenizer for this provider'
    : `a run of more than ${LONG_RUN.toLocaleString('en-US')} characters of one kind — letters, spaces or punctuation — is counted in pieces`;
}

/** The output count is exact when billed, or counted by an exact tokenizer; an estimate (≈) otherwise. */
export const outputExact = (e: Pick<RequestEconomics, 'outputSource' | 'exact'>): boolean => e.outputSource === 'billed' || e.exact;

const usd = (x: number | null | undefined, exact: boolean): string => (x === null || x === undefined ? NO_PRICE : `${exact ? '' : '≈'}${formatUsd(x)}`);

const OUTPUT_FROM: Record<NonNullable<RequestEconomics['outputSource']>, string> = {
  billed: ' (billed)',
  result: '',
  'next-request': ' (estimated from the reply the next request carries)',
};

export function paneTokens(e: RequestEconomics): PaneTokens {
  const x = e.exact;
  const cost = usd(e.costUsd, x);
  const writes = e.cacheWriteTokens ? ` · writes ${formatTokens(e.cacheWriteTokens, x)}` : '';
  const first = e.cacheBreak?.cause === 'first-request' && e.readFromScenario !== undefined && e.cachedTokens > 0;
  return {
    ...(first && {
      firstStory: `First request of this conversation, but not of the cache it shares with ${e.readFromScenario}: it reads the ${formatTokens(e.cachedTokens, x)} tokens that scenario's @${e.readFrom} wrote, whose bytes it repeats exactly, and writes only what follows them.`,
    }),
    text: `cached ${formatTokens(e.cachedTokens, x)}${writes} · new ${formatTokens(e.uncachedTokens, x)} · ${formatTokens(e.inputTokens, x)} tokens · ${cost}`,
    title: `Input tokens under profile ${e.profile} (${e.profileTitle})${x ? '' : '; ≈ approximate counts'}${e.cacheWriteTokens ? `; ${formatTokens(e.cacheWriteTokens, x)} of the new tokens are cache writes` : ''}${e.outputTokens !== null ? `; output ${formatTokens(e.outputTokens, outputExact(e))} tokens${OUTPUT_FROM[e.outputSource ?? 'result']}` : '; output not known'}${pricesText(e)}`,
  };
}

const PRICE_NAMES = { input: 'input', cachedInput: 'cache reads', cacheWrite: 'cache writes', cacheWrite1h: '1-hour cache writes', output: 'output' } as const;

/** `; priced with cache reads at $0.2 per million (in force until 2026-10-07)`: the prices a request paid other than its profile's current ones. */
export function pricesText(e: Pick<RequestEconomics, 'pricesApplied'>): string {
  if (!e.pricesApplied?.length) return '';
  return `; priced with ${e.pricesApplied.map((a) => `${PRICE_NAMES[a.field]} at $${a.value} per million (${a.why}; ${a.source}, read ${a.read})`).join(', ')}`;
}

export function cutNote(e: RequestEconomics, typeOf: (offset: number) => string): CutNote {
  const x = e.exact;
  const b = e.cacheBreak;
  const note: CutNote = {
    above: `${formatTokens(e.cutTokens ?? 0, x)} tokens above this line`,
    events: [],
    kind: b?.cause ?? 'kept',
    ...(e.cachedTokens === 0 && { uncached: true as const }),
  };
  if ((!b || b.cause === 'first-request') && !e.apiError) return note;
  note.cause = causeText(e);
  note.events = breakEvents(e, typeOf);
  const lost = lostText(e);
  if (lost) note.lost = lost;
  return note;
}

export interface PanelRow {
  offset: number;
  input: string;
  cached: string;
  writes: string;
  /** Cost parts: input, cached, writes, output, total. */
  costs: string[];
  cause: string;
  events: { offset: number; label: string }[];
  /** `661 ($0.0012)`; '' when nothing was lost. */
  lost: string;
}

export function panelRows(econ: ScenarioEconomics, typeOf: (offset: number) => string): PanelRow[] {
  return econ.requests.map((e) => {
    const x = e.exact;
    const c = e.cost;
    const b = e.cacheBreak;
    return {
      offset: e.offset,
      input: formatTokens(e.inputTokens, x),
      cached: formatTokens(e.cachedTokens, x),
      writes: formatTokens(e.cacheWriteTokens, x),
      // Output not known (no reply in the capture, no billed output): "—", never a $0.00 it was not.
      costs: c
        ? [c.input, c.cached, c.writes, c.output, e.costUsd!].map((v, k) => (k === 3 && e.outputTokens === null ? '—' : usd(v, k === 3 ? outputExact(e) : x)))
        : ['—', '—', '—', '—', e.apiError ? 'API error' : NO_PRICE],
      cause: e.apiError ? REJECTED : b ? causeName(b.cause, e) : '—',
      events: breakEvents(e, typeOf),
      lost: b?.tokensLost ? `${formatTokens(b.tokensLost, x)}${b.lostCostUsd === null ? '' : ` (${usd(b.lostCostUsd, x)})`}` : '',
    };
  });
}

export interface Bar {
  offset: number;
  y: number;
  cachedWidth: number;
  newWidth: number;
  label: string;
}

/** Horizontal stacked bars (cached, then new tokens) per request, in SVG user units. */
export function chartBars(econ: ScenarioEconomics, width: number, rowHeight: number): { bars: Bar[]; height: number } {
  const max = Math.max(1, ...econ.requests.map((e) => e.inputTokens));
  const bars = econ.requests.map((e, i) => ({
    offset: e.offset,
    y: i * rowHeight,
    cachedWidth: Math.round((e.cachedTokens / max) * width * 10) / 10,
    newWidth: Math.round((e.uncachedTokens / max) * width * 10) / 10,
    label: `@${e.offset}: ${formatTokens(e.cachedTokens, e.exact)} cached, ${formatTokens(e.uncachedTokens, e.exact)} new`,
  }));
  return { bars, height: econ.requests.length * rowHeight };
}

/**
 * An index card's figures for a scenario whose every request carries the provider's usage: the
 * billed input tokens and the share read from the cache (or that the bill does not report cache
 * reads), with `why` (uncachedWhy: the model's reason) only when the bill, too, reads nothing.
 */
export function billedCardText(billed: { inputTokens: number; cachedTokenShare: number | null }, why: string | null): string {
  const share = billed.cachedTokenShare === null ? 'cache reads not reported' : `${formatShare(billed.cachedTokenShare)} cached`;
  return `billed: ${formatTokens(billed.inputTokens)} input tokens · ${share}${billed.cachedTokenShare === 0 && why ? ` — ${why}` : ''}`;
}

/**
 * Why a scenario's own requests read nothing from the cache, in the index badge's words: only first
 * requests, every prompt below its profile's minimum, the requests asking for no caching or the
 * capture recording no cache marker (every later request's cause), or every later request lost what
 * the one before it cached. Null when something is read (or there are no requests).
 */
export function uncachedWhy(econ: Pick<ScenarioEconomics, 'requests'> | undefined): string | null {
  const own = econ?.requests ?? [];
  if (!own.length || own.some((e) => e.cachedTokens > 0)) return null;
  if (own.every((e) => e.previous === null)) return own.length === 1 ? 'a first request: nothing to read yet' : 'first requests only: nothing to read yet';
  if (own.every((e) => e.inputTokens < e.minPrefixTokens)) {
    const mins = [...new Set(own.map((e) => e.minPrefixTokens))];
    return `below the ${mins.length === 1 ? formatTokens(mins[0]!) : 'provider’s'}-token minimum`;
  }
  const later = own.filter((e) => e.previous !== null).map((e) => e.cacheBreak?.cause);
  if (later.every((c) => c === 'markers-unrecorded')) return CAUSE_NAME['markers-unrecorded'](own[0]!);
  if (later.every((c) => c === 'not-asked' || c === 'previous-not-asked')) return 'the requests ask for no caching';
  return 'each request changed what the one before it cached';
}
