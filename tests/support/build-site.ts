/**
 * Test support: builds one project copy the way `npm run build` does — Astro's programmatic build()
 * then pagefind over dist/ (which reads the copy's pagefind.yml) — without npm and its shell in
 * between. Run as `node tests/support/build-site.ts <dir>` by buildProject() in project.ts, in its own
 * process with a clean environment: a build in the test runner's process would see vitest's
 * variables (NODE_ENV=test, VITEST…) and share Astro's module state with the next build.
 * Exits 0 when both steps succeed; otherwise prints what failed and exits 1.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
// pagefind's own command-line wrapper (its package exports only the library entry, lib/index.js).
const pagefind = join(dirname(fileURLToPath(import.meta.resolve('pagefind'))), 'runner/bin.cjs');
const r = spawnSync(process.execPath, [pagefind, '--site', 'dist', '--silent'], { cwd: dir, stdio: 'inherit' });
process.exit(r.status ?? 1);
