/**
 * Panes rendered in the browser, on demand. A scenario page renders its own requests in full (they
 * must read without JavaScript); the state as of every other event is sent as compact data — each
 * distinct highlighted line once, and per pane its line ids and provenance written against the
 * pane before it (the format: pane-codec.ts) — and the page script builds a pane when its event is
 * selected. Without this, every page repeated the
 * whole prompt once per event (megabytes per page at realistic prompt sizes). A line the page
 * already shows in a full pane is sent as a reference to it, not a second time.
 *
 * The panes of a long page come in several data parts (scenario-data.ts): a part may continue the
 * one before it (`Encoder`, passed from one part to the next) — its tables go on from that part's
 * (PaneData.start) and its first pane is written against that part's last — so it holds only what
 * its panes add, and the page rebuilds it on top of the part before (client/page-data.ts).
 */
import type { Pane, PaneLine } from '../prompt/view.ts';
import { highlightLines } from './highlight.ts';
import type { RequestEconomics } from '../economics/compute.ts';
import { cutNote, paneTokens } from '../economics/view.ts';
import { cacheBadge } from './cache-badge.ts';
import { wordDiffHtml } from './word-diff-html.ts';
import { toolReadable } from './tool-readable.ts';
import { marksRle, splice, type EncodedPane, type PaneData } from './pane-codec.ts';
import type { PaneFinding } from './pane-markup.ts';

export type { PaneData } from './pane-codec.ts';

/** Distinct strings, each with its id (its index). */
class Table {
  readonly items: string[] = [];
  private readonly ids = new Map<string, number>();
  id(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) this.ids.set(s, (id = this.items.push(s) - 1));
    return id;
  }
}

/** What a part's encoding leaves for the next part to continue: the tables so far and the last pane's lists. */
export interface Encoder {
  html: Table;
  text: Table;
  from: Table;
  fromIds: Map<readonly number[], number>;
  prev: { offset: number; ids: number[]; from: number[]; tools: number[] } | undefined;
  /** Characters of the table entries from before the last call that its panes name: what that part, written alone, would hold besides its own (scenario-data.ts). */
  reused: number;
}

/** An encoder with nothing written yet: the first part of a chain. */
export const newEncoder = (): Encoder => ({ html: new Table(), text: new Table(), from: new Table(), fromIds: new Map(), prev: undefined, reused: 0 });

/** The unmarked lines the full panes of a page show, by highlighted HTML: [pane offset, line index]. */
export type ShownLines = Map<string, [number, number]>;

/**
 * The lines of `inPage` (the panes a page renders in full) that data may refer to instead of
 * repeating them — made once for a page whose data is in several parts (scenario-data.ts).
 */
export async function shownLines(inPage: readonly Pane[]): Promise<ShownLines> {
  const shown: ShownLines = new Map();
  for (const p of inPage) {
    const highlighted = await highlightLines(
      p.lines.map((l) => l.text),
      p.lines.map((l) => l.message),
      [],
      p.lines.map((l) => l.group),
    );
    highlighted.forEach((h, i) => {
      if (!p.lines[i]!.notes.length && !shown.has(h)) shown.set(h, [p.offset, i]);
    });
  }
  return shown;
}

/**
 * Encodes `panes`; `inPage` (or the lines they show, shownLines) are the panes the page renders in full (Pane.astro, id `pane-<offset>`),
 * whose unmarked lines the data refers to instead of repeating them. With `encoder` (what encoding
 * the part before left, see Encoder) the data continues that part's: only the table entries it adds
 * are written, from `start` (absent when nothing came before); `encoder` is updated for the next part either way.
 */
export async function encodePanes(
  panes: readonly Pane[],
  inPage: readonly Pane[] | ShownLines = [],
  economics?: {
    byOffset: Map<number, RequestEconomics>;
    typeOf: (offset: number) => string;
    /** What the provider billed, by request (its pane's billed line). */
    billed?: Map<number, { text: string; title: string }>;
    /** The request linter's findings, by request. */
    lint?: Map<number, PaneFinding[]>;
    /** A request's provider wire views (render/wire-markup.ts) written for the id WIRE_ID_SLOT (pane-codec.ts), for the own requests that have them. */
    wireHtml?: (offset: number) => string | undefined;
  },
  encoder?: Encoder,
): Promise<PaneData> {
  const shown = inPage instanceof Map ? inPage : await shownLines(inPage);
  const state = encoder ?? newEncoder();
  const { html, text, from, fromIds } = state;
  const start: [number, number, number] = [html.items.length, text.items.length, from.items.length];
  const continues = start.some((n) => n > 0) || state.prev !== undefined;
  // The entries from before this call that its panes name (each once), for `reused`.
  const named = [new Set<number>(), new Set<number>(), new Set<number>()] as const;
  const tables = [html, text, from] as const;
  const take = (t: 0 | 1 | 2, id: number): number => {
    if (id < start[t]) named[t].add(id);
    return id;
  };
  const hid = (s: string): number => take(0, html.id(s));
  const tid = (s: string): number => take(1, text.id(s));
  // A line's provenance list is one array for that line in every pane that prints its message
  // unchanged (print.ts): its id is found by the array before its text is joined and hashed again.
  const fromId = (f: readonly number[]): number => {
    let id = fromIds.get(f);
    if (id === undefined) fromIds.set(f, (id = from.id(f.join(' '))));
    return take(2, id);
  };
  const out: Record<number, EncodedPane> = {};
  let prev = state.prev;
  for (const p of panes) {
    // One pass over the lines (a page's data walks every line of every event's pane): what the
    // highlighter and the tables need, and the few lines that carry anything more. The tables'
    // ids are then taken in the order the format has always taken them (abridged, tools, lines,
    // provenance, removed, old, breakpoints), so the same page gives the same bytes.
    const lines = p.lines;
    const n = lines.length;
    const texts = new Array<string>(n);
    const messages = new Array<number>(n);
    const groups = new Array<PaneLine['group']>(n);
    const froms = new Array<number>(n);
    let status = '';
    let cut = -1;
    let withBreakpoints = false;
    /** Line indexes of the lines that carry an abridged text, removed lines, an old text or breakpoints. */
    const marked: number[] = [];
    for (let i = 0; i < n; i++) {
      const l = lines[i]!;
      texts[i] = l.text;
      messages[i] = l.message;
      groups[i] = l.group;
      froms[i] = fromId(l.from);
      status += l.status === 'added' ? '+' : l.status === 'changed' ? '~' : '.';
      if (cut < 0 && l.cutAbove) cut = i;
      if (l.breakpoints) withBreakpoints = true;
      if (l.abridges !== undefined || l.removedBefore.length || l.old !== undefined || l.breakpoints?.length) marked.push(i);
    }
    const highlighted = await highlightLines(texts, messages, [], groups);
    const abridged: number[][] = [];
    for (const i of marked) if (lines[i]!.abridges !== undefined) abridged.push([i, tid(lines[i]!.abridges!)]);
    const tools: number[] = [];
    for (const [i, h] of toolReadable(texts)) tools.push(i, hid(h));
    const econ = p.kind === 'request' ? economics?.byOffset.get(p.offset) : undefined;
    const ids = new Array<number>(n);
    for (let i = 0; i < n; i++) ids[i] = hid(highlighted[i]!);
    const removed: number[][] = [];
    for (const i of marked) if (lines[i]!.removedBefore.length) removed.push([i, ...lines[i]!.removedBefore.map((r) => tid(r))]);
    const removedAtEnd = p.removedAtEnd.map((r) => tid(r));
    const old: number[] = [];
    for (const i of marked) {
      const l = lines[i]!;
      if (l.old !== undefined) old.push(i, hid(wordDiffHtml(l.words ?? [{ op: '-', text: l.old }])));
    }
    const bp: number[] = [];
    if (withBreakpoints) for (const i of marked) for (const b of lines[i]!.breakpoints ?? []) bp.push(i, tid(b));
    out[p.offset] = {
      kind: p.kind,
      ...(prev && { prev: prev.offset }),
      lines: splice(prev?.ids ?? [], ids, true),
      from: splice(prev?.from ?? [], froms, false),
      status: marksRle(status),
      removed,
      removedAtEnd,
      ...(abridged.length > 0 && { abridged }),
      ...((tools.length > 0 || (prev?.tools.length ?? 0) > 0) && { tools: splice(prev?.tools ?? [], tools, false) }),
      old,
      ...(withBreakpoints && { bp }),
      ...(p.diffBase && { base: p.diffBase }),
      ...(cut >= 0 && { cut }),
      ...(p.rejected && { rejected: p.rejected }),
      ...(econ && { econ: { ...paneTokens(econ), cached: cacheBadge(econ), ...(cut >= 0 && { note: cutNote(econ, economics!.typeOf) }) } }),
      // The same views and warnings as a pane the page prints (Pane.astro): the bill, the linter's findings, the wire views.
      ...(p.kind === 'request' && economics?.billed?.has(p.offset) && { billed: economics.billed.get(p.offset)! }),
      ...(p.kind === 'request' && economics?.lint?.get(p.offset)?.length && { lint: economics.lint.get(p.offset)! }),
      ...(p.kind === 'request' && economics?.wireHtml?.(p.offset) !== undefined && { wire: tid(economics.wireHtml(p.offset)!) }),
    };
    prev = { offset: p.offset, ids, from: froms, tools };
  }
  state.prev = prev;
  state.reused = named.reduce((n, ids, t) => {
    for (const id of ids) n += (t === 0 && shown.has(tables[t]!.items[id]!) ? 12 : tables[t]!.items[id]!.length) + 3;
    return n;
  }, 0);
  return {
    html: html.items.slice(start[0]).map((h) => shown.get(h) ?? h),
    text: text.items.slice(start[1]),
    from: from.items.slice(start[2]),
    panes: out,
    ...(continues && { start }),
  };
}
