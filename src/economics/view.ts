/**
 * What the pages say about a request's cache economics, as plain strings and links: the pane
 * header's token figures, the note under the ✂ line (tokens above it; when the cache broke, the
 * cause and the event that did it; an expired prefix marked as such), and the per-scenario panel's
 * rows and bar chart geometry. Browser-safe and free of the tokenizer (types only), so the page
 * script can show the same words for panes it builds.
 */
import type { Cause, RequestEconomics, ScenarioEconomics } from './compute.ts';
import { formatShare, formatTokens, formatUsd, NO_PRICE } from './format.ts';

export interface PaneTokens {
  /** `cached 0 · new 663 · 663 tokens · $0.00237` */
  text: string;
  /** Profile and how to read the figures. */
  title: string;
}

export interface CutNote {
  /** `501 tokens above this line` */
  above: string;
  /** Sentence on the cause; absent when the previous request stays cached. */
  cause?: string;
  /** Events responsible, with the label of their link. */
  events: { offset: number; label: string }[];
  /** `−661 tokens no longer cached` */
  lost?: string;
  kind: Cause | 'kept';
  /** Nothing was read from the cache although text above the line is byte-stable (expired, below the minimum, or what stayed is too short to cache). */
  uncached?: true;
}

const CAUSE_TEXT: Record<Cause, (e: RequestEconomics) => string> = {
  'first-request': () => 'first request of the chain: nothing cached yet',
  'below-minimum': (e) => `not cached: the prefix is below the profile’s ${formatTokens(e.minPrefixTokens)}-token minimum`,
  expired: (e) => `expired: byte-stable, but the provider would have evicted it (idle ${Math.round((e.idleMs ?? 0) / 60_000)} min, retention ${e.retentionMinutes} min)`,
  'model-changed': () => 'cache broke: the model changed',
  'system-changed': () => 'cache broke: a system message above the end of the previous request changed',
  'earlier-message-changed': () => 'cache broke: an earlier message was rewritten, removed or reordered',
};

export const causeText = (e: RequestEconomics): string => (e.cacheBreak ? CAUSE_TEXT[e.cacheBreak.cause](e) : 'the whole previous request stays cached');

export function paneTokens(e: RequestEconomics): PaneTokens {
  const x = e.exact;
  const cost = e.costUsd === null ? NO_PRICE : formatUsd(e.costUsd);
  return {
    text: `cached ${formatTokens(e.cachedTokens, x)} · new ${formatTokens(e.uncachedTokens, x)} · ${formatTokens(e.inputTokens, x)} tokens · ${cost}`,
    title: `Input tokens under profile ${e.profile} (${e.profileTitle})${x ? '' : '; ≈ approximate counts'}${e.cacheWriteTokens ? `; ${formatTokens(e.cacheWriteTokens, x)} of the new tokens are cache writes` : ''}${e.outputTokens !== null ? `; output ${formatTokens(e.outputTokens, x)} tokens` : ''}`,
  };
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
  if (!b || b.cause === 'first-request') return note;
  note.cause = causeText(e);
  note.events = b.events.map((o) => ({ offset: o, label: `@${o} ${typeOf(o)}`.trim() }));
  if (b.tokensLost) note.lost = `${formatTokens(b.tokensLost, x)} tokens of the previous request not cached`;
  return note;
}

export interface PanelRow {
  offset: number;
  input: string;
  cached: string;
  uncached: string;
  share: string;
  cost: string;
  cause: string;
  events: { offset: number; label: string }[];
}

export function panelRows(econ: ScenarioEconomics, typeOf: (offset: number) => string): PanelRow[] {
  return econ.requests.map((e) => ({
    offset: e.offset,
    input: formatTokens(e.inputTokens, e.exact),
    cached: formatTokens(e.cachedTokens, e.exact),
    uncached: formatTokens(e.uncachedTokens, e.exact),
    share: formatShare(e.inputTokens ? e.cachedTokens / e.inputTokens : null),
    cost: e.costUsd === null ? NO_PRICE : formatUsd(e.costUsd),
    cause: e.cacheBreak?.cause ?? '—',
    events: (e.cacheBreak?.events ?? []).map((o) => ({ offset: o, label: `@${o} ${typeOf(o)}`.trim() })),
  }));
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
