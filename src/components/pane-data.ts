/**
 * Panes rendered in the browser, on demand. A scenario page renders its own requests in full (they
 * must read without JavaScript); the state as of every other event is sent as compact data — each
 * distinct highlighted line once, and per pane run-length lists of line ids and provenance — and
 * the page script builds a pane when its event is selected. Without this, every page repeated the
 * whole prompt once per event (megabytes per page at realistic prompt sizes). A line the page
 * already shows in a full pane is sent as a reference to it, not a second time.
 */
import type { Pane } from '../prompt/view.ts';
import { highlightLines } from './highlight.ts';
import type { RequestEconomics } from '../economics/compute.ts';
import { cutNote, paneTokens, type CutNote, type PaneTokens } from '../economics/view.ts';

/** One pane, encoded. Run-length lists are flat [value, count, value, count, …]. */
export interface EncodedPane {
  kind: Pane['kind'];
  /** Line ids into PaneData.html, run-length encoded as [firstId, count, …] of consecutive ids. */
  lines: number[];
  /** Provenance ids into PaneData.from, run-length encoded as [fromId, count, …]. */
  from: number[];
  /** One character per line: '.' same, '+' added, '~' changed. */
  status: string;
  /** [lineIndex, textId, textId, …] for lines removed right before a line. */
  removed: number[][];
  removedAtEnd: number[];
  /** [lineIndex, textId] for abridgement stand-in lines: the full text they expand to. */
  abridged?: number[][];
  /** Flat [lineIndex, textId, …]: the old text of each changed line. */
  old: number[];
  /** What the line marks compare with (absent: nothing, e.g. the first event). */
  base?: { kind: 'request' | 'event'; offset: number };
  cut?: number;
  cached?: number;
  rejected?: string;
  /** Token figures of a request pane and the note under its ✂ line (same words as the page's). */
  econ?: PaneTokens & { note?: CutNote };
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
}

class Table {
  readonly items: string[] = [];
  private readonly ids = new Map<string, number>();
  id(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) this.ids.set(s, (id = this.items.push(s) - 1));
    return id;
  }
}

function runs(values: number[], consecutive: boolean): number[] {
  const out: number[] = [];
  for (const v of values) {
    const n = out.length;
    if (n && out[n - 2]! + (consecutive ? out[n - 1]! : 0) === v) out[n - 1]!++;
    else out.push(v, 1);
  }
  return out;
}

/**
 * Encodes `panes`; `inPage` are the panes the page renders in full (Pane.astro, id `pane-<offset>`),
 * whose unmarked lines the data refers to instead of repeating them.
 */
export async function encodePanes(
  panes: readonly Pane[],
  inPage: readonly Pane[] = [],
  economics?: { byOffset: Map<number, RequestEconomics>; typeOf: (offset: number) => string },
): Promise<PaneData> {
  const shown = new Map<string, [number, number]>();
  for (const p of inPage) {
    const highlighted = await highlightLines(
      p.lines.map((l) => l.text),
      p.lines.map((l) => l.message),
    );
    highlighted.forEach((h, i) => {
      if (!p.lines[i]!.notes.length && !shown.has(h)) shown.set(h, [p.offset, i]);
    });
  }
  const html = new Table();
  const text = new Table();
  const from = new Table();
  const out: Record<number, EncodedPane> = {};
  for (const p of panes) {
    const highlighted = await highlightLines(
      p.lines.map((l) => l.text),
      p.lines.map((l) => l.message),
    );
    const cut = p.lines.findIndex((l) => l.cutAbove);
    const abridged = p.lines.flatMap((l, i) => (l.abridges !== undefined ? [[i, text.id(l.abridges)]] : []));
    const econ = p.kind === 'request' ? economics?.byOffset.get(p.offset) : undefined;
    out[p.offset] = {
      kind: p.kind,
      lines: runs(
        highlighted.map((h) => html.id(h)),
        true,
      ),
      from: runs(
        p.lines.map((l) => from.id(l.from.join(' '))),
        false,
      ),
      status: p.lines.map((l) => (l.status === 'added' ? '+' : l.status === 'changed' ? '~' : '.')).join(''),
      removed: p.lines.flatMap((l, i) => (l.removedBefore.length ? [[i, ...l.removedBefore.map((r) => text.id(r))]] : [])),
      removedAtEnd: p.removedAtEnd.map((r) => text.id(r)),
      ...(abridged.length > 0 && { abridged }),
      old: p.lines.flatMap((l, i) => (l.old !== undefined ? [i, text.id(l.old)] : [])),
      ...(p.diffBase && { base: p.diffBase }),
      ...(cut >= 0 && { cut }),
      ...(p.cached !== undefined && { cached: Math.round(p.cached * 100) }),
      ...(p.rejected && { rejected: p.rejected }),
      ...(econ && { econ: { ...paneTokens(econ), ...(cut >= 0 && { note: cutNote(econ, economics!.typeOf) }) } }),
    };
  }
  return { html: html.items.map((h) => shown.get(h) ?? h), text: text.items, from: from.items, panes: out };
}

/** JSON safe to embed in a <script type="application/json"> (no `</script>`, no `<!--`). */
export const embedJson = (data: unknown): string => JSON.stringify(data).replace(/</g, '\\u003c');
