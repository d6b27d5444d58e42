/**
 * build-output.ts in a process of its own (what it does happens when a process exits): a build
 * that stops before `astro:build:done` leaves no output folder; a finished one keeps it; a folder
 * outside the project is never cleared or removed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { stampPath } from '../sync/build-stamp.ts';

const MODULE = pathToFileURL(join(import.meta.dirname, 'build-output.ts')).href;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Runs `body` in a fresh Node process with `startBuild` imported; returns its exit status. */
function inProcess(body: string): number | null {
  const script = `import { startBuild } from ${JSON.stringify(MODULE)};\nimport { writeFileSync, mkdirSync } from 'node:fs';\n${body}`;
  const r = spawnSync(process.execPath, ['--input-type=module', '--eval', script], { encoding: 'utf8' });
  if (r.error) throw r.error;
  return r.status;
}

function project(): { root: string; out: string } {
  const root = mkdtempSync(join(tmpdir(), 'pfe-build-output-'));
  dirs.push(root);
  const out = join(root, 'dist');
  mkdirSync(out);
  writeFileSync(join(out, 'old.html'), 'the site built before');
  return { root, out };
}

describe('the build output folder', () => {
  it('is removed, old site and new pages alike, when the process exits before the build finishes', () => {
    const { root, out } = project();
    const status = inProcess(
      `startBuild(${JSON.stringify(root)}, ${JSON.stringify(out)});\n` +
        `mkdirSync(${JSON.stringify(join(out, 'a'))}, { recursive: true });\n` +
        `writeFileSync(${JSON.stringify(join(out, 'a', 'index.html'))}, 'a page rendered before the failing one');\n` +
        'process.exit(1);',
    );
    expect(status).toBe(1);
    expect(existsSync(out)).toBe(false);
    expect(JSON.parse(readFileSync(stampPath(out), 'utf8')).finished).toBeNull();
  });

  it('keeps what a finished build wrote, and stamps it finished', () => {
    const { root, out } = project();
    const status = inProcess(
      `const finish = startBuild(${JSON.stringify(root)}, ${JSON.stringify(out)});\n` +
        `mkdirSync(${JSON.stringify(out)});\n` +
        `writeFileSync(${JSON.stringify(join(out, 'index.html'))}, 'the new site');\n` +
        'finish();',
    );
    expect(status).toBe(0);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('the new site');
    expect(existsSync(join(out, 'old.html')), 'cleared when the build started').toBe(false);
    expect(JSON.parse(readFileSync(stampPath(out), 'utf8')).finished).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('never clears or removes a folder outside the project', () => {
    const { root: elsewhere, out } = project();
    const root = join(elsewhere, 'project');
    mkdirSync(root);
    const status = inProcess(`startBuild(${JSON.stringify(root)}, ${JSON.stringify(out)});\nprocess.exit(1);`);
    expect(status).toBe(1);
    expect(readFileSync(join(out, 'old.html'), 'utf8')).toBe('the site built before');
  });
});
