/**
 * The build's output folder, kept whole or not at all: a build that stops (on a scenario error in
 * the setup hook, or while the pages render) must leave neither the previous site in dist/ for a
 * sync to publish nor the pages it had written before it stopped (a preview or a copy of dist/
 * would serve half a site). So the setup hook clears it (when it lies inside the project) and stamps
 * the attempt as started; `astro:build:done` stamps it finished once every file is written. A
 * process that exits before that removes what the build wrote; and the sync refuses a dist/ whose
 * last build did not finish (src/sync/build-stamp.ts), whatever else wrote it.
 */
import { rmSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { writeStamp } from '../sync/build-stamp.ts';

/** Output folders of builds this process started and has not finished. */
const unfinished = new Set<string>();
let listening = false;

/** On exit, an unfinished build's output is removed: what it wrote is not a site. */
function removeUnfinished(): void {
  for (const dir of unfinished) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Left as it is: its build stamp still says it is not whole (src/sync/build-stamp.ts).
    }
  }
}

/** Clears `outDir` and stamps the build started; returns what marks it finished. */
export function startBuild(root: string, outDir: string): () => void {
  const rel = relative(root, outDir);
  const inside = rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep);
  // A folder outside the project is the user's to manage: never cleared, never removed.
  if (inside) {
    rmSync(outDir, { recursive: true, force: true });
    unfinished.add(outDir);
    if (!listening) {
      process.on('exit', removeUnfinished);
      listening = true;
    }
  }
  const started = new Date().toISOString();
  writeStamp(outDir, { started, finished: null });
  return () => {
    unfinished.delete(outDir);
    writeStamp(outDir, { started, finished: new Date().toISOString() });
  };
}
