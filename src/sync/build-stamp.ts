/**
 * The build stamp: when the last `astro build` started and whether it finished, so a sync never
 * publishes a dist/ that a failed build left behind. The integration writes it (start: also clears
 * dist/, so a build stopped by a scenario error leaves no old site; done: `astro:build:done`);
 * the sync reads it and refuses a dist/ whose last build did not finish. Kept in `.astro/` beside
 * dist/ (Astro's own, git-ignored cache folder), never inside dist/ (it would be published).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export interface BuildStamp {
  /** ISO instant the last build started. */
  started: string;
  /** ISO instant it finished; null while running or when it failed. */
  finished: string | null;
}

const FILE = 'prompt-fold-explainer-build.json';

/** Where the stamp of the site built into `dist` lives: `.astro/` beside it. */
export const stampPath = (dist: string): string => join(dirname(resolve(dist)), '.astro', FILE);

export function writeStamp(dist: string, stamp: BuildStamp): void {
  const path = stampPath(dist);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(stamp)}\n`);
}

export function readStamp(dist: string): BuildStamp | undefined {
  const path = stampPath(dist);
  if (!existsSync(path)) return undefined;
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as BuildStamp;
    return typeof v.started === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Why `dist` must not be published, or undefined when its last build finished (or none is recorded). */
export function unfinishedBuild(dist: string): string | undefined {
  const s = readStamp(dist);
  if (!s || s.finished !== null) return undefined;
  return (
    `sync: the last build (started ${s.started}) did not finish, so ${dist} may be an older site or a partial one. ` +
    'Nothing was sent. Fix the build error and run `npm run build` again, then sync.'
  );
}
