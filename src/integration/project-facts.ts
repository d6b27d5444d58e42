/**
 * The project facts (src/project.ts) read from a project root: the astro config file it has (the
 * first of Astro's names that exists) and whether it is a host site — its package.json names
 * another package than this one (this repository builds its own site with its npm scripts).
 * Called by the integration's config hook and by the command line's config reader.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ProjectFacts, setProject } from '../project.ts';

/** The config file names Astro looks for, in its order. */
export const CONFIG_FILES = ['astro.config.mjs', 'astro.config.js', 'astro.config.mts', 'astro.config.ts', 'astro.config.cjs', 'astro.config.cts'];

/** This package's name: a project root whose package.json has it is this repository. */
export const PACKAGE_NAME = 'prompt-fold-explainer';

export function readProjectFacts(root: string): ProjectFacts {
  let name: unknown;
  try {
    name = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name?: unknown }).name;
  } catch {
    name = undefined; // no package.json (or not JSON): not this repository
  }
  return { host: name !== PACKAGE_NAME, configFile: CONFIG_FILES.find((f) => existsSync(join(root, f))) ?? 'astro.config.mjs' };
}

/** Reads the facts of `root` and sets them for the process's messages. */
export function useProject(root: string): ProjectFacts {
  const facts = readProjectFacts(root);
  setProject(facts);
  return facts;
}
