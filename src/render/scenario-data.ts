/**
 * What a scenario page leaves out of its HTML and fetches on first use, from
 * `scenarios/<id>/data.json` beside it: the state as of every event whose pane the page does not
 * render in full (pane-data.ts), the messages of its own requests' wire views (wire-data.ts), and
 * each event as written in the scenario file (the timeline's "event YAML", coloured in the browser
 * when first opened: client/event-yaml.ts). Reading the page needs none of them — its own requests
 * and the event it opens on are in the HTML — and together they were about a third of a scenario
 * page's bytes (the event YAML alone is the whole scenario file again), carried by every visit.
 * The page script fetches the file the first time the reader reaches for another event (a pointer
 * or focus on the timeline, j/k, a deep link) or opens a wire view or an event's YAML (scenario-page.ts).
 *
 * Made while the page renders, from the same page model (which is the expensive part): a build
 * keeps it for the integration to write next to the page (integration/page-files.ts); `astro dev`
 * serves it from a route (pages/scenarios/_data.json.ts).
 */
import type { SiteCorpus } from '../integration/site.ts';
import type { RequestEconomics, ScenarioEconomics } from '../economics/compute.ts';
import type { RenderedScenario } from '../prompt/render.ts';
import type { ScenarioView } from '../prompt/view.ts';
import type { WireSource } from '../wire/index.ts';
import { encodePanes, type PaneData } from './pane-data.ts';
import type { PaneFinding } from './pane-markup.ts';
import type { LintFinding } from '../lint/request-lint.ts';
import { wireData, wireSources, type WireData } from './wire-data.ts';
import { yamlTokenTags } from './highlight.ts';
import type { YamlTags } from './yaml-html.ts';

/** The file's content. */
export interface ScenarioData {
  panes: PaneData;
  /** Null when the scenario has no own accepted request. */
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
  /** Whether the pane of this event is rendered in the HTML (the opened event, and every own request). */
  inPage: (offset: number, kind: string) => boolean;
  econByOffset: Map<number, RequestEconomics>;
  /** The request linter's findings on each own request, for its pane. */
  lintByOffset: Map<number, PaneFinding[]>;
  typeOf: (offset: number) => string;
  /** The wire source of each accepted request of the chain. */
  wire: Map<number, WireSource>;
}

export function pageParts(site: SiteCorpus, view: ScenarioView): PageParts {
  const own = new Set(view.cards.filter((c) => !c.shared).map((c) => c.offset));
  const econ = site.corpus.economics.get(view.id);
  const rendered = site.corpus.scenarios.find((s) => s.scenario.id === view.id)!;
  return {
    rendered,
    econ,
    own,
    inPage: (offset, kind) => offset === view.opens || (kind === 'request' && own.has(offset)),
    econByOffset: new Map((econ?.chain ?? []).map((e) => [e.offset, e])),
    lintByOffset: paneFindings(site.corpus.lint.get(view.id) ?? []),
    typeOf: (o) => view.cards.find((c) => c.offset === o)?.type ?? '',
    wire: wireSources(rendered),
  };
}

/** The findings by request, as the pane shows them. */
function paneFindings(findings: readonly LintFinding[]): Map<number, PaneFinding[]> {
  const out = new Map<number, PaneFinding[]>();
  for (const f of findings) out.set(f.offset, [...(out.get(f.offset) ?? []), { severity: f.severity, rule: f.rule, message: f.message, url: f.source.url }]);
  return out;
}

/** The URL path of a scenario's data, below the site's base (`scenarios/<id>/data.json`). */
export const scenarioDataPath = (id: string): string => `scenarios/${id}/data.json`;

/** The data file of one scenario page, as JSON text (deterministic: same page model, same bytes). */
export async function scenarioData(view: ScenarioView, parts: PageParts): Promise<string> {
  const { inPage, econByOffset, typeOf, own, wire } = parts;
  const panes = await encodePanes(
    view.panes.filter((p) => !inPage(p.offset, p.kind)),
    view.panes.filter((p) => inPage(p.offset, p.kind)),
    { byOffset: econByOffset, typeOf },
  );
  const ownWire = new Map([...wire].filter(([o]) => own.has(o)));
  const sources: Record<number, string> = {};
  // A batch's YAML is its first event's card (Timeline.astro): the whole batch as written.
  for (const c of view.cards) if (!c.batch || c.batch.index === 0) sources[c.offset] = c.source;
  const data: ScenarioData = { panes, wire: ownWire.size > 0 ? await wireData(ownWire) : null, events: { sources, tags: await yamlTokenTags() } };
  return JSON.stringify(data);
}
