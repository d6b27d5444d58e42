/**
 * The page model of a scenario: its timeline (one card per event of the chain) and, per event, the
 * pane — the printed request as of that event, each line with its diff status against the previous
 * event's pane (added / changed / removed lines), its provenance (the event offsets it came from),
 * the ✂ cache cut and the annotations anchored on it. Plain data: the components only render it.
 */
import { diffArrays } from 'diff';
import type { PrintedLine } from './print.ts';
import type { RenderedRequest, RenderedScenario } from './render.ts';
import type { Anchor } from './weave.ts';
import { describeEvents } from '../folds/hooks.ts';
import type { EventDescription } from '../folds/types.ts';
import { formatElapsed } from '../scenarios/time.ts';

export type LineStatus = 'same' | 'added' | 'changed';

export interface PaneNote {
  comment: string;
  /** Character range of the anchored text in the line. */
  start: number;
  end: number;
}

export interface PaneLine {
  text: string;
  from: number[];
  message: number;
  status: LineStatus;
  /** Lines of the previous pane removed right before this line. */
  removedBefore: string[];
  cutAbove: boolean;
  notes: PaneNote[];
}

export interface Pane {
  offset: number;
  kind: 'request' | 'state' | 'rejected';
  lines: PaneLine[];
  /** Lines of the previous pane removed after the last line. */
  removedAtEnd: string[];
  /** Share of the request's characters above the ✂ line (requests after the first only). */
  cached?: number;
  /** The request the cut compares with. */
  previous?: number | null;
  rejected?: string;
}

export interface Card {
  offset: number;
  type: string;
  t: string;
  elapsed: string;
  badges: string[];
  preview: string;
  note?: string;
  source: string;
  /** The event belongs to a base scenario (the "shared start"). */
  shared: boolean;
  /** Set when the event came from a `sections:` batch. */
  batch?: { first: number; size: number; index: number };
  request?: 'accepted' | 'rejected';
}

export interface ScenarioView {
  id: string;
  title: string;
  intro: string;
  file: string;
  fold: string;
  foldTitle: string;
  base?: string;
  options: Record<string, unknown>;
  cards: Card[];
  /** One pane per card, same order. */
  panes: Pane[];
  /** Own accepted request offsets. */
  requests: number[];
  /** Mean share of each own request (after the first of the chain) that was a cached prefix. */
  cachedShare: number | null;
}

/** `⇪ deploy: metadataLines=synthesized-only` — what a `deploy:` changes, on the card it lands at. */
function deployBadge(s: RenderedScenario['scenario']): string | undefined {
  const d = s.deploy;
  if (!d) return undefined;
  const what = [...(d.fold !== s.fold ? [`fold=${d.fold}`] : []), ...Object.entries(d.options).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)];
  return `⇪ deploy: ${what.join(', ') || 'same rule'}`;
}

/** Card badges: the fold's own, then the batch's, then what the event points at. */
function badges(e: RenderedScenario['scenario']['chain'][number], d: Required<EventDescription>, deploy: string | undefined): string[] {
  const out = [...d.badges];
  if (deploy) out.push(deploy);
  if (e.batch && e.batch.index === 0) out.push(`×${e.batch.size} events, one batch`);
  for (const l of d.links) out.push(`${l.label} @${l.offset}`);
  return out;
}

function diffPane(lines: PrintedLine[], prev: PrintedLine[] | null): { status: LineStatus[]; removedBefore: string[][]; removedAtEnd: string[] } {
  const status: LineStatus[] = lines.map(() => 'same');
  const removedBefore: string[][] = lines.map(() => []);
  if (!prev) return { status, removedBefore, removedAtEnd: [] };
  // A send adds the `model:` header to the state before it: that is not a change of the prompt.
  const header = (ls: PrintedLine[]): number => (ls[0]?.text.startsWith('model: ') ? 1 : 0);
  let i = header(lines);
  let pendingRemoved: string[] = [];
  for (const change of diffArrays(prev.slice(header(prev)).map((l) => l.text), lines.slice(i).map((l) => l.text))) {
    if (change.removed) {
      pendingRemoved = change.value;
      continue;
    }
    if (change.added) {
      change.value.forEach((_, k) => (status[i + k] = k < pendingRemoved.length ? 'changed' : 'added'));
      if (pendingRemoved.length > change.value.length) removedBefore[i] = pendingRemoved.slice(change.value.length);
    } else if (pendingRemoved.length) {
      removedBefore[i] = pendingRemoved;
    }
    pendingRemoved = [];
    i += change.count ?? change.value.length;
  }
  return { status, removedBefore, removedAtEnd: pendingRemoved };
}

const charsOf = (lines: PrintedLine[]): number => lines.reduce((n, l) => n + l.text.length + 1, 0);

/** Share of a request's characters above its ✂ line; undefined for the first request of a chain. */
function requestCached(q: RenderedRequest): number | undefined {
  if (q.cut !== null) return charsOf(q.lines.slice(0, q.cut)) / charsOf(q.lines);
  return q.previous !== null ? 1 : undefined;
}

/**
 * Mean cached-prefix share of a scenario's own requests (after the first of the chain) — the
 * listing's number, without building the page model (its panes are what is big).
 */
export function cachedShare(r: RenderedScenario): number | null {
  const shares = r.requests.map(requestCached).filter((x): x is number => x !== undefined);
  return shares.length ? shares.reduce((a, b) => a + b, 0) / shares.length : null;
}

export function scenarioView(r: RenderedScenario): ScenarioView {
  const s = r.scenario;
  const own = new Set(s.events.map((e) => e.offset));
  const panes: Pane[] = [];
  let prevLines: PrintedLine[] | null = null;
  for (const ev of r.events) {
    const { status, removedBefore, removedAtEnd } = diffPane(ev.lines, prevLines);
    const anchors = new Map<number, Anchor[]>();
    for (const a of ev.request?.anchors ?? []) anchors.set(a.line, [...(anchors.get(a.line) ?? []), a]);
    const cut = ev.request?.cut ?? null;
    const pane: Pane = {
      offset: ev.offset,
      kind: ev.request ? 'request' : ev.rejected ? 'rejected' : 'state',
      lines: ev.lines.map((l, i) => ({
        text: l.text, from: l.from, message: l.message, status: status[i]!, removedBefore: removedBefore[i]!, cutAbove: cut === i,
        notes: (anchors.get(i) ?? []).map((a) => ({ comment: a.annotation.comment, start: a.start, end: a.end })),
      })),
      removedAtEnd,
      ...(ev.rejected && { rejected: ev.rejected }),
    };
    if (ev.request) {
      pane.previous = ev.request.previous;
      const cached = requestCached(ev.request);
      if (cached !== undefined) pane.cached = cached;
    }
    panes.push(pane);
    prevLines = ev.lines;
  }
  const byOffset = new Map(panes.map((p) => [p.offset, p]));
  const described = describeEvents(r.fold, s.chain, r.options);
  const cards: Card[] = s.chain.map((e, i) => {
    const pane = byOffset.get(e.offset);
    const d = described[i]!;
    const isRequest = r.fold.requestTypes.includes(e.type);
    return {
      offset: e.offset, type: e.type, t: e.t, elapsed: formatElapsed(e.elapsedMs), badges: badges(e, d, e.offset === s.deploy?.at ? deployBadge(s) : undefined),
      preview: d.preview, source: e.source, shared: !own.has(e.offset),
      ...(e.note !== undefined && { note: e.note }),
      ...(e.batch && { batch: { first: e.batch.first, size: e.batch.size, index: e.batch.index } }),
      ...(isRequest && { request: pane?.kind === 'request' ? 'accepted' : 'rejected' }),
    } satisfies Card;
  });
  return {
    id: s.id, title: s.title, intro: s.intro, file: s.file, fold: r.fold.id, foldTitle: r.fold.title, options: r.options,
    ...(s.base !== undefined && { base: s.base }),
    cards, panes, requests: r.requests.map((q) => q.offset),
    cachedShare: cachedShare(r),
  };
}
