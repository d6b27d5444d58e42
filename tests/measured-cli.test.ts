/**
 * Measured usage on the command line: `npm run check` fails when a scenario's
 * `expect.maxMeasuredDiff` is broken (the bundled eviction trace, whose bill disagrees with the
 * model at @3), naming the limit's line:column; `npm run import` of a trace with malformed usage
 * exits 1 with the trace's line:column and the fix, and writes nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeProject, ROOT } from './support/project.ts';

const npm = (dir: string, args: string[]) => {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  delete env.CI;
  const r = spawnSync('npm', ['run', '--silent', ...args], { cwd: dir, encoding: 'utf8', env });
  return { status: r.status ?? 1, output: `${r.stdout}\n${r.stderr}` };
};

describe('measured usage on the command line', () => {
  const dir = makeProject();
  const tmp = mkdtempSync(join(tmpdir(), 'measured-cli-'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(tmp, { recursive: true, force: true });
  });

  it('npm run check fails on an expect.maxMeasuredDiff the bill breaks, at the limit entry', () => {
    const file = join(dir, 'scenarios/31-imported-eviction.yaml');
    const text = readFileSync(file, 'utf8').replace('expect:\n  busts: []\n', 'expect:\n  busts: []\n  maxMeasuredDiff: {cachedTokens: "2%"}\n');
    writeFileSync(file, text);
    const line = text.split('\n').findIndex((l) => l.includes('maxMeasuredDiff')) + 1;
    const r = npm(dir, ['check']);
    expect(r.status).toBe(1);
    expect(r.output).toMatch(
      new RegExp(
        `scenarios/31-imported-eviction\\.yaml:${line}:35 error: request @3: measured cachedTokens 0, modelled ≈[\\d,]+ \\([\\d,]+ on the provider's scale ×[\\d.]+\\) — a difference of −[\\d,]+, more than expect\\.maxMeasuredDiff\\.cachedTokens 2%; likely reason: eviction before the documented retention`,
      ),
    );
    expect(r.output).toContain('fix: if the bill is right and the model wrong');
    expect(r.output).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  }, 120_000);

  it('npm run import of malformed usage: exit 1, the trace line:column and the fix, nothing written', () => {
    const trace = join(tmp, 'bad-usage.jsonl');
    const line2 = JSON.stringify({ body: { model: 'gpt-5', messages: [{ role: 'user', content: 'q2' }] }, usage: { prompt_tokens: 'many' } });
    writeFileSync(trace, `${JSON.stringify({ body: { model: 'gpt-5', messages: [{ role: 'user', content: 'q' }] }, usage: { prompt_tokens: 9 } })}\n${line2}\n`);
    const out = join(tmp, 'bad-usage.yaml');
    const r = spawnSync(process.execPath, ['src/cli/prompt-fold.ts', 'import', trace, '--out', out], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `bad-usage\\.jsonl:2:${line2.indexOf('"many"') + 1} error: response usage: \`prompt_tokens\` must be a whole number of tokens \\(0 or more\\), got "many"\\n {2}fix: `,
      ),
    );
    expect(r.stderr).toContain('nothing was written');
    expect(existsSync(out)).toBe(false);
  }, 120_000);
});
