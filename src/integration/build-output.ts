/**
 * The build's output folder, kept publishable only when whole: a build that stops (on a scenario
 * error in the setup hook, or later) must not leave the previous site in dist/ for a sync to
 * publish. So the setup hook clears it (when it lies inside the project) and stamps the attempt as
 * started; `astro:build:done` stamps it finished once every file is written. The sync refuses a
 * dist/ whose last build did not finish (src/sync/build-stamp.ts).
 */
import { rmSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { writeStamp } from '../sync/build-stamp.ts';

/** Clears `outDir` and stamps the build started; returns what marks it finished. */
export function startBuild(root: string, outDir: string): () => void {
  const rel = relative(root, outDir);
  if (rel && !rel.startsWith('..') && !rel.startsWith(sep)) rmSync(outDir, { recursive: true, force: true });
  const started = new Date().toISOString();
  writeStamp(outDir, { started, finished: null });
  return () => writeStamp(outDir, { started, finished: new Date().toISOString() });
}
