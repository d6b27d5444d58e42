/**
 * The build's own stages, timed one by one outside Astro on a project's scenarios — what the site
 * does before and while it renders pages: load + validate (read, parse, check every scenario),
 * fold + print + weave (every event's state, as the pages need it), the cache economics (tokens of
 * each distinct message, prefixes, cached tokens, cost, attribution), the page models (line diffs,
 * provenance, badges), and highlighting (every pane, with the call Pane.astro makes; the timeline's
 * event YAML is coloured in the browser, from the page's data file, when a reader opens it). Run in a fresh process per corpus (see
 * tools/cli/bench.ts --phases) so shiki's caches and the JIT start cold, as in a build. Each stage
 * is timed twice: wall clock, and the process's CPU time (user + system, garbage collection
 * included), which other work on a shared machine skews much less.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { highlightLines, yamlTokenTags, type Mark } from '../../src/render/highlight.ts';
import { everyProfile, scenarioEconomics, shapeCache } from '../../src/economics/compute.ts';
import { DEFAULT_ECONOMICS } from '../../src/economics/profiles.ts';
import { renderScenario } from '../../src/prompt/render.ts';
import { scenarioView } from '../../src/prompt/view.ts';
import { listScenarioFiles } from '../../src/scenarios/files.ts';
import { loadTexts, type CorpusConfig } from '../../src/scenarios/load.ts';
import { now } from './measure.ts';

export interface Phases {
  scenarios: number;
  events: number;
  requests: number;
  /** Printed lines over every event's pane. */
  paneLines: number;
  loadMs: number;
  foldMs: number;
  /** Cache economics over the corpus (the same call src/corpus/check.ts makes in a build). */
  economicsMs: number;
  /** The side-by-side table: every scenario's requests under every configured profile (src/corpus/check.ts, pages only). */
  everyProfileMs?: number;
  viewMs: number;
  highlighterInitMs: number;
  highlightMs: number;
  /** Highlighted characters (HTML) of all panes. */
  highlightedBytes: number;
  peakRss: number;
  errors: number;
  /** The same stages in CPU time (ms, user + system of this process). */
  cpu?: { load: number; fold: number; economics: number; everyProfile: number; view: number; highlighterInit: number; highlight: number };
}

/** CPU time (user + system) of this process so far, in ms. */
const cpuNow = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export async function measurePhases(config: CorpusConfig): Promise<Phases> {
  const c0 = cpuNow();
  const t0 = now();
  const files = listScenarioFiles(config).map((file) => ({ file, text: readFileSync(join(config.root, file), 'utf8') }));
  const loaded = await loadTexts(files, config);
  const t1 = now();
  const c1 = cpuNow();
  const errors = [...loaded.errors];
  const rendered = [];
  for (const s of loaded.scenarios)
    rendered.push(await renderScenario(s, config.folds.get(s.fold)!, { everyEvent: true, ...(s.deploy && { deployed: config.folds.get(s.deploy.fold)! }) }, errors));
  const t2 = now();
  const c2 = cpuNow();
  // As the build's corpus check: each scenario's economics, then its side-by-side table over the same shapes.
  const shapes = rendered.map(() => shapeCache());
  for (const [i, r] of rendered.entries()) scenarioEconomics(r, DEFAULT_ECONOMICS, { shapes: shapes[i]! });
  const economicsMs = now() - t2;
  const c3 = cpuNow();
  const e0 = now();
  for (const [i, r] of rendered.entries()) if (r.requests.length) everyProfile(r, DEFAULT_ECONOMICS, undefined, shapes[i]);
  const everyProfileMs = now() - e0;
  const c4 = cpuNow();
  const h0 = now();
  // What the panes need of shiki before the first one: the highlighter, the YAML grammar, the token elements (highlight.ts).
  await yamlTokenTags();
  const t3 = now();
  const c5 = cpuNow();
  let viewMs = 0;
  let highlightMs = 0;
  let viewCpu = 0;
  let highlightCpu = 0;
  let highlightedBytes = 0;
  let paneLines = 0;
  // One scenario at a time, as the pages do: a page model (every pane) is made, highlighted, dropped.
  for (const r of rendered) {
    const v0 = now();
    const vc0 = cpuNow();
    const v = await scenarioView(r);
    const v1 = now();
    const vc1 = cpuNow();
    viewMs += v1 - v0;
    viewCpu += vc1 - vc0;
    for (const pane of v.panes) {
      const marks: Mark[] = [];
      pane.lines.forEach((l, i) => {
        l.notes.forEach((n, k) => {
          marks.push({ line: i, start: n.start, end: n.end, attrs: { class: 'anchor', 'data-notes': `pane-n${i}-${k}` } });
        });
      });
      const html = await highlightLines(
        pane.lines.map((l) => l.text),
        pane.lines.map((l) => l.message),
        marks,
        pane.lines.map((l) => l.group),
      );
      for (const h of html) highlightedBytes += h.length;
      paneLines += pane.lines.length;
    }
    highlightMs += now() - v1;
    highlightCpu += cpuNow() - vc1;
  }
  return {
    scenarios: rendered.length,
    events: rendered.reduce((n, r) => n + r.events.length, 0),
    requests: rendered.reduce((n, r) => n + r.requests.length, 0),
    paneLines,
    loadMs: t1 - t0,
    foldMs: t2 - t1,
    viewMs,
    economicsMs,
    everyProfileMs,
    highlighterInitMs: t3 - h0,
    highlightMs,
    highlightedBytes,
    peakRss: process.resourceUsage().maxRSS * 1024,
    errors: errors.length,
    cpu: { load: c1 - c0, fold: c2 - c1, economics: c3 - c2, everyProfile: c4 - c3, view: viewCpu, highlighterInit: c5 - c4, highlight: highlightCpu },
  };
}
