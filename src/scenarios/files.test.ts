/**
 * A site's first run, before its scenario folder exists: an empty corpus and a notice naming the
 * folder, the option and the fix — from the code and from `check` and `fixtures` on the command
 * line (exit 0, no stack) — never a raw ENOENT; a scenario "folder" that is a file is an error; a
 * scenario file too large for one string is a located error.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../errors.ts';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { CorpusError, formatError } from './errors.ts';
import { listScenarioFiles, MAX_WHOLE_BYTES, missingScenariosNotice, readScenarioFiles } from './files.ts';
import { writeHostConfig } from '../../tests/support/host-config.ts';
import { thrown } from '../../tests/support/thrown.ts';

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
    const err = thrown(() => listScenarioFiles(config()));
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

describe('a scenario file too large to read', () => {
  it('larger than one string can hold is a located error, not Node’s "Cannot create a string longer than …"', () => {
    root = mkdtempSync(join(tmpdir(), 'pfe-huge-'));
    mkdirSync(join(root, 'scenarios'));
    writeFileSync(join(root, 'scenarios/a.yaml'), 'id: a\n');
    writeFileSync(join(root, 'scenarios/b.yaml'), '');
    truncateSync(join(root, 'scenarios/b.yaml'), MAX_WHOLE_BYTES + 1); // sparse: no disk blocks written
    const err = thrown(() => readScenarioFiles(config()));
    expect(err).toBeInstanceOf(CorpusError);
    expect((err as CorpusError).errors.map(formatError)).toEqual([
      'scenarios/b.yaml:1:1 error: the file is 536.9 MB: more than one text can hold here (536.9 MB)\n  fix: a scenario is a conversation as written or imported (an imported one of 2,000 requests is under 1 MB): split it, or take this file out of the scenarios folder',
    ]);
  });
});
