/**
 * Scenario files that are symlinks out of the project are refused with a clear error (the corpus
 * is the project's own files); a link that stays inside the project loads like any file.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { CorpusError } from './errors.ts';
import { listScenarioFiles } from './files.ts';
import { writeHostConfig } from '../../tests/support/host-config.ts';
import { thrown } from '../../tests/support/thrown.ts';

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const SCENARIO = ['id: one', 'title: One', 'events:', '  - off: 1', '    t: 0ms', '    type: agents/context-added', '    payload: {role: user, content: hello}', ''].join('\n');

function project(): { root: string; outside: string } {
  const base = mkdtempSync(join(tmpdir(), 'pfe-links-'));
  temps.push(base);
  const root = join(base, 'project');
  const outside = join(base, 'elsewhere');
  mkdirSync(join(root, 'scenarios'), { recursive: true });
  mkdirSync(join(root, 'examples'));
  writeHostConfig(root);
  mkdirSync(outside);
  writeFileSync(join(outside, 'stolen.yaml'), SCENARIO.replace('id: one', 'id: stolen'));
  writeFileSync(join(root, 'examples', 'inside.yaml'), SCENARIO.replace('id: one', 'id: inside'));
  writeFileSync(join(root, 'scenarios', 'a.yaml'), SCENARIO);
  return { root, outside };
}
const config = (root: string) => ({ root, scenariosDir: 'scenarios', timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' });

describe('scenario files that are symlinks', () => {
  it('a link inside the project is listed like a file', () => {
    const { root } = project();
    symlinkSync(join(root, 'examples', 'inside.yaml'), join(root, 'scenarios', 'b.yaml'));
    expect(listScenarioFiles(config(root))).toEqual(['scenarios/a.yaml', 'scenarios/b.yaml']);
  });

  it('a link out of the project (or dangling) is refused, naming each file', () => {
    const { root, outside } = project();
    symlinkSync(join(outside, 'stolen.yaml'), join(root, 'scenarios', 'c.yaml'));
    symlinkSync(join(outside, 'missing.yaml'), join(root, 'scenarios', 'd.yaml'));
    const err = thrown(() => listScenarioFiles(config(root)));
    expect(err).toBeInstanceOf(CorpusError);
    expect((err as CorpusError).message).toMatch(
      /^scenarios\/c\.yaml:1:1 error: scenarios\/c\.yaml is a symlink to .*elsewhere\/stolen\.yaml, outside the project\n {2}fix: copy the scenario into the scenarios folder/,
    );
    expect((err as CorpusError).message).toMatch(/scenarios\/d\.yaml:1:1 error: scenarios\/d\.yaml is a symlink to .*missing\.yaml, which does not exist/);
  });

  it('npm run check and npm run fixtures print the error (no stack) and exit 1, writing nothing', () => {
    const { root, outside } = project();
    symlinkSync(join(outside, 'stolen.yaml'), join(root, 'scenarios', 'c.yaml'));
    for (const cli of ['check', 'fixtures']) {
      const r = spawnSync(process.execPath, [join(process.cwd(), 'src/cli/prompt-fold.ts'), cli], { cwd: root, encoding: 'utf8', env: { ...process.env, CI: '' } });
      expect(r.stderr).toMatch(/scenarios\/c\.yaml:1:1 error: scenarios\/c\.yaml is a symlink to .*, outside the project/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.status).toBe(1);
    }
    expect(existsSync(join(root, 'fixtures'))).toBe(false);
  });
});
