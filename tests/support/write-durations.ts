/**
 * `npm run test:durations`: writes tests/support/durations.json — each test file's duration in
 * seconds from vitest's cache of the last run here — which tests/support/sequencer.ts reads where
 * that cache is absent (a fresh clone, as in CI) to start the longest files first. Run it after a
 * full `npm test` when the slow files have changed; it only orders files, so a stale entry costs
 * time, never a result.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './project.ts';

const CACHE = join(ROOT, 'node_modules/.vite/vitest');
type Results = { projects: Record<string, { files: Record<string, { duration: number }> }> };

const durations: Record<string, number> = {};
for (const d of readdirSync(CACHE, { withFileTypes: true }).filter((e) => e.isDirectory())) {
  let results: Results;
  try {
    results = JSON.parse(readFileSync(join(CACHE, d.name, 'results.json'), 'utf8')) as Results;
  } catch {
    continue;
  }
  for (const { files } of Object.values(results.projects)) for (const [file, r] of Object.entries(files)) durations[file] = Math.round(r.duration / 1000);
}
if (!Object.keys(durations).length) {
  console.error(`error: no test durations in ${CACHE}\n  fix: run the whole suite once (\`npm test\`), then this again`);
  process.exit(1);
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(join(ROOT, 'tests/support/durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`tests/support/durations.json: ${Object.keys(sorted).length} files`);
