/**
 * Files a page adds to the build beside itself — a scenario page's `data.json`, which it makes from
 * its page model while it renders (render/scenario-data.ts). Astro writes only what a route
 * returns, and a second route for the data would make every page model twice (Astro renders one
 * route's pages after another's, and the models are too large to keep them all). So the page hands
 * the file over here, and the integration writes them all into the output once the build is done
 * (`astro:build:done`, before the site is marked complete).
 * Shared through globalThis (shared-state.ts, keyed by the package version): the pages and the integration are different module instances.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sharedState } from './shared-state.ts';

const files = sharedState('page-files', () => new Map<string, string>());

/** Keeps `body` to be written at `path` (relative to the output directory, e.g. `scenarios/x/data.json`). */
export function addPageFile(path: string, body: string): void {
  files.set(path, body);
}

/** Writes the kept files into `outDir` (sorted, so the same build writes in the same order) and forgets them; returns how many. */
export function writePageFiles(outDir: string): number {
  const paths = [...files.keys()].sort();
  for (const path of paths) {
    const to = join(outDir, path);
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, files.get(path)!);
  }
  files.clear();
  return paths.length;
}
