/**
 * What a scenario page leaves out of its HTML and fetches on first use, from
 * `scenarios/<id>/data.json` beside it: the state as of every event whose pane the page does not
 * render in full (pane-data.ts), the messages of its own requests' wire views (wire-data.ts), and
 * each event as written in the scenario file (the timeline's "event YAML", coloured in the browser
 * when first opened: client/scenario-page.ts showEventYaml). Reading the page needs none of them — its own requests
 * and the event it opens on are in the HTML — and together they were about a third of a scenario
 * page's bytes (the event YAML alone is the whole scenario file again), carried by every visit.
 * The page script fetches the file the first time the reader reaches for another event (a pointer
 * or focus on the timeline, j/k, a deep link) or opens a wire view or an event's YAML (scenario-page.ts).
 *
 * Made while the page renders, from the same page model (which is the expensive part): a build
 * keeps it for the integration to write next to the page (integration/page-files.ts); `astro dev`
 * serves it from a route (routes/scenarios/_data.json.ts).
 *
 * A long scenario's page is windowed (page-window.ts): its HTML prints only the requests
 * around the opening event, and the data is cut into parts, `scenarios/<id>/part-<first
 * offset>.json`, each holding the panes, wire data and event YAML of a run of consecutive events;
 * the page lists them (`data-parts`) and fetches one when the reader selects one of its events or
 * opens one of their cards' YAML.
 * A page that is not windowed has one part, its data.json, exactly as before.
 *
 * A conversation's requests each re-send the one before, so a part that printed its panes whole
 * grew with the prompt and the parts together with its square (a 400-request capture: 97 MB). So a
 * part continues the part before it (`base`): its panes' lines and its wire messages are only those
 * the parts it continues do not have (pane-data.ts Encoder, wire/pack.ts), and the page reads it on
 * top of them (the page lists which part each continues: client/page-data.ts fetches the chain at once). Like a video's key frames, a part stands
 * alone again once the chain it would continue (what opening it fetches) is more than twice its
 * size written alone: so opening any pane fetches at most about twice what it would alone, and
 * since a chain of parts that only append holds each line once, a part stands alone only after the
 * chain has gathered that much of what later panes no longer show (removed lines, each pane's own
 * figures): the parts together stay within a small multiple of what the conversation adds.
 */
import type { SiteCorpus } from '../integration/site.ts';
import type { RequestEconomics, ScenarioEconomics } from '../economics/compute.ts';
import type { RenderedScenario } from '../prompt/render.ts';
import type { ScenarioView } from '../prompt/view.ts';
import type { WireSource } from '../wire/index.ts';
import { WIRE_ID_SLOT } from './pane-codec.ts';
import { encodePanes, newEncoder, shownLines, type Encoder, type PaneData, type ShownLines } from './pane-data.ts';
import type { WirePacker } from '../wire/pack.ts';
import type { PaneFinding } from './pane-markup.ts';
import type { LintFinding } from '../request-lint/request-lint.ts';
import { wireData, wireSources, type WireData } from './wire-data.ts';
import { wireViewsMarkup } from './wire-markup.ts';
import { billedOf, billedPaneText, type Billed } from '../economics/billed.ts';
import { measuredComparison, type ScenarioMeasured } from '../economics/measured.ts';
import { yamlTokenTags } from './highlight.ts';
import type { YamlTags } from './yaml-html.ts';
import { DEFAULT_PAGE_WINDOW } from '../integration/options.ts';
import type { Pane } from '../prompt/view.ts';
import { planWindow, type WindowPlan } from './page-window.ts';

/** The file's content. */
export interface ScenarioData {
  /** The part this one continues (by its first event's offset): its tables and panes come first (absent: it stands alone). */
  base?: number;
  panes: PaneData;
  /** Null when the scenario has no own accepted request (or, in a windowed page's part, none it prints). */
  wire: WireData | null;
  /** The timeline's event YAML: each card's source as written (by offset; a batch's under its first event), and the element each kind of token is written as. */
  events: { sources: Record<number, string>; tags: YamlTags };
}

/** What the page renders in full and what it leaves to the data. */
export interface PageParts {
  rendered: RenderedScenario;
  /** The scenario's cache economics (none when it has no request). */
  econ: ScenarioEconomics | undefined;
  /** The scenario's own events. */
  own: Set<number>;
  /** Whether the pane of this event is rendered in the HTML (the opened event, and every own request in the window). */
  inPage: (offset: number, kind: string) => boolean;
  /** The window and the data parts (page-window.ts). */
  plan: WindowPlan;
  econByOffset: Map<number, RequestEconomics>;
  /** The request linter's findings on each own request, for its pane. */
  lintByOffset: Map<number, PaneFinding[]>;
  typeOf: (offset: number) => string;
  /** The wire source of each accepted request of the chain. */
  wire: Map<number, WireSource>;
  /** What the provider billed for the own requests (economics/billed.ts; null: no bill). */
  billed: Billed | null;
  /** The bill beside the model, request by request (economics/measured.ts; null: no request carries a bill): the lede and the table read this one. */
  measured: ScenarioMeasured | null;
  /** Each billed request's pane line. */
  billedByOffset: Map<number, { text: string; title: string }>;
}

export function pageParts(site: SiteCorpus, view: ScenarioView): PageParts {
  const own = new Set(view.cards.filter((c) => !c.shared).map((c) => c.offset));
  const econ = site.corpus.economics.get(view.id);
  const rendered = site.corpus.scenarios.find((s) => s.scenario.id === view.id)!;
  const plan = windowPlan(view, own, site.config.pageWindow ?? DEFAULT_PAGE_WINDOW);
  const billed = econ ? billedOf(rendered, econ, site.config.economics.profiles) : null;
  return {
    rendered,
    econ,
    own,
    plan,
    inPage: (offset, kind) => offset === view.opens || (kind === 'request' && own.has(offset) && plan.window.has(offset)),
    econByOffset: new Map((econ?.chain ?? []).map((e) => [e.offset, e])),
    lintByOffset: paneFindings(site.corpus.lint.get(view.id) ?? []),
    typeOf: (o) => view.cards.find((c) => c.offset === o)?.type ?? '',
    wire: wireSources(rendered),
    billed,
    measured: econ ? measuredComparison(rendered, econ) : null,
    billedByOffset: new Map((billed?.requests ?? []).map((q) => [q.offset, billedPaneText(q)])),
  };
}

const printed = (p: Pane): number => p.lines.reduce((n, l) => n + l.text.length + 1, 0);

/**
 * About what a part continuing the part before holds of a request's pane, in bytes: the lines it
 * adds or changes, highlighted and again as wire messages (≈ 3 bytes a printed character), and
 * what every request pane carries whatever its size — its figures, the bill, its lists (≈ 1,000
 * bytes; measured on the generated 400-request conversation, npm run bench:storage).
 */
const added = (p: Pane): number => 1000 + 3 * p.lines.reduce((n, l) => n + (l.status === 'same' ? 0 : l.text.length + 1), 0);

/** What each event costs the page printed in full (its own request's pane, its card's YAML) and in a part, and the plan from that. */
function windowPlan(view: ScenarioView, own: ReadonlySet<number>, budget: number): WindowPlan {
  const items = view.cards.map((c, i) => {
    const pane = view.panes[i]!;
    const mine = pane.kind === 'request' && own.has(c.offset);
    return { offset: c.offset, pane: mine ? printed(pane) : 0, added: mine ? added(pane) : 0, source: c.batch && c.batch.index > 0 ? 0 : c.source.length };
  });
  return planWindow(items, view.opens, budget);
}

/** The findings by request, as the pane shows them. */
function paneFindings(findings: readonly LintFinding[]): Map<number, PaneFinding[]> {
  const out = new Map<number, PaneFinding[]>();
  for (const f of findings) out.set(f.offset, [...(out.get(f.offset) ?? []), { severity: f.severity, rule: f.rule, message: f.message, url: f.source.url }]);
  return out;
}

/** The URL path of a scenario's data, below the site's base (`scenarios/<id>/data.json`). */
export const scenarioDataPath = (id: string): string => `scenarios/${id}/data.json`;

/** The URL path of one data part of a windowed page, below the site's base (named by its first event: deterministic). */
export const scenarioPartPath = (id: string, first: number): string => `scenarios/${id}/part-${first}.json`;

/**
 * A data part as the page lists it: its first and last event (timeline order), its URL path below
 * the base and, when it continues the part before it, that part's first event — so the page fetches
 * a part and the chain it continues at once, not one after another as each part names its base.
 */
export type PartRef = [first: number, last: number, path: string, base?: number];

/** One data file of a page: where it goes and its JSON text; `base`: the first event of the part it continues. */
export interface DataFile {
  path: string;
  body: string;
  base?: number;
}

/**
 * The parts a windowed page lists in its `data-parts` (none when it is not windowed: its data.json
 * holds everything). With the page's data `files` (a build), each ref names the part it continues;
 * without them (`astro dev` serves every part standing alone: routes/scenarios/_part.json.ts) none does.
 */
export const partRefs = (view: ScenarioView, parts: PageParts, files?: readonly DataFile[]): PartRef[] =>
  parts.plan.windowed
    ? parts.plan.parts.map((offs, i) => {
        const base = files?.[i]?.base;
        return base === undefined ? [offs[0]!, offs.at(-1)!, scenarioPartPath(view.id, offs[0]!)] : [offs[0]!, offs.at(-1)!, scenarioPartPath(view.id, offs[0]!), base];
      })
    : [];

/** The data files of one page: its data.json, or (windowed) one file per part. */
export async function scenarioDataFiles(view: ScenarioView, parts: PageParts): Promise<DataFile[]> {
  if (!parts.plan.windowed) return [{ path: scenarioDataPath(view.id), body: await scenarioData(view, parts) }];
  const out: DataFile[] = [];
  const shown = await shownLines(view.panes.filter((p) => parts.inPage(p.offset, p.kind))); // once for every part
  // The chain the next part may continue: what encoding it left, and the bytes of its parts since the last that stands alone.
  let chain: { base: number; encoder: Encoder; packer: WirePacker; bytes: number } | undefined;
  const fresh = (first: number) => ({ base: first, encoder: newEncoder(), packer: { ids: new Map(), reused: 0 }, bytes: 0 });
  for (const offs of parts.plan.parts) {
    let body: string | undefined;
    let next: typeof chain;
    const continued = chain?.base;
    if (chain) {
      const text = await partData(view, parts, offs, shown, chain);
      // Fetching it means fetching the chain too: continue while that is at most twice the part written alone —
      // at least the part plus what it names of the chain (cheap to tell), and exactly when that does not settle it.
      const fetched = chain.bytes + text.length;
      const least = text.length + chain.encoder.reused + chain.packer.reused;
      if (fetched <= 2 * least) {
        body = text;
        next = { ...chain, base: offs[0]!, bytes: fetched };
      } else {
        const alone = fresh(offs[0]!);
        const whole = await partData(view, parts, offs, shown, { ...alone, fresh: true });
        [body, next] = fetched <= 2 * whole.length ? [text, { ...chain, base: offs[0]!, bytes: fetched }] : [whole, { ...alone, bytes: whole.length }];
      }
    } else {
      next = fresh(offs[0]!);
      body = await partData(view, parts, offs, shown, { ...next, fresh: true });
      next.bytes = body.length;
    }
    // It continues the chain when the chain went on through it (else `next` starts a new one here).
    const continues = next !== undefined && next.encoder === chain?.encoder ? continued : undefined;
    chain = next;
    out.push({ path: scenarioPartPath(view.id, offs[0]!), body, ...(continues !== undefined && { base: continues }) });
  }
  return out;
}

/** The data file of one scenario page, as JSON text (deterministic: same page model, same bytes). */
export async function scenarioData(view: ScenarioView, parts: PageParts): Promise<string> {
  return partData(
    view,
    parts,
    view.cards.map((c) => c.offset),
  );
}

/**
 * One part's data as JSON text: the panes of `offsets` the page does not print, the wire data of
 * its own requests among them that it prints, and their events' YAML as written (coloured and
 * escaped in the browser when a card's YAML is opened: render/yaml-source.ts).
 */
export async function partData(
  view: ScenarioView,
  parts: PageParts,
  offsets: readonly number[],
  shown?: ShownLines,
  /** Continue the part that starts at `base` (what encoding it left: updated here for the next part); `fresh`: start the chain here. */
  chain?: { base: number; encoder: Encoder; packer: WirePacker; fresh?: boolean },
): Promise<string> {
  const { inPage, econByOffset, typeOf, own, wire, billedByOffset, lintByOffset } = parts;
  const inPart = new Set(offsets);
  // The page is `<base>scenarios/<id>/`: the wire formats page is two folders up (no base needed here).
  const base = '../../';
  const files = (o: number): number => wire.get(o)?.messages.reduce((n, m) => n + (m.files?.length ?? 0), 0) ?? 0;
  const panes = await encodePanes(
    view.panes.filter((p) => inPart.has(p.offset) && !inPage(p.offset, p.kind)),
    shown ?? view.panes.filter((p) => inPage(p.offset, p.kind)),
    {
      byOffset: econByOffset,
      typeOf,
      billed: billedByOffset,
      lint: lintByOffset,
      // An own request built from the data carries the same wire views as one the page prints (WireViews.astro).
      wireHtml: (o) => (own.has(o) && wire.has(o) ? wireViewsMarkup(WIRE_ID_SLOT, base, files(o)) : undefined),
    },
    chain?.encoder,
  );
  // The wire data of every own request of the part: printed in the page or built from the data.
  const partWire = new Map([...wire].filter(([o]) => own.has(o) && inPart.has(o)));
  const sources: Record<number, string> = {};
  // A batch's YAML is its first event's card (Timeline.astro): the whole batch as written.
  for (const c of view.cards) if (inPart.has(c.offset) && (!c.batch || c.batch.index === 0)) sources[c.offset] = c.source;
  const data: ScenarioData = {
    ...(chain && !chain.fresh && { base: chain.base }),
    panes,
    wire: partWire.size > 0 ? await wireData(partWire, chain?.packer) : null,
    events: { sources, tags: await yamlTokenTags() },
  };
  return JSON.stringify(data);
}
