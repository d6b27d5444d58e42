/**
 * A site's first run, before its scenario folder exists: an empty corpus and a notice naming the
 * folder, the option and the fix — from the code and from `check` and `fixtures` on the command
 * line (exit 0, no stack) — never a raw ENOENT; a scenario "folder" that is a file is an error.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../errors.ts';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { listScenarioFiles, missingScenariosNotice } from './files.ts';
import { writeHostConfig } from '../../tests/support/host-config.ts';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));
const config = (scenariosDir = 'scenarios') => ({ root, scenariosDir, timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' });

describe('no scenario folder yet', () => {
  it('lists no files, and the notice names the folder, the option and both fixes', () => {
    root = mkdtempSync(join(tmpdir(), 'pfe-first-'));
    expect(listScenarioFiles(config())).toEqual([]);
    const notice = missingScenariosNotice(config())!;
    expect(notice).toContain(`the scenario folder scenarios/ (the \`scenarios\` option) does not exist in ${root}`);
    expect(notice).toMatch(/fix: create scenarios\/ and add a scenario file to it .*, or set `scenarios:` in astro\.config\.mjs/);
  });

  it('no notice once the folder exists', () => {
    root = mkdtempSync(join(tmpdir(), 'pfe-first-'));
    expect(missingScenariosNotice(config('.'))).toBeUndefined();
  });

  it('a file where the folder should be is an error that says so', () => {
    root = mkdtempSync(join(tmpdir(), 'pfe-first-'));
    writeFileSync(join(root, 'scenarios'), 'not a folder');
    let err: unknown;
    try {
      listScenarioFiles(config());
    } catch (e) {
      err = e;
    }
    expect(UserError.is(err)).toBe(true);
    expect((err as Error).message).toContain('the scenario folder scenarios (the `scenarios` option) is a file, not a folder');
  });

  it('check and fixtures succeed on the empty corpus, printing the notice without a stack', () => {
    root = mkdtempSync(join(tmpdir(), 'pfe-first-'));
    writeHostConfig(root);
    for (const cli of ['check', 'fixtures']) {
      const r = spawnSync(process.execPath, [join(process.cwd(), 'src/cli/prompt-fold.ts'), cli], { cwd: root, encoding: 'utf8', env: { ...process.env, CI: '' } });
      expect(r.stderr).toContain('no scenarios yet: the scenario folder scenarios/ (the `scenarios` option) does not exist');
      // a folder without a package.json of this package is a host: its config file and its command line
      expect(r.stderr).toContain('or set `scenarios:` in astro.config.mjs');
      expect(r.stderr).not.toMatch(/ENOENT|\n\s+at /);
      expect(r.status, `${cli}: ${r.stderr}`).toBe(0);
    }
  });
});
