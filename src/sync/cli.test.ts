// `npm run sync` as CI runs it (a child process): exit 0 on success, exit 1 with a one-paragraph
// message (no stack trace) on every mistake a person can fix.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dist } from '../../tests/support/sync-contract.ts';
import { siteV1, removeTempDirs, tempDir } from '../../tests/support/sync-sites.ts';

afterAll(removeTempDirs);

const ROOT = resolve(import.meta.dirname, '../..');

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['src/cli/prompt-fold.ts', 'sync', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

describe('npm run sync', () => {
  it('syncs to a directory, and --dry-run prints the plan', async () => {
    const d = dist(siteV1());
    const out = join(tempDir('cli'), 'www');
    const dry = await cli(['--target', `dir:${out}`, '--dist', d, '--dry-run']);
    expect(dry).toMatchObject({ code: 0, stderr: '' });
    expect(dry.stdout).toContain('(dry run: nothing will be changed)');
    expect(dry.stdout).toContain('upload:    7 (7 new)');
    expect(dry.stdout).toContain('upload    _astro/app.abc123.js  [assets, new]');
    const real = await cli(['--target', `dir:${out}`, '--dist', d]);
    expect(real).toMatchObject({ code: 0, stderr: '' });
    expect(real.stdout).toContain('done: uploaded 7, deleted 0, 0 unchanged');
    expect(real.stdout.split('_astro/app.abc123.js').length - 1, real.stdout).toBe(1); // each path once
    // Nothing changed: a dry run lists nothing but the counts, unless asked.
    const again = await cli(['--target', `dir:${out}`, '--dist', d, '--dry-run']);
    expect(again.stdout).toContain('upload:    0');
    expect(again.stdout).not.toContain('unchanged _astro/app.abc123.js');
    expect(again.stdout).toContain('(7 unchanged file(s) not listed; --verbose lists them)');
    const verbose = await cli(['--target', `dir:${out}`, '--dist', d, '--dry-run', '--verbose']);
    expect(verbose.stdout).toContain('unchanged _astro/app.abc123.js');
  }, 90_000);

  // Each case is a Node process that loads the CLI (about 2 s on a busy machine), so only one per kind
  // of failure here; the full list of validation messages is tested in-process (manifest, target tests).
  it('exits 1 with a clear message, no stack trace, on a missing dist, a bad target and a bad option', async () => {
    const out = `dir:${join(tempDir('cli'), 'www')}`;
    const cases: [string[], RegExp][] = [
      [['--target', out, '--dist', join(tempDir('cli'), 'missing')], /missing not found .*run `npm run build` first/],
      [['--target', 'ftp://x'], /"ftp:\/\/x" is not a target; use `dir:<path>` or `s3:\/\/<bucket>\/<prefix>`/],
      [['--target', out, '--force'], /Unknown option '--force'[\s\S]*usage: npm run sync/],
      [['--dry-run'], /--target is required/],
    ];
    for (const [args, message] of cases) {
      const run = await cli(args);
      expect({ args, code: run.code }).toEqual({ args, code: 1 });
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    }
  }, 120_000);

  it('prints usage with --help', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: npm run sync -- --target <target> [--dry-run [--verbose]] [--prune] [--endpoint <url>]');
  });
});
