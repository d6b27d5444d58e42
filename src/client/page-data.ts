/**
 * The scenario page's data file in the browser (render/scenario-data.ts writes it): fetched once,
 * the first time the reader reaches for another event or opens a wire view, and the panes the page
 * does not carry built from it with the shared pane markup (render/pane-markup.ts). A windowed page
 * (render/page-window.ts) has several data parts, each for a run of events (`data-parts` on the
 * page: first and last offset, URL): the part of an event is fetched when that event is first
 * selected (or its event YAML opened), each once. A part may continue the part before it (its
 * `base`: its tables, panes and wire messages go on from that part's, scenario-data.ts): the part
 * is read on top of it. A built page lists which part each continues, so the whole chain is fetched
 * at once (one round trip, not one per part); a part the list does not say continues another (a
 * page of `astro dev`, whose parts stand alone) fetches its base when it names one. The state is this class's fields: each
 * part's fetch under way and decoded panes, the lines of full panes already read.
 */
import { mergePaneData, paneDecoder, wireMarkupOf, type PaneData } from '../render/pane-codec.ts';
import { mergeWire } from '../wire/pack.ts';
import { indentOf, paneMarkup } from '../render/pane-markup.ts';
import type { ScenarioData } from '../render/scenario-data.ts';
import { CURRENT_LINE } from './pane-lines.ts';

const NAMED: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };
/** Text of highlighted line HTML: tags dropped, the entities an HTML serialiser writes decoded. */
const textOf = (html: string): string =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, n: string) =>
      n[0] === '#' ? String.fromCodePoint(n[1] === 'x' || n[1] === 'X' ? parseInt(n.slice(2), 16) : Number(n.slice(1))) : (NAMED[n] ?? m),
    );

/** One data file, parsed (an error names the URL and what it answered). */
async function fetchPart(url: string): Promise<ScenarioData> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url} answered ${r.status}${r.statusText ? ` ${r.statusText}` : ''}`);
  return (await r.json()) as ScenarioData;
}

/** A prompt line's text as HTML: the line without its gutter (pane-markup.ts writes it first). */
function textHtml(line: Element): string {
  const first = line.firstElementChild;
  return first?.matches('.gutter') ? line.innerHTML.slice(first.outerHTML.length) : line.innerHTML;
}

/** One data file: the events it covers (timeline order, inclusive), its URL, and its state. */
interface Part {
  first: number;
  last: number;
  url: string;
  /** The part it continues, when the page says so (its index in the page's parts). */
  base?: number | undefined;
  loading?: Promise<ScenarioData> | undefined;
  panes?: PaneData;
  decode?: ReturnType<typeof paneDecoder>;
}

/** The page's parts from its `data-parts` (windowed) or its one `data-src`, covering every event of `order`. */
function partsOf(src: string | undefined, list: string | undefined, order: readonly string[]): Part[] {
  if (list) {
    const parsed = JSON.parse(list) as [number, number, string, number?][];
    const firsts = parsed.map(([first]) => first);
    return parsed.map(([first, last, url, base], i) => {
      // A part continues one before it, never itself or a later one.
      const at = base === undefined ? -1 : firsts.indexOf(base);
      return { first: order.indexOf(String(first)), last: order.indexOf(String(last)), url, base: at >= 0 && at < i ? at : undefined };
    });
  }
  return src ? [{ first: 0, last: Math.max(0, order.length - 1), url: src }] : [];
}

export class PageData {
  private readonly parts: Part[];
  private readonly order: readonly string[];
  /** Lines of the full panes in the page, by offset (the data refers to them instead of repeating them). */
  private readonly shownLines = new Map<number, Element[]>();

  /** `src`: the page's one data file; `parts`: a windowed page's `data-parts`; `order`: the events' offsets in timeline order. */
  constructor(src: string | undefined, parts: string | undefined, order: readonly string[]) {
    this.order = order;
    this.parts = partsOf(src, parts, order);
  }

  /** The part holding event `off`'s data. */
  private partOf(off: string): Part | undefined {
    const i = this.order.indexOf(off);
    return this.parts.find((p) => p.first <= i && i <= p.last);
  }

  /** The data of event `off` has arrived (its pane can be built). */
  loaded(off: string): boolean {
    return this.partOf(off)?.panes !== undefined;
  }

  /** Fetches the part holding `off` (once; a failed fetch is tried again on the next call) and gets its panes ready to decode. */
  ready(off: string): Promise<ScenarioData> {
    const part = this.partOf(off);
    if (!part) return Promise.reject(new Error(`this page names no data file for event @${off}`));
    return this.readyPart(part);
  }

  /** A part's data, on top of the part it continues (fetched beside it when the page lists it); its panes ready to decode. */
  private readyPart(part: Part): Promise<ScenarioData> {
    if (!part.loading) {
      // The chain the page says this part continues is asked for now, beside the part itself.
      const listed = part.base === undefined ? undefined : this.parts[part.base];
      const early = listed && this.readyPart(listed);
      early?.catch(() => undefined); // reported below, when the part reads it
      part.loading = fetchPart(part.url)
        .then(async (d) => {
          if (d.base === undefined) return d;
          const at = this.parts.indexOf(part);
          const base = this.parts.find((p, i) => i < at && this.order[p.first] === String(d.base));
          if (!base) throw new Error(`${part.url} continues the data of event @${d.base}, which no part before it holds`);
          const b = await (base === listed ? early! : this.readyPart(base));
          return { ...d, panes: mergePaneData(b.panes, d.panes), wire: d.wire ? mergeWire(b.wire, d.wire) : b.wire };
        })
        .catch((err: unknown) => {
          part.loading = undefined; // tried again on the next call
          throw err;
        });
    }
    return part.loading.then((d) => {
      part.panes ??= d.panes;
      part.decode ??= paneDecoder(d.panes);
      return d;
    });
  }

  /**
   * The reader is reaching for another event: fetch now, so the data is there by the click (a
   * failure is reported when a pane needs it). Only a page with one data file: a windowed page's
   * parts are fetched for the event chosen.
   */
  prefetch(): void {
    if (this.parts.length === 1) void this.ready(this.order[this.parts[0]!.first]!).catch(() => undefined);
  }

  /** A highlighted line: its HTML, or a reference [pane, line] to a line a full pane in the page already shows. */
  private lineHtml(data: PaneData, id: number): string {
    const h = data.html[id];
    if (typeof h === 'string') return h;
    if (!h) return '';
    let lines = this.shownLines.get(h[0]);
    if (!lines) {
      lines = [...document.querySelectorAll(`#pane-${h[0]} ${CURRENT_LINE}`)];
      this.shownLines.set(h[0], lines);
    }
    const line = lines[h[1]];
    return line ? textHtml(line) : '';
  }

  /** The pane of one event, built from the data (undefined: not loaded, or not in the data). */
  buildPane(off: string, typeOf: (off: string) => string): HTMLElement | undefined {
    const part = this.partOf(off);
    const data = part?.panes;
    const enc = data?.panes[Number(off)];
    const lists = part?.decode?.(Number(off));
    if (!data || !enc || !lists) return undefined;
    const htmlOf = (id: number): string => this.lineHtml(data, id);
    const { ids, marks } = lists;
    const froms = lists.from.map((f) => data.from[f]!);
    const removedAt = new Map(enc.removed.map((r) => [r[0]!, r.slice(1).map((t) => data.text[t]!)]));
    const abridgedAt = new Map((enc.abridged ?? []).map(([i, t]) => [i!, data.text[t!]!]));
    const oldAt = new Map<number, string>();
    for (let k = 0; k < enc.old.length; k += 2) oldAt.set(enc.old[k]!, htmlOf(enc.old[k + 1]!));
    const toolAt = new Map<number, string>();
    for (let k = 0; k < lists.tools.length; k += 2) toolAt.set(lists.tools[k]!, htmlOf(lists.tools[k + 1]!));
    const bpAt = new Map<number, string[]>();
    for (let k = 0; k < (enc.bp?.length ?? 0); k += 2) bpAt.set(enc.bp![k]!, [...(bpAt.get(enc.bp![k]!) ?? []), data.text[enc.bp![k + 1]!]!]);
    const wireHtml = wireMarkupOf(data, enc, Number(off));
    const html = paneMarkup({
      offset: Number(off),
      kind: enc.kind,
      idPrefix: 'pane',
      diffBase: enc.base ?? null,
      ...(enc.econ && { econ: enc.econ }),
      ...(enc.billed && { billed: enc.billed }),
      ...(enc.lint && { lint: enc.lint }),
      ...(wireHtml !== undefined && { wireHtml }),
      ...(enc.kind === 'request' && { model: textOf(htmlOf(ids[0]!)).replace(/^model: /, '') }),
      ...(enc.kind !== 'request' && { eventType: typeOf(off) }),
      ...(enc.rejected && { rejected: enc.rejected }),
      lines: ids.map((id, i) => ({
        html: htmlOf(id), // highlighted at build time by shiki: prompt text arrives escaped
        indent: indentOf(textOf(htmlOf(id))),
        status: marks[i] === '+' ? 'added' : marks[i] === '~' ? 'changed' : 'same',
        from: froms[i]!,
        removedBefore: removedAt.get(i) ?? [],
        cutAbove: enc.cut === i,
        notes: [],
        ...(abridgedAt.has(i) && { abridges: abridgedAt.get(i)! }),
        ...(oldAt.has(i) && { was: oldAt.get(i)! }),
        ...(bpAt.has(i) && { breakpoints: bpAt.get(i)! }),
        ...(toolAt.has(i) && { tool: toolAt.get(i)! }), // written at build time by tool-readable.ts: escaped there
      })),
      removedAtEnd: enc.removedAtEnd.map((t) => data.text[t]!),
    });
    const box = document.createElement('div');
    box.innerHTML = html;
    return box.firstElementChild as HTMLElement;
  }
}
