/**
 * The README's authoring chain for a new scenario, `npm run check && npm run fixtures && npm run
 * build`: a new scenario has no fixture yet, and writing it is the next step — `check` says so and
 * exits 0, `fixtures` writes it, and `check` is then clean. In CI (`CI` set) a missing fixture is
 * still an error, `fixtures` refuses to run (it rewrites committed files), and a stale fixture is an
 * error everywhere.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeProject, ROOT } from './support/project.ts';

const run = (dir: string, script: string, ci = false) => {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  delete env.CI;
  if (ci) env.CI = 'true';
  const r = spawnSync('npm', ['run', '--silent', script], { cwd: dir, encoding: 'utf8', env });
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
};

describe('a new scenario, checked before its fixture exists', () => {
  const dir = makeProject();
  cpSync(join(ROOT, 'fixtures'), join(dir, 'fixtures'), { recursive: true });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const fixture = join(dir, 'fixtures/40-new-scenario.md');
  // The bundled scenarios (every YAML or Markdown file in scenarios/), and the new one this test adds.
  const bundled = readdirSync(join(ROOT, 'scenarios')).filter((n) => /\.(ya?ml|md)$/.test(n)).length;
  const scenarios = bundled + 1;

  it('check: a notice with the next step, exit 0; in CI an error; fixtures writes it; then check is clean', () => {
    const source = readFileSync(join(dir, 'scenarios/01-birth-window.yaml'), 'utf8').replace(/^id: birth-window$/m, 'id: new-scenario');
    writeFileSync(join(dir, 'scenarios/40-new-scenario.yaml'), source);

    const first = run(dir, 'check');
    // Only the bundled corpus's request-lint warnings (src/request-lint/request-lint.ts), each citing its rule's source.
    const warning = /^scenarios\/[\w.-]+:\d+:\d+ warning: request @\d+.* \(([a-z]+(?:-[a-z]+)*): https:\/\/\S+, read \d{4}-\d\d-\d\d\)$/;
    expect(first.stderr.split('\n').filter((l) => l && !warning.test(l))).toEqual([]);
    expect(first.status).toBe(0);
    expect(bundled).toBeGreaterThan(0);
    expect(first.stdout).toMatch(new RegExp(`^ok: ${scenarios} scenarios, \\d+ requests, 1 new scenario has no fixture yet(, \\d+ warning\\(s\\))?\n`));
    expect(first.stdout).toContain('  missing: fixtures/40-new-scenario.md\n');
    expect(first.stdout).toContain('  next: run `npm run fixtures` to write it, and commit it with the scenario');
    expect(existsSync(fixture)).toBe(false); // check writes nothing

    const ci = run(dir, 'check', true);
    expect(ci.status).toBe(1);
    expect(ci.stderr).toContain('missing: fixtures/40-new-scenario.md');
    expect(ci.stderr).toContain('fix: run `npm run fixtures`');

    // `npm run fixtures` rewrites committed files: in CI it refuses, and writes nothing.
    const refused = run(dir, 'fixtures', true);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('npm run fixtures rewrites committed files and never runs in CI.');
    expect(refused.stderr).toContain('fix: run it locally and commit fixtures/');
    expect(existsSync(fixture)).toBe(false);

    expect(run(dir, 'fixtures').status).toBe(0);
    expect(existsSync(fixture)).toBe(true);
    const clean = run(dir, 'check');
    expect(clean.status).toBe(0);
    expect(clean.stdout).toMatch(new RegExp(`^ok: ${scenarios} scenarios, \\d+ requests, fixtures fresh(, \\d+ warning\\(s\\))?\n$`));
  }, 240_000);

  it('a stale fixture is still an error outside CI', () => {
    const f = join(dir, 'fixtures/01-birth-window.md');
    writeFileSync(f, `${readFileSync(f, 'utf8')}\nedited by hand\n`);
    const r = run(dir, 'check');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('stale: fixtures/01-birth-window.md');
  }, 120_000);
});
