/**
 * Test support: packs the package the way `npm pack` does here — prepack's package build
 * (tools/package/build.ts), then npm's own packing by package.json `files` — but in a folder of
 * its own, never in this working tree (whose lib/ a concurrent `astro check` or biome would see
 * half written). Run as `node tests/support/pack-package.ts <dir>` by the tests' global setup
 * (tests/support/global-setup.ts → sharedPackage()), once per test run, in its own process: the
 * declarations' TypeScript program takes seconds of CPU that the runner's process must not block.
 * Into <dir>: package.json, README.md and examples/ (what `files` and npm name besides lib/),
 * lib/ built from src/, and the tarball; on stdout, npm's `npm pack --json` report of it (its
 * file list, entry count and sizes). Exits 1 with the error when the build or the pack fails.
 */
import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildPackage } from '../../tools/package/build.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = resolve(process.argv[2] ?? '.');
try {
  for (const f of ['package.json', 'README.md', 'examples']) cpSync(join(ROOT, f), join(dir, f), { recursive: true });
  buildPackage(join(dir, 'lib'));
  // --ignore-scripts: prepack's build is the line above (a test checks that prepack runs it).
  const report = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: dir, encoding: 'utf8' });
  process.stdout.write(report);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
