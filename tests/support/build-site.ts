/**
 * Test support: builds one project copy the way `npm run build` does — Astro's programmatic build(),
 * whose explainer integration also writes the search index when the build is done — without npm
 * and its shell in between. Run as `node tests/support/build-site.ts <dir>` by buildSite() in
 * project.ts, in its own process with a clean environment: a build in the test runner's process
 * would see vitest's variables (NODE_ENV=test, VITEST…) and share Astro's module state with the
 * next build. Exits 0 when the build succeeds; otherwise prints what failed and exits 1.
 */
import { resolve } from 'node:path';

const dir = resolve(process.argv[2] ?? '.');
process.chdir(dir);
const { build } = await import('astro');
try {
  await build({ root: dir });
} catch (err) {
  // The same text `astro build` prints for a failed build: the message (a CorpusError is already
  // `file:line:column error: … fix: …`), no stack trace.
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
process.exit(0);
