/**
 * `npm run fixtures` (the prompt-fold bin's `fixtures` command, a child process) on scenario
 * folders a person could write by mistake: extreme numbers and time labels, and two files that
 * would write the same fixture. The command prints only file:line:column errors — no stack, no
 * RangeError — exits 1 and writes nothing. (The same checks in-process are in limits.test.ts and
 * outputs.test.ts; this file runs in the build project, as every test that spawns a command does.)
 * And `fixtures` and `check`, which take no arguments, refuse one instead of ignoring it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeHostConfig } from '../../tests/support/host-config.ts';

const command = (dir: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(process.cwd(), 'src/cli/prompt-fold.ts'), ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: '' } });
const fixtures = (dir: string) => command(dir, 'fixtures');

/** A one-request scenario with pieces replaced (the same text as limits.test.ts's). */
function scenario(p: { id?: string; off2?: string; t2?: string; request?: string } = {}): string {
  return [
    `id: ${p.id ?? 'one'}`,
    'title: One',
    'events:',
    '  - off: 1',
    '    t: 0ms',
    '    type: agents/context-added',
    '    payload: {role: user, content: hello}',
    `  - off: ${p.off2 ?? '2'}`,
    `    t: ${p.t2 ?? '1s'}`,
    '    type: agent/llm-request-requested',
    '    payload: {model: m}',
    'annotations:',
    `  - request: "${p.request ?? `@${p.off2 ?? '2'}`}"`,
    '    find: hello',
    '    comment: the user turn',
    '',
  ].join('\n');
}

/** The same scenario in the Markdown syntax (an events.yaml block). */
const markdown = (id: string): string =>
  ['# Two', '', 'Intro.', '', '<details>', '', '```yaml (events.yaml)', `id: ${id}`, ...scenario({ id }).split('\n').slice(2, 11), '```', '', '</details>', ''].join('\n');

describe('npm run fixtures on a folder of extreme scenarios', () => {
  it('prints only file:line:column errors (no stack, no RangeError), exits 1 and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pfe-limits-'));
    try {
      mkdirSync(join(dir, 'scenarios'));
      writeHostConfig(dir);
      writeFileSync(join(dir, 'scenarios/time.yaml'), scenario({ t2: '99999999999999999999999h' }));
      writeFileSync(join(dir, 'scenarios/off.yaml'), scenario({ id: 'off', off2: '1e300', request: '@1' }));
      writeFileSync(join(dir, 'scenarios/ref.yaml'), scenario({ id: 'ref', request: `@${'9'.repeat(30)}` }));
      writeFileSync(join(dir, 'scenarios/fine.yaml'), scenario({ id: 'fine' }));
      const r = fixtures(dir);
      const out = `${r.stdout}${r.stderr}`;
      expect(r.status).toBe(1);
      expect(out).not.toMatch(/RangeError|Invalid time value|\n\s+at /);
      expect(out).toMatch(/^scenarios\/time\.yaml:9:8 error: unparseable time label/m);
      expect(out).toMatch(/^scenarios\/off\.yaml:8:10 error: `off` must be ≤ 9007199254740991/m);
      expect(out).toMatch(/^scenarios\/ref\.yaml:13:14 error: `request` names offset 9{30}, beyond/m);
      expect(out).toMatch(/nothing was written\.\s*$/);
      expect(existsSync(join(dir, 'fixtures'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npm run fixtures with a.yaml and a.md', () => {
  it('fails naming both files and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pfe-outputs-'));
    try {
      mkdirSync(join(dir, 'scenarios'));
      writeHostConfig(dir);
      writeFileSync(join(dir, 'scenarios/a.yaml'), scenario({ id: 'a-yaml' }));
      writeFileSync(join(dir, 'scenarios/a.md'), markdown('a-md'));
      const r = fixtures(dir);
      expect(`${r.stdout}${r.stderr}`).toContain('scenarios/a.yaml and scenarios/a.md would both write the fixture a.md');
      expect(r.status).toBe(1);
      expect(existsSync(join(dir, 'fixtures')) ? readdirSync(join(dir, 'fixtures')) : []).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a command that takes no arguments', () => {
  it('refuses one with the fix instead of ignoring it: `fixtures --check` writes nothing, `check <file>` checks nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pfe-no-args-'));
    try {
      mkdirSync(join(dir, 'scenarios'));
      writeHostConfig(dir);
      writeFileSync(join(dir, 'scenarios/fine.yaml'), scenario({ id: 'fine' }));
      const f = command(dir, 'fixtures', '--check');
      expect([f.status, f.stdout]).toEqual([1, '']);
      expect(f.stderr).toMatch(
        /^npx prompt-fold fixtures takes no option --check\n {2}fix: it rewrites every fixture; to check them without writing, run `npx prompt-fold check`\n$/,
      );
      expect(existsSync(join(dir, 'fixtures'))).toBe(false);
      const c = command(dir, 'check', 'scenarios/fine.yaml');
      expect([c.status, c.stdout]).toEqual([1, '']);
      expect(c.stderr).toMatch(/^npx prompt-fold check takes no argument \(`scenarios\/fine\.yaml`\)\n {2}fix: it checks every scenario of the corpus/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
