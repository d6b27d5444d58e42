/**
 * The page model of a scenario: its timeline (one card per event of the chain) and, per event, the
 * pane — the printed request as of that event, each line with its diff status (added / changed /
 * removed lines), its provenance (the event offsets it came from), the ✂ cache cut and the
 * annotations anchored on it. Plain data: the components only render it.
 *
 * What a pane diffs against depends on what it shows: a request against the previous REQUEST of its
 * chain (the reviewer's question: what does the model see now that it did not see last time — a
 * rewrite between two sends shows up as changed lines), a state pane against the previous event.
 */
import { lineChanges, wordParts, type WordPart } from './diff.ts';
import type { PrintedLine } from './print.ts';
import type { RenderedRequest, RenderedScenario } from './render.ts';
import type { Anchor } from './weave.ts';
import { printedBreakpoints } from './breakpoints.ts';
import { defaultPreview } from '../folds/hooks.ts';
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
  /**
   * The first printed line of this line's message: one object for every line of that message, the
   * same in every pane that prints the message unchanged (print.ts keeps a message's printed lines).
   * Highlighting keys its cache on it instead of on the message's text (render/highlight.ts).
   */
  group: PrintedLine;
  status: LineStatus;
  /** A `changed` line's text in the pane it is compared with. */
  old?: string;
  /** A `changed` line as words: what stayed, what went, what came (diff.ts wordParts). */
  words?: WordPart[];
  /** Lines of the previous pane removed right before this line. */
  removedBefore: string[];
  cutAbove: boolean;
  notes: PaneNote[];
  /** On an abridgement's stand-in line: the full text it stands in for. */
  abridges?: string;
  /** Labels of the request's cache breakpoints right under this line (prompt/breakpoints.ts), in order. */
  breakpoints?: string[];
}

export interface Pane {
  offset: number;
  kind: 'request' | 'state' | 'rejected';
  lines: PaneLine[];
  /** Lines of the previous pane removed after the last line. */
  removedAtEnd: string[];
  /** The request the cut compares with. */
  previous?: number | null;
  /**
   * What the line statuses compare with: the previous request (request panes), the previous event
   * (state panes), or nothing (the first request of a chain, the first event).
   */
  diffBase: { kind: 'request' | 'event'; offset: number } | null;
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
  /** The event the page opens on: the scenario's `opens:`, else its first request with a ✂ line, else its first request. */
  opens: number;
  /** Mean share of each own request (after the first of the chain) that was a cached prefix. */
  cachedShare: number | null;
}

/** A fold option's value as the page writes it: a string as it is, anything else — and the empty string, which would read as nothing — as JSON. */
export const optionText = (v: unknown): string => (typeof v === 'string' && v !== '' ? v : JSON.stringify(v));

/** `⇪ deploy: metadataLines=synthesized-only` — what a `deploy:` changes, on the card it lands at. */
function deployBadge(s: RenderedScenario['scenario']): string | undefined {
  const d = s.deploy;
  if (!d) return undefined;
  const what = [...(d.fold !== s.fold ? [`fold=${d.fold}`] : []), ...Object.entries(d.options).map(([k, v]) => `${k}=${optionText(v)}`)];
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

interface PaneDiff {
  status: LineStatus[];
  old: (string | undefined)[];
  removedBefore: string[][];
  removedAtEnd: string[];
}

/**
 * The empty list every line without removed lines or notes shares: a page model holds every line of
 * every event's pane (hundreds of thousands in a large corpus), and an empty array of its own per
 * line and field was a good part of a build's allocation. Frozen: nothing may add to it.
 */
const NONE = Object.freeze([]) as unknown as never[];

/**
 * Line statuses of `lines` against `prev`: a run of removed lines followed by added ones pairs up as
 * changed lines (each keeping its old text); the rest are added or removed. `skipHeader`: a send
 * adds the `model:` header to the state before it — not a change of the prompt when a pane is
 * compared with the previous event; between two requests a model switch is a real change.
 */
export function diffPane(lines: readonly PrintedLine[], prev: readonly PrintedLine[] | null, skipHeader: boolean): PaneDiff {
  const status: LineStatus[] = new Array<LineStatus>(lines.length).fill('same');
  const old: (string | undefined)[] = new Array<string | undefined>(lines.length).fill(undefined);
  // Most lines have nothing removed before them: they share one empty list (see NONE).
  const removedBefore: string[][] = new Array<string[]>(lines.length).fill(NONE);
  if (!prev) return { status, old, removedBefore, removedAtEnd: [] };
  const header = (ls: readonly PrintedLine[]): number => (skipHeader && ls[0]?.text.startsWith('model: ') ? 1 : 0);
  let i = header(lines);
  let pendingRemoved: string[] = [];
  for (const change of lineChanges(
    prev.slice(header(prev)).map((l) => l.text),
    lines.slice(i).map((l) => l.text),
  )) {
    if (change.removed) {
      pendingRemoved = change.value;
      continue;
    }
    if (change.added) {
      change.value.forEach((_, k) => {
        if (k < pendingRemoved.length) {
          status[i + k] = 'changed';
          old[i + k] = pendingRemoved[k];
        } else status[i + k] = 'added';
      });
      if (pendingRemoved.length > change.value.length) removedBefore[i] = pendingRemoved.slice(change.value.length);
    } else if (pendingRemoved.length) {
      removedBefore[i] = pendingRemoved;
    }
    pendingRemoved = [];
    i += change.count ?? change.value.length;
  }
  return { status, old, removedBefore, removedAtEnd: pendingRemoved };
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

/** The event a scenario's page selects first (see ScenarioView.opens). */
export function opensOn(r: RenderedScenario, cards: readonly Card[]): number {
  if (r.scenario.opens !== undefined) return r.scenario.opens;
  const q = r.requests.find((x) => x.cut !== null) ?? r.requests[0];
  return q?.offset ?? cards.find((c) => !c.shared)?.offset ?? cards[0]!.offset;
}

/**
 * The pane line of a printed line that is nothing but its text and status — no old text, nothing
 * removed before it, no cut, note, abridgement or breakpoint: most lines of most panes. One frozen
 * object per printed line and status, shared by every pane that shows the line so (print.ts keeps
 * a message's printed lines across a scenario's snapshots): a corpus prints a line in dozens of
 * panes, and one object per line of every pane was most of what outlived the build's young
 * garbage collections (148 MB at N = 100).
 */
const plainLines = new WeakMap<PrintedLine, Partial<Record<LineStatus, PaneLine>>>();

function plainLine(l: PrintedLine, group: PrintedLine, status: LineStatus): PaneLine {
  let byStatus = plainLines.get(l);
  const hit = byStatus?.[status];
  if (hit && hit.group === group) return hit;
  const line: PaneLine = Object.freeze({ text: l.text, from: l.from, message: l.message, group, status, removedBefore: NONE, cutAbove: false, notes: NONE });
  if (!byStatus) plainLines.set(l, (byStatus = {}));
  byStatus[status] = line;
  return line;
}

export function scenarioView(r: RenderedScenario): ScenarioView {
  const s = r.scenario;
  const own = new Set(s.events.map((e) => e.offset));
  const panes: Pane[] = [];
  let prevLines: PrintedLine[] | null = null;
  let prevOffset: number | null = null;
  const requestLines = new Map<number, PrintedLine[]>();
  for (const ev of r.events) {
    const previousRequest = ev.request?.previous ?? null;
    const against = ev.request ? (previousRequest !== null ? (requestLines.get(previousRequest) ?? null) : null) : prevLines;
    const { status, old, removedBefore, removedAtEnd } = diffPane(ev.lines, against, !ev.request);
    const diffBase: Pane['diffBase'] = ev.request
      ? previousRequest !== null && against
        ? { kind: 'request', offset: previousRequest }
        : null
      : prevOffset !== null
        ? { kind: 'event', offset: prevOffset }
        : null;
    const anchors = new Map<number, Anchor[]>();
    for (const a of ev.request?.anchors ?? []) anchors.set(a.line, [...(anchors.get(a.line) ?? []), a]);
    const cut = ev.request?.cut ?? null;
    const marks = new Map<number, string[]>();
    let group: PrintedLine = ev.lines[0]!;
    if (ev.request) for (const b of printedBreakpoints(ev.lines, ev.request.messages, ev.request.breakpoints)) marks.set(b.after, [...(marks.get(b.after) ?? []), b.label]);
    const pane: Pane = {
      offset: ev.offset,
      kind: ev.request ? 'request' : ev.rejected ? 'rejected' : 'state',
      // One object per line of every pane, so written without spreads (the same fields, in the same order).
      lines: ev.lines.map((l, i) => {
        if (i === 0 || ev.lines[i - 1]!.message !== l.message) group = l;
        const was = old[i];
        const notes = anchors.get(i);
        const bp = marks.get(i);
        const plain = was === undefined && removedBefore[i] === NONE && cut !== i && !notes && l.abridges === undefined && !bp;
        if (plain) return plainLine(l, group, status[i]!);
        const line = { text: l.text, from: l.from, message: l.message, group, status: status[i]! } as PaneLine;
        if (was !== undefined) {
          line.old = was;
          line.words = wordParts(was, l.text);
        }
        line.removedBefore = removedBefore[i]!;
        line.cutAbove = cut === i;
        line.notes = notes ? notes.map((a) => ({ comment: a.annotation.comment, start: a.start, end: a.end })) : NONE;
        if (l.abridges !== undefined) line.abridges = l.abridges;
        if (bp) line.breakpoints = bp;
        return line;
      }),
      removedAtEnd,
      diffBase,
      ...(ev.rejected && { rejected: ev.rejected }),
    };
    if (ev.request) {
      pane.previous = ev.request.previous;
    }
    panes.push(pane);
    if (ev.request) requestLines.set(ev.offset, ev.lines);
    prevLines = ev.lines;
    prevOffset = ev.offset;
  }
  const byOffset = new Map(panes.map((p) => [p.offset, p]));
  // Described by the pipeline (render.ts), with the fold's describe hook or its default.
  const described = r.described ?? s.chain.map((e) => ({ preview: defaultPreview(e.type, e.payload), badges: [], links: [] }));
  const cards: Card[] = s.chain.map((e, i) => {
    const pane = byOffset.get(e.offset);
    const d = described[i]!;
    const isRequest = r.fold.requestTypes.includes(e.type);
    return {
      offset: e.offset,
      type: e.type,
      t: e.t,
      elapsed: formatElapsed(e.elapsedMs),
      badges: badges(e, d, e.offset === s.deploy?.at ? deployBadge(s) : undefined),
      preview: d.preview,
      source: e.source,
      shared: !own.has(e.offset),
      ...(e.note !== undefined && { note: e.note }),
      ...(e.batch && { batch: { first: e.batch.first, size: e.batch.size, index: e.batch.index } }),
      ...(isRequest && { request: pane?.kind === 'request' ? 'accepted' : 'rejected' }),
    } satisfies Card;
  });
  return {
    id: s.id,
    title: s.title,
    intro: s.intro,
    file: s.file,
    fold: r.fold.id,
    foldTitle: r.fold.title,
    options: r.options,
    ...(s.base !== undefined && { base: s.base }),
    cards,
    panes,
    requests: r.requests.map((q) => q.offset),
    opens: opensOn(r, cards),
    cachedShare: cachedShare(r),
  };
}
