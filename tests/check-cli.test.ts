/**
 * `npm run check` on the command line prints each error with a short code frame of the scenario
 * file (as the dev overlay shows it), exits 1, and `npm run fixtures` writes nothing.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeProject } from './support/project.ts';

const run = (dir: string, script: string) => {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  delete env.CI;
  const r = spawnSync('npm', ['run', '--silent', script], { cwd: dir, encoding: 'utf8', env });
  return { status: r.status ?? 1, output: `${r.stdout}\n${r.stderr}` };
};

describe('npm run check', () => {
  const dir = makeProject();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('shows a code frame under each error', () => {
    const file = join(dir, 'scenarios/01-birth-window.yaml');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('type: agent/llm-request-requested', 'type: agent/llm-request-requestd'));
    const line = original.split('\n').findIndex((l) => l.includes('type: agent/llm-request-requested')) + 1;
    const r = run(dir, 'check');
    expect(r.status).toBe(1);
    expect(r.output).toContain(`scenarios/01-birth-window.yaml:${line}:11 error: unknown event type \`agent/llm-request-requestd\``);
    expect(r.output).toContain('did you mean `agent/llm-request-requested`?');
    expect(r.output).toMatch(new RegExp(`\\n  > ${line} \\|     type: agent/llm-request-requestd\\n {5,}\\| {11}\\^`));
    expect(r.output).toContain('1 error in 1 file; nothing was written.');
    expect(r.output).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
    const f = run(dir, 'fixtures');
    expect(f.status).toBe(1);
    expect(f.output).toMatch(new RegExp(`  > ${line} \\|`));
  }, 120_000);
});
