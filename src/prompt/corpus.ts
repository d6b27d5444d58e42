/**
 * The corpus check: load every scenario and render it, collecting every error of every file.
 * This is what the fixture test, the check command and the site build all run first — so a stale
 * anchor or a bad payload fails each of them with the same message.
 */
import { CorpusError, type InputError } from '../scenarios/errors.ts';
import { loadCorpus, loadTexts, type CorpusConfig } from '../scenarios/load.ts';
import type { Scenario } from '../scenarios/model.ts';
import { renderScenario, type RenderedScenario, type Warning } from './render.ts';

export interface RenderedCorpus {
  scenarios: RenderedScenario[];
  errors: InputError[];
  warnings: Warning[];
}

function renderAll(scenarios: Scenario[], loadErrors: InputError[], config: Pick<CorpusConfig, 'folds'>, everyEvent: boolean): RenderedCorpus {
  const errors = [...loadErrors];
  const warnings: Warning[] = [];
  const rendered = scenarios.map((s) => {
    const r = renderScenario(s, config.folds.get(s.fold)!, { everyEvent, ...(s.deploy && { deployed: config.folds.get(s.deploy.fold)! }) }, errors);
    warnings.push(...r.warnings);
    return r;
  });
  return { scenarios: rendered, errors, warnings };
}

/** Loads and renders the corpus on disk; errors are returned, not thrown. */
export function renderCorpus(config: CorpusConfig, opts: { everyEvent: boolean }): RenderedCorpus {
  const { scenarios, errors } = loadCorpus(config);
  return renderAll(scenarios, errors, config, opts.everyEvent);
}

/** The same from texts in memory (tests, benchmarks). */
export function renderTexts(files: { file: string; text: string }[], config: Omit<CorpusConfig, 'root' | 'scenariosDir'>, opts: { everyEvent: boolean }): RenderedCorpus {
  const { scenarios, errors } = loadTexts(files, config);
  return renderAll(scenarios, errors, config, opts.everyEvent);
}

/** Throws a CorpusError listing every error, or returns the rendered corpus. */
export function assertClean(corpus: RenderedCorpus): RenderedCorpus {
  if (corpus.errors.length) throw new CorpusError(corpus.errors);
  return corpus;
}
