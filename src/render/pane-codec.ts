/**
 * The compact format of the panes a scenario page builds in the browser (pane-data.ts writes it
 * at build time, scenario-page.ts reads it): both halves here, so they cannot drift apart. Pure
 * and browser-safe.
 *
 * A page sends the state as of every event, and consecutive states are nearly the same prompt: so
 * each pane's line ids and provenance ids are written against the pane before it (`prev`) — the
 * lines both share at the start and at the end are counts, and only the middle is listed,
 * run-length encoded — and its change marks are one run-length string. Without this the lists
 * grew with events × prompt lines: a tenth of a long scenario's page.
 */

import type { CutNote, PaneTokens } from '../economics/view.ts';
import type { CacheBadge } from './cache-badge.ts';
import type { Pane } from '../prompt/view.ts';
import type { PaneFinding } from './pane-markup.ts';

/** A list against the previous pane's: [same-prefix count, same-suffix count, …middle runs]. */
export type Spliced = number[];

/** Flat [value, count, …] runs; `consecutive`: a run is value, value+1, … (line ids), else repeats. */
export function runs(values: readonly number[], consecutive: boolean): number[] {
  const out: number[] = [];
  for (const v of values) {
    const n = out.length;
    if (n && out[n - 2]! + (consecutive ? out[n - 1]! : 0) === v) out[n - 1]!++;
    else out.push(v, 1);
  }
  return out;
}

export function expand(rle: readonly number[], consecutive: boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < rle.length; i += 2) for (let k = 0; k < rle[i + 1]!; k++) out.push(rle[i]! + (consecutive ? k : 0));
  return out;
}

/** `next` written against `prev` (see Spliced). */
export function splice(prev: readonly number[], next: readonly number[], consecutive: boolean): Spliced {
  const max = Math.min(prev.length, next.length);
  let p = 0;
  while (p < max && prev[p] === next[p]) p++;
  let s = 0;
  while (s < max - p && prev[prev.length - 1 - s] === next[next.length - 1 - s]) s++;
  return [p, s, ...runs(next.slice(p, next.length - s), consecutive)];
}

export function unsplice(prev: readonly number[], enc: Spliced, consecutive: boolean): number[] {
  const [p, s] = enc as [number, number];
  return [...prev.slice(0, p), ...expand(enc.slice(2), consecutive), ...prev.slice(prev.length - s)];
}

export type Mark = '.' | '+' | '~';

/** Change marks ('.' same, '+' added, '~' changed) as runs: ".120+3~.40" (a count of 1 is left out). */
export function marksRle(marks: string): string {
  return marks.replace(/([.+~])\1*/g, (run, c: string) => (run.length === 1 ? c : `${c}${run.length}`));
}

export function marksOf(rle: string): Mark[] {
  const out: Mark[] = [];
  for (const m of rle.matchAll(/([.+~])(\d*)/g)) for (let k = Number(m[2] || 1); k > 0; k--) out.push(m[1] as Mark);
  return out;
}

/** One pane, encoded. Run-length lists are flat [value, count, value, count, …]. */
export interface EncodedPane {
  kind: Pane['kind'];
  /** The pane its lists are written against (absent: the first pane of the data). */
  prev?: number;
  /** Line ids into PaneData.html, against the previous pane's (consecutive-id runs in the middle). */
  lines: Spliced;
  /** Provenance ids into PaneData.from, against the previous pane's. */
  from: Spliced;
  /** Change marks of the lines, run-length encoded (marksRle). */
  status: string;
  /** [lineIndex, textId, textId, …] for lines removed right before a line. */
  removed: number[][];
  removedAtEnd: number[];
  /** [lineIndex, textId] for abridgement stand-in lines: the full text they expand to. */
  abridged?: number[][];
  /** Flat [lineIndex, htmlId, …]: each changed line's changed words (word-diff-html.ts markup, in the html table). */
  old: number[];
  /**
   * Flat [lineIndex, htmlId, …]: a tool call's or result's readable companion under the line
   * (tool-readable.ts markup, in the html table), written against the previous pane's list like
   * `lines` (a conversation's tool calls stay where they were: a pane lists only the new ones).
   * Absent: none, and none in the previous pane.
   */
  tools?: Spliced;
  /** Flat [lineIndex, textId, …]: a cache breakpoint label under each of these lines (requests that carry any). */
  bp?: number[];
  /** What the line marks compare with (absent: nothing, e.g. the first event). */
  base?: { kind: 'request' | 'event'; offset: number };
  cut?: number;
  rejected?: string;
  /** Token figures of a request pane, its cached-tokens badge and the note under its ✂ line (same words as the page's). */
  econ?: PaneTokens & { note?: CutNote; cached?: CacheBadge };
  /** What the provider billed for this request (economics/billed.ts), beside the model's figures. */
  billed?: { text: string; title: string };
  /** The request linter's findings on it (the same lines a printed pane shows). */
  lint?: PaneFinding[];
  /** Its provider wire views' markup (render/wire-markup.ts; the JSON is written from the part's wire data when opened). */
  wireHtml?: string;
  /**
   * Its provider wire views' markup as a text id: the markup written for the id WIRE_ID_SLOT, which
   * the page replaces with the pane's own (`wireMarkupOf`) — the same for every request with as many
   * attached files, so a page's data holds it once instead of once a request.
   */
  wire?: number;
}

export interface PaneData {
  /**
   * Distinct highlighted lines. A line the page already shows (an unmarked line of a pane rendered
   * in full) is not repeated: it is `[offset, index]` — the index-th prompt line of that pane.
   */
  html: (string | [number, number])[];
  text: string[];
  from: string[];
  panes: Record<number, EncodedPane>;
  /**
   * In a part that continues the part before (scenario-data.ts): the ids its own `html`, `text` and
   * `from` entries start at — the lengths of those tables over the parts it continues, whose entries
   * (and panes, for `prev`) its ids may name.
   */
  start?: [html: number, text: number, from: number];
}

/** The id a pane's wire views are written for in the data, replaced by the pane's own id when it is built. */
export const WIRE_ID_SLOT = 'pane-@-wire';

/** A pane's wire views' markup from the data (see EncodedPane.wire). */
export const wireMarkupOf = (data: PaneData, enc: EncodedPane, offset: number): string | undefined =>
  enc.wire === undefined ? enc.wireHtml : data.text[enc.wire]?.replaceAll(WIRE_ID_SLOT, `pane-${offset}-wire`);

/** `data` on top of the data it continues (`base`: that data, itself already merged): one set of tables and panes. */
export function mergePaneData(base: PaneData, data: PaneData): PaneData {
  const [h, t, f] = data.start ?? [0, 0, 0];
  if (h !== base.html.length || t !== base.text.length || f !== base.from.length)
    throw new Error(`a data part continues tables of ${h}/${t}/${f} entries, but the part before it has ${base.html.length}/${base.text.length}/${base.from.length}`);
  return { html: base.html.concat(data.html), text: base.text.concat(data.text), from: base.from.concat(data.from), panes: { ...base.panes, ...data.panes } };
}

/**
 * The line ids, provenance ids and change marks of each pane of `data`, decoded on demand: a pane
 * from the one it is written against, which is decoded first (each once: kept for the next).
 */
export function paneDecoder(data: PaneData): (offset: number) => { ids: number[]; from: number[]; tools: number[]; marks: Mark[] } | undefined {
  const done = new Map<number, { ids: number[]; from: number[]; tools: number[] }>();
  return (offset) => {
    const enc = data.panes[offset];
    if (!enc) return undefined;
    const chain: number[] = [];
    for (let o: number | undefined = offset; o !== undefined && !done.has(o); o = data.panes[o]?.prev) chain.push(o);
    for (const o of chain.reverse()) {
      const e = data.panes[o]!;
      const base = e.prev === undefined ? { ids: [], from: [], tools: [] } : done.get(e.prev)!;
      done.set(o, { ids: unsplice(base.ids, e.lines, true), from: unsplice(base.from, e.from, false), tools: e.tools ? unsplice(base.tools, e.tools, false) : [] });
    }
    return { ...done.get(offset)!, marks: marksOf(enc.status) };
  };
}
