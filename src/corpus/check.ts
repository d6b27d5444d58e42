/**
 * The corpus check: load every scenario and render it, collecting every error of every file.
 * This is what the fixture test, the check command and the site build all run first — so a stale
 * anchor, a bad payload or two files writing one output (scenarios/outputs.ts) fails each of them
 * with the same message. Each request is linted as sent (src/request-lint/request-lint.ts): a finding the API
 * would reject the request for is an error, the others are warnings, each at the request's event
 * with the provider's documented rule it follows.
 */
import { CorpusError, type InputError } from '../scenarios/errors.ts';
import { loadCorpus } from '../scenarios/files.ts';
import { loadTexts, type CorpusConfig } from '../scenarios/load.ts';
import type { Scenario } from '../scenarios/model.ts';
import { outputCollisions } from '../scenarios/outputs.ts';
import { renderScenario, type RenderedScenario, type Warning } from '../prompt/render.ts';
import { everyProfile, scenarioEconomics, shapeCache, type ScenarioEconomics } from '../economics/compute.ts';
import { checkExpectations } from '../economics/expect.ts';
import { checkMeasured } from '../economics/measured.ts';
import { unaskedCaching } from '../economics/unasked.ts';
import { DEFAULT_ECONOMICS, type EconomicsConfig } from '../economics/profiles.ts';
import { lintScenario, type LintFinding } from '../request-lint/request-lint.ts';

export interface RenderedCorpus {
  scenarios: RenderedScenario[];
  errors: InputError[];
  warnings: Warning[];
  /** Cache economics per scenario id (tokens, cached tokens, cost, cache breaks). */
  economics: Map<string, ScenarioEconomics>;
  /** The request linter's findings per scenario id, in request order (none: an empty list). */
  lint: Map<string, LintFinding[]>;
}

/** What rendering needs of the config: the folds, and the economics (defaults when absent). */
type RenderConfig = Pick<CorpusConfig, 'folds'> & { economics?: EconomicsConfig };

async function renderAll(scenarios: Scenario[], loadErrors: InputError[], config: RenderConfig, everyEvent: boolean): Promise<RenderedCorpus> {
  // Two inputs mapping to one output (fixture file, page, search record, anchor) fail the check before anything is written.
  const errors = [...loadErrors, ...outputCollisions(scenarios)];
  const warnings: Warning[] = [];
  const economics = new Map<string, ScenarioEconomics>();
  const lint = new Map<string, LintFinding[]>();
  const rendered: RenderedScenario[] = [];
  for (const s of scenarios) {
    const r = await renderScenario(s, config.folds.get(s.fold)!, { everyEvent, ...(s.deploy && { deployed: config.folds.get(s.deploy.fold)! }) }, errors);
    rendered.push(r);
    warnings.push(...r.warnings);
  }
  // Scenarios linked by `sharesCache:` are simulated together (economics/shared-cache.ts): every one rendered first.
  const corpus = new Map(rendered.filter((r) => !r.foldFailed).map((r) => [r.scenario.id, r]));
  for (const r of rendered) {
    // A fold that failed is reported at its event; nothing rendered, so nothing more to check.
    if (r.foldFailed) continue;
    // Expectations fail like stale anchors: in the check, the fixture test and the build alike.
    // One shape cache for the scenario's runs: its requests are tokenized and interned once, not once per run.
    const shapes = shapeCache();
    const econ = scenarioEconomics(r, config.economics ?? DEFAULT_ECONOMICS, { corpus, shapes });
    // The site's side-by-side table: the same requests under every configured profile (pages only).
    if (everyEvent && econ.requests.length) econ.byProfile = everyProfile(r, config.economics ?? DEFAULT_ECONOMICS, corpus, shapes);
    // Requests as sent that never ask for caching: said first, with what asking would save (economics/unasked.ts).
    const unasked = unaskedCaching(r, econ, config.economics ?? DEFAULT_ECONOMICS, corpus);
    if (unasked) econ.unasked = unasked;
    economics.set(r.scenario.id, econ);
    checkExpectations(r, econ, errors);
    checkMeasured(r, econ, errors);
    const findings = lintScenario(r, econ);
    lint.set(r.scenario.id, findings);
    reportFindings(r, findings, errors, warnings);
  }
  return { scenarios: rendered, errors, warnings, economics, lint };
}

/** Where the provider documents a finding's rule, as the check prints it. */
export const findingSource = (f: LintFinding): string => `${f.rule}: ${f.source.url}, read ${f.source.read}`;

/**
 * The findings at their request events: errors (the API would reject the request) fail the check,
 * warnings are printed. A request the API rejects is already an error of the economics at the same
 * event (economics/expect.ts checkApiErrors, from the adapter's flag and with its fix, and the
 * rule's source): it is not reported twice.
 */
function reportFindings(r: RenderedScenario, findings: readonly LintFinding[], errors: InputError[], warnings: Warning[]): void {
  const pos = new Map(r.scenario.chain.map((e) => [e.offset, e.pos]));
  for (const f of findings) {
    if (f.rule === 'api-rejects' || f.rule === 'feature-rejected') continue;
    const at = pos.get(f.offset) ?? r.scenario.pos;
    if (f.severity === 'warning') warnings.push({ pos: at, message: `${f.message} (${findingSource(f)})` });
    else errors.push({ pos: at, message: `${f.message} (${findingSource(f)})`, fix: f.fix ?? `follow the provider's rule at ${f.source.url}` });
  }
}

/** Loads and renders the corpus on disk; errors are returned, not thrown. */
export async function renderCorpus(config: CorpusConfig & { economics?: EconomicsConfig }, opts: { everyEvent: boolean }): Promise<RenderedCorpus> {
  const { scenarios, errors } = await loadCorpus(config);
  return renderAll(scenarios, errors, config, opts.everyEvent);
}

/** The same from texts in memory (tests, benchmarks). */
export async function renderTexts(
  files: { file: string; text: string }[],
  config: Omit<CorpusConfig, 'root' | 'scenariosDir'> & { economics?: EconomicsConfig },
  opts: { everyEvent: boolean },
): Promise<RenderedCorpus> {
  const { scenarios, errors } = await loadTexts(files, config);
  return renderAll(scenarios, errors, config, opts.everyEvent);
}

/** Throws a CorpusError listing every error, or returns the rendered corpus. */
export function assertClean(corpus: RenderedCorpus): RenderedCorpus {
  if (corpus.errors.length) throw new CorpusError(corpus.errors);
  return corpus;
}
