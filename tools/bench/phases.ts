/**
 * The build's own stages, timed one by one outside Astro on a project's scenarios — what the site
 * does before and while it renders pages: load + validate (read, parse, check every scenario),
 * fold + print + weave (every event's state, as the pages need it), the cache economics (tokens of
 * each distinct message, prefixes, cached tokens, cost, attribution), the page models (line diffs,
 * provenance, badges), and highlighting (every pane, with the call Pane.astro makes; the timeline's
 * event YAML is coloured in the browser, from the page's data file, when a reader opens it). Run in a fresh process per corpus (see
 * tools/cli/bench.ts --phases) so shiki's caches and the JIT start cold, as in a build.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { highlighter, highlightLines, type Mark } from '../../src/render/highlight.ts';
import { scenarioEconomics } from '../../src/economics/compute.ts';
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
  /** Cache economics over the corpus (the same call src/prompt/corpus.ts makes in a build). */
  economicsMs: number;
  viewMs: number;
  highlighterInitMs: number;
  highlightMs: number;
  /** Highlighted characters (HTML) of all panes. */
  highlightedBytes: number;
  peakRss: number;
  errors: number;
}

export async function measurePhases(config: CorpusConfig): Promise<Phases> {
  const t0 = now();
  const files = listScenarioFiles(config).map((file) => ({ file, text: readFileSync(join(config.root, file), 'utf8') }));
  const loaded = await loadTexts(files, config);
  const t1 = now();
  const errors = [...loaded.errors];
  const rendered = [];
  for (const s of loaded.scenarios)
    rendered.push(await renderScenario(s, config.folds.get(s.fold)!, { everyEvent: true, ...(s.deploy && { deployed: config.folds.get(s.deploy.fold)! }) }, errors));
  const t2 = now();
  for (const r of rendered) scenarioEconomics(r, DEFAULT_ECONOMICS);
  const economicsMs = now() - t2;
  await highlighter();
  const t3 = now();
  let viewMs = 0;
  let highlightMs = 0;
  let highlightedBytes = 0;
  let paneLines = 0;
  // One scenario at a time, as the pages do: a page model (every pane) is made, highlighted, dropped.
  for (const r of rendered) {
    const v0 = now();
    const v = await scenarioView(r);
    const v1 = now();
    viewMs += v1 - v0;
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
    highlighterInitMs: t3 - t2 - economicsMs,
    highlightMs,
    highlightedBytes,
    peakRss: process.resourceUsage().maxRSS * 1024,
    errors: errors.length,
  };
}
