/**
 * The scenario folder on disk: which files are scenarios (in site order) and the corpus loaded from
 * them. The only part of scenario loading that touches the file system — load.ts (texts in, corpus
 * out) stays free of node: imports so that the playground can run it in the browser.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTexts, type CorpusConfig, type LoadedCorpus } from './load.ts';

const SCENARIO_FILE = /\.(ya?ml|md)$/;

/** Scenario file paths relative to the root, sorted (the site's order). */
export function listScenarioFiles(config: CorpusConfig): string[] {
  const dir = join(config.root, config.scenariosDir);
  return readdirSync(dir).filter((n) => SCENARIO_FILE.test(n)).sort().map((n) => `${config.scenariosDir}/${n}`);
}

/** The scenario files read as texts, in site order. */
export function readScenarioFiles(config: CorpusConfig): { file: string; text: string }[] {
  return listScenarioFiles(config).map((file) => ({ file, text: readFileSync(join(config.root, file), 'utf8') }));
}

export function loadCorpus(config: CorpusConfig): LoadedCorpus {
  return loadTexts(readScenarioFiles(config), config);
}
