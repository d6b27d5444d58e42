/**
 * `npm run check` on the command line prints each error with a short code frame of the scenario
 * file (as the dev overlay shows it), exits 1, and `npm run fixtures` writes nothing.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeProject } from './support/project.ts';
import { importTrace } from '../src/import/index.ts';
import { ANTHROPIC_RULES } from '../src/providers/anthropic/catalog.ts';

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
    writeFileSync(file, original);
  }, 120_000);

  it('prints the request lint: an error where the API would reject the request, a warning otherwise, each at the request event with its rule’s source', () => {
    const system = (date: string) => [
      { type: 'text', text: `You are careful. Today's date: ${date}. ${'Read the repository first. '.repeat(200)}`, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'The project rules.', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ];
    const first = [{ role: 'user', content: 'Find the failing test.' }];
    const second = [...first, { role: 'assistant', content: 'run.test.ts' }, { role: 'user', content: 'Fix it.' }];
    const trace = [
      { timestamp: '2026-08-24T16:41:00.000Z', body: { model: 'claude-sonnet-4-5', max_tokens: 100, system: system('2026-11-30'), messages: first } },
      { timestamp: '2026-08-24T16:42:00.000Z', body: { model: 'claude-sonnet-4-5', max_tokens: 100, system: system('2026-12-01'), messages: second } },
    ];
    const yaml = importTrace(`${trace.map((t) => JSON.stringify(t)).join('\n')}\n`, { file: 'traces/lint.jsonl', id: 'lint-demo' }).result!.yaml;
    const file = join(dir, 'scenarios/90-lint-demo.yaml');
    writeFileSync(file, yaml);
    try {
      const r = run(dir, 'check');
      expect(r.status).toBe(1);
      const caching = 'https://platform.claude.com/docs/en/build-with-claude/prompt-caching';
      const ttl = r.output.match(
        new RegExp(
          `scenarios/90-lint-demo\\.yaml:(\\d+):5 error: request @(\\d+): breakpoint 2 asks for a 1-hour entry after a shorter one \\(ttl-order: ${caching}, read ${ANTHROPIC_RULES.ttl1hMinutes.read}\\)`,
          'g',
        ),
      );
      expect(ttl).toHaveLength(2);
      expect(r.output).toContain('fix: mark the 1-hour breakpoints before the shorter ones');
      expect(r.output).toMatch(
        new RegExp(
          `scenarios/90-lint-demo\\.yaml:\\d+:5 warning: request @\\d+: a value that changes on every request sits inside the cached prefix: .*Today's date: 2026-12-01.* \\(volatile-prefix: ${caching}, read \\d{4}-\\d\\d-\\d\\d\\)`,
        ),
      );
      expect(r.output).toContain('2 errors in 1 file; nothing was written.');
    } finally {
      rmSync(file);
    }
  }, 120_000);
});
