/**
 * Test support: the smallest astro config a project needs for the command line — `explainer()`
 * with its defaults, imported from this repository's sources by absolute URL (a temporary folder
 * has no node_modules). The commands refuse a folder without a config (src/cli/config.ts), so a
 * test that runs them in a throwaway folder writes this first.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ENTRY = pathToFileURL(resolve(import.meta.dirname, '../../src/package/index.ts')).href;

/** Writes `dir/astro.config.mjs` registering the explainer with its default options. */
export function writeHostConfig(dir: string): void {
  writeFileSync(join(dir, 'astro.config.mjs'), `import { explainer } from ${JSON.stringify(ENTRY)};\nexport default { integrations: [explainer()] };\n`);
}
