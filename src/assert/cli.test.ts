// `prompt-fold assert` as a team's CI runs it (in a folder with no astro config): a capture whose
// prefix holds passes (exit 0) and one where the date in the system prompt breaks it fails (exit 1),
// in every reporter — text, JUnit XML, SARIF (validated against the SARIF 2.1.0 schema), GitHub
// annotations; bad input is exit 2 with no stack. The bin itself (src/cli/prompt-fold.ts → assert,
// a child process: its arguments, folder, output streams and exit code) runs in the first test and
// as the Python example's CI step runs it, on its shipped recordings; the other cases call what it runs, assertCommand
// (src/assert/command.ts), in this process with the bin's arguments, folder and version — the same
// exit codes and output, without a Node start and a module load per case.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { runAsync } from '../../tests/support/run-async.ts';
import { assertCommand } from './command.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'assert-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TRACE = readFileSync(join(ROOT, 'examples/traces/agent-session.anthropic.jsonl'), 'utf8');
writeFileSync(join(dir, 'broken.jsonl'), TRACE);
writeFileSync(join(dir, 'holds.jsonl'), `${TRACE.split('\n').slice(0, 3).join('\n')}\n`);
writeFileSync(join(dir, 'promises.yaml'), 'busts: []\n');

/** The bin, `prompt-fold assert <args>`, as a child process in `cwd`. */
const cli = (args: string[], cwd = dir) => runAsync(process.execPath, [join(ROOT, 'src/cli/prompt-fold.ts'), 'assert', ...args], { cwd });

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
/** What the bin runs (src/cli/assert.ts), in this process: the same exit code, stdout and stderr as cli()'s. */
async function inProcess(args: string[], cwd = dir): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await assertCommand(args, { cwd, out: (t) => (stdout += t), err: (t) => (stderr += t), version });
  return { code, stdout, stderr };
}

const schema = createRequire(import.meta.url)('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json') as object;
// The schema's `uri` and `date-time` formats are checked too (ajv-formats), not skipped with a warning.
const validSarif = addFormats(new Ajv({ strict: false, allErrors: true, unicodeRegExp: false })).compile(schema);

describe('npx prompt-fold assert', { timeout: 120_000 }, () => {
  it('text: exit 0 when the prefix holds, 1 with the located failure when a timestamp breaks it', async () => {
    const ok = await cli(['holds.jsonl', '--expect', 'promises.yaml']);
    expect(ok).toMatchObject({ code: 0, stderr: '' });
    expect(ok.stdout).toMatch(/^ok: every promise kept — 1 conversation, 3 requests/);
    const bad = await cli(['broken.jsonl', '--expect', 'promises.yaml']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^broken\.jsonl:4:1 error: request @4 busts the cached prefix of request @3/);
    expect(bad.stderr).toContain("Today's date: 2026-12-01.");
  });

  it('junit, sarif and github: the same verdicts in each format', async () => {
    const [jOk, jBad, sOk, sBad, gOk, gBad] = await Promise.all([
      inProcess(['holds.jsonl', '--expect', 'promises.yaml', '--reporter', 'junit']),
      inProcess(['broken.jsonl', '--expect', 'promises.yaml', '--reporter', 'junit']),
      inProcess(['holds.jsonl', '--expect', 'promises.yaml', '--reporter', 'sarif']),
      inProcess(['broken.jsonl', '--expect', 'promises.yaml', '--reporter', 'sarif', '--output', 'cache.sarif']),
      inProcess(['holds.jsonl', '--expect', 'promises.yaml', '--reporter', 'github']),
      inProcess(['broken.jsonl', '--expect', 'promises.yaml', '--reporter', 'github']),
    ]);
    expect(jOk.code).toBe(0);
    expect(jOk.stdout).toContain('<testsuites name="prompt-fold assert" tests="1" failures="0" errors="0">');
    expect(jBad.code).toBe(1);
    expect(jBad.stdout).toContain('<failure message="request @4 busts the cached prefix of request @3');
    expect(sOk.code).toBe(0);
    const kept = JSON.parse(sOk.stdout);
    expect(validSarif(kept), JSON.stringify(validSarif.errors)).toBe(true);
    expect(kept.runs[0].results).toEqual([]);
    expect(sBad.code).toBe(1);
    // With --output the text report still goes to the terminal.
    expect(sBad.stderr).toContain('error: request @4 busts');
    const broken = JSON.parse(readFileSync(join(dir, 'cache.sarif'), 'utf8'));
    expect(validSarif(broken), JSON.stringify(validSarif.errors)).toBe(true);
    expect(
      broken.runs[0].results.map((r: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }) => [
        r.ruleId,
        r.locations[0]!.physicalLocation.artifactLocation.uri,
        r.locations[0]!.physicalLocation.region.startLine,
      ]),
    ).toEqual([['busts', 'broken.jsonl', 4]]);
    expect(gOk).toMatchObject({ code: 0, stdout: expect.stringMatching(/^::notice::ok: every promise kept/) });
    expect(gBad.code).toBe(1);
    expect(gBad.stdout).toMatch(/^::error file=broken\.jsonl,line=4,col=1,title=cache promise broken%3A busts::request @4 busts/);
  });

  it('bad input: exit 2, located, no stack', async () => {
    writeFileSync(join(dir, 'bad.yaml'), 'busts: [@4]\n');
    const r = await inProcess(['broken.jsonl', '--expect', 'bad.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^bad\.yaml:1:\d+ error: /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const u = await inProcess(['--reporter', 'junit']);
    expect(u).toMatchObject({ code: 2, stderr: expect.stringContaining('usage: prompt-fold assert') });
  });
});

// The Python example (examples/python-pytest): its pytest suite records its model calls through a
// stub transport, and its CI step runs `prompt-fold assert` on the recordings.
describe('the Python example', { timeout: 180_000 }, () => {
  const example = join(ROOT, 'examples/python-pytest');
  const shipped = readdirSync(join(example, 'recorded')).sort();

  it('its shipped recordings keep the cache promises of its CI step', async () => {
    expect(shipped).toEqual(['test_answers_a_question.jsonl', 'test_fixes_a_failing_test.jsonl']);
    const r = await cli(['recorded/test_answers_a_question.jsonl', 'recorded/test_fixes_a_failing_test.jsonl', '--expect', 'cache-promises.yaml'], example);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^ok: every promise kept — 2 conversations, 5 requests, /);
  });

  const pytest = spawnSync('python3', ['-c', 'import pytest'], { stdio: 'ignore' }).status === 0;
  it('its pytest suite writes exactly the shipped recordings, and they pass', async (ctx) => {
    if (!pytest) ctx.skip('pytest is not installed here (python3 -c "import pytest" fails): only the shipped recordings were checked');
    const out = mkdtempSync(join(tmpdir(), 'assert-pytest-'));
    try {
      const run = spawnSync('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], {
        cwd: example,
        encoding: 'utf8',
        env: { ...process.env, PROMPT_FOLD_RECORDINGS: out, PYTHONDONTWRITEBYTECODE: '1' },
      });
      expect(run.status, run.stdout + run.stderr).toBe(0);
      expect(readdirSync(out).sort()).toEqual(shipped);
      for (const f of shipped) expect(readFileSync(join(out, f), 'utf8'), f).toBe(readFileSync(join(example, 'recorded', f), 'utf8'));
      const r = await inProcess([...shipped.map((f) => join(out, f)), '--expect', 'cache-promises.yaml'], example);
      expect(r).toMatchObject({ code: 0, stderr: '' });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
