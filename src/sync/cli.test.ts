// `npm run sync` as CI runs it (a child process): exit 0 on success, exit 1 with a one-paragraph
// message (no stack trace) on every mistake a person can fix; and, against an S3 bucket (s3rver
// behind a proxy that can hang a request), a sync killed mid-upload leaves production whole.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dist } from '../../tests/support/sync-contract.ts';
import { brokenLinks, removeTempDirs, siteV1, siteV2, sitePart, snapshot, startProxy, startS3, tempDir, type FaultProxy, type S3Server } from '../../tests/support/sync-sites.ts';
import { sha256 } from './manifest.ts';
import { S3Target } from './targets/s3.ts';
import { runAsync } from '../../tests/support/run-async.ts';

afterAll(removeTempDirs);

const ROOT = resolve(import.meta.dirname, '../..');

const cli = (args: string[]) => runAsync(process.execPath, ['src/cli/prompt-fold.ts', 'sync', ...args], { cwd: ROOT });

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

describe('npm run sync to an S3 bucket', () => {
  const ENV = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
  let s3: S3Server;
  let proxy: FaultProxy;
  let n = 0;
  beforeAll(async () => {
    s3 = await startS3();
    proxy = await startProxy(s3.port);
  });
  afterAll(async () => {
    await proxy?.close();
    await s3?.close();
  });
  const freshSpec = (): { spec: string; prefix: string } => {
    const prefix = `run${++n}/site`;
    return { spec: `s3://${s3.bucket}/${prefix}`, prefix };
  };

  interface CliRun {
    code: number | null;
    signal: NodeJS.Signals | null;
    output: string;
  }
  function startCli(args: string[]) {
    const child = spawn(process.execPath, ['src/cli/prompt-fold.ts', 'sync', ...args], { cwd: ROOT, env: { ...process.env, ...ENV }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    const done = new Promise<CliRun>((r) => child.on('close', (code, signal) => r({ code, signal, output })));
    return { process: child, done, output: () => output };
  }
  const runCli = (args: string[]): Promise<CliRun> => startCli(args).done;

  it('a killed `npm run sync` leaves production whole; rerunning the command converges', async () => {
    const { spec, prefix } = freshSpec();
    const direct = new S3Target({ bucket: s3.bucket, prefix, client: s3.client });
    const d1 = dist(siteV1());
    const d2 = dist(siteV2());
    expect(await runCli(['--target', spec, '--endpoint', proxy.endpoint, '--dist', d1])).toMatchObject({ code: 0 });

    // The home page's upload never gets an answer; the process is killed while waiting for it.
    proxy.hung = new Promise((r) => {
      proxy.fault = (req) => {
        if (req.method === 'PUT' && req.path === `/${s3.bucket}/${prefix}/index.html`) {
          r(req);
          return 'hang';
        }
        return 'pass';
      };
    });
    const child = startCli(['--target', spec, '--endpoint', proxy.endpoint, '--dist', d2, '--prune']);
    await proxy.hung;
    child.process.kill('SIGKILL');
    expect(await child.done).toMatchObject({ signal: 'SIGKILL' });
    expect(child.output()).toContain('uploaded  _astro/app.def456.js');

    const between = await snapshot(direct);
    expect(between['index.html']).toBe(siteV1()['index.html']); // the old home page is live…
    expect(between['_astro/app.abc123.js']).toBeDefined(); // …with its old asset
    expect(between['_astro/app.def456.js']).toBeDefined(); // new pages that made it have theirs
    expect(brokenLinks(between)).toEqual([]);
    expect(JSON.parse(between['.sync-manifest.json']!).files['index.html'].sha256).toBe(sha256(siteV1()['index.html']!)); // still v1's manifest
    expect(between['.sync-pending.json']).toBeDefined();

    proxy.fault = () => 'pass';
    const rerun = await runCli(['--target', spec, '--endpoint', proxy.endpoint, '--dist', d2, '--prune']);
    expect(rerun.code).toBe(0);
    expect(rerun.output).toContain('an earlier sync');
    expect(sitePart(await snapshot(direct))).toEqual(siteV2());
    expect(await direct.read('.sync-pending.json')).toBeUndefined();
    const again = await runCli(['--target', spec, '--endpoint', proxy.endpoint, '--dist', d2, '--prune']);
    expect(again.output).toContain('done: uploaded 0, deleted 0');
  }, 120_000); // four Node processes; slow on a busy CI machine
});
