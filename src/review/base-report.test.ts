/**
 * Reading the base commit's own report: the fields a review needs per file stem and offset, extra
 * fields ignored (the report grows), output that is not a report named as such; and the runtime
 * dependencies the base pins at versions other than the installed ones (then its figures would
 * not be its own); and the run itself on a tiny repository (export, sub-folder, clean-up, failure).
 * Running the real corpus's base is tested in tests/review-figures.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseFigures, dependencyMismatches, forgetBaseFigures, parseBaseReport, reportCacheFile, satisfies } from './base-report.ts';
import type { Figures } from './delta.ts';

describe('parseBaseReport', () => {
  it('keys figures by file stem and offset, tolerating extra fields', () => {
    const json = JSON.stringify({
      generated: 'x',
      scenarios: [
        {
          id: 'birth-window',
          file: 'scenarios/01-birth-window.yaml',
          requests: [{ offset: 21, model: 'm', exact: false, inputTokens: 663, cachedTokens: 0, costUsd: 0.00237, cacheWriteTokens: 5, cost: { input: 1 } }],
        },
        { id: 'md', file: 'scenarios/sub/02-notes.md', requests: [{ offset: 3, inputTokens: 10, cachedTokens: 5, costUsd: null }] },
      ],
    });
    const r = parseBaseReport(json);
    expect(r).toEqual(
      new Map<string, Map<number, Figures>>([
        ['01-birth-window', new Map([[21, { inputTokens: 663, cachedTokens: 0, costUsd: 0.00237, exact: false }]])],
        ['02-notes', new Map([[3, { inputTokens: 10, cachedTokens: 5, costUsd: null, exact: true }]])],
      ]),
    );
  });

  it('says what is wrong with output that is not a report', () => {
    expect(parseBaseReport('npm ERR! missing script: report')).toBe('its `npm run report -- --json` did not print JSON');
    expect(parseBaseReport('{"scenarios":[{"id":"a","file":"a.yaml","requests":[{"offset":1,"inputTokens":"many"}]}]}')).toBe(
      'its `npm run report -- --json` printed a report without per-request inputTokens, cachedTokens and costUsd',
    );
  });
});

describe('dependencyMismatches', () => {
  it('lists each runtime dependency pinned at another version than installed, sorted', () => {
    const installed = (name: string): string | undefined => ({ 'gpt-tokenizer': '4.0.0', yaml: '2.9.1' })[name];
    expect(dependencyMismatches({ dependencies: { yaml: '2.9.1', 'gpt-tokenizer': '3.0.0', zod: '4.6.7' } }, installed)).toEqual([
      'gpt-tokenizer@3.0.0 (installed: 4.0.0)',
      'zod@4.6.7 (installed: none)',
    ]);
    expect(dependencyMismatches({ dependencies: { yaml: '2.9.1' } }, installed)).toEqual([]);
    expect(dependencyMismatches({}, installed)).toEqual([]);
  });

  it('judges a range by the version the base’s lockfile records, else by the range itself', () => {
    const installed = (name: string): string | undefined => ({ 'gpt-tokenizer': '4.0.0', yaml: '2.9.1' })[name];
    expect(dependencyMismatches({ dependencies: { yaml: '^2.9.0', 'gpt-tokenizer': '~4.0.0' } }, installed)).toEqual([]);
    expect(dependencyMismatches({ dependencies: { yaml: '^2.10.0', 'gpt-tokenizer': '^3.0.0' } }, installed)).toEqual([
      'gpt-tokenizer@^3.0.0 (installed: 4.0.0)',
      'yaml@^2.10.0 (installed: 2.9.1)',
    ]);
    // The lockfile says what the base really ran: a range that admits the installed version is not enough.
    const locked = (name: string): string | undefined => ({ yaml: '2.9.2' })[name];
    expect(dependencyMismatches({ dependencies: { yaml: '^2.9.0' } }, installed, locked)).toEqual(['yaml@2.9.2 (installed: 2.9.1)']);
  });
});

describe('satisfies', () => {
  it('reads exact versions, caret and tilde ranges, and judges nothing else', () => {
    expect([satisfies('6.11.1', '^6.11.1'), satisfies('6.12.0', '^6.11.1'), satisfies('7.0.0', '^6.11.1'), satisfies('6.11.0', '^6.11.1')]).toEqual([true, true, false, false]);
    expect([satisfies('0.3.4', '^0.3.1'), satisfies('0.4.0', '^0.3.1')]).toEqual([true, false]);
    expect([satisfies('1.2.9', '~1.2.3'), satisfies('1.3.0', '~1.2.3')]).toEqual([true, false]);
    expect([satisfies('2.9.1', '2.9.1'), satisfies('2.9.2', '2.9.1')]).toEqual([true, false]);
    expect([satisfies('2.9.1', '>=2'), satisfies('2.9.1', 'latest'), satisfies('2.9.1-beta.1', '^2.9.0')]).toEqual([false, false, false]);
  });
});

describe('baseFigures on a real commit', () => {
  // A tiny repository whose project sits in a sub-folder, with a `report` script of its own: the
  // export, the run, its failure and the clean-up, without the cost of the real corpus.
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' },
    });
  let repo: string;
  let temp: string;
  const saved = { TMPDIR: process.env.TMPDIR, EXPLAINER_BASE: process.env.EXPLAINER_BASE };
  const commitReport = (script: string): string => {
    writeFileSync(join(repo, 'app/report.mjs'), script);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'x');
    return git(repo, 'rev-parse', 'HEAD').trim();
  };

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'pfe-base-test-'));
    temp = mkdtempSync(join(tmpdir(), 'pfe-base-tmp-'));
    mkdirSync(join(repo, 'app/node_modules/dep'), { recursive: true });
    writeFileSync(join(repo, '.gitignore'), 'node_modules\n');
    writeFileSync(join(repo, 'app/node_modules/dep/package.json'), '{"name":"dep","version":"1.0.0"}');
    writeFileSync(join(repo, 'app/package.json'), JSON.stringify({ name: 'app', private: true, scripts: { report: 'node report.mjs' }, dependencies: { dep: '1.0.0' } }));
    git(repo, 'init', '-q', '-b', 'main');
    process.env.TMPDIR = temp;
    process.env.EXPLAINER_BASE = 'HEAD~1';
  });
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(repo, { recursive: true, force: true });
    rmSync(temp, { recursive: true, force: true });
  });

  it("runs the base's own report in its sub-folder, without EXPLAINER_BASE, and leaves nothing behind", () => {
    const commit = commitReport(
      `import { existsSync } from 'node:fs';
if (process.env.EXPLAINER_BASE || !existsSync('node_modules/dep/package.json')) process.exit(9);
console.log(JSON.stringify({ scenarios: [{ id: 'a', file: 'scenarios/01-a.yaml', requests: [{ offset: 4, inputTokens: 1441, cachedTokens: 0, costUsd: 0.0036, exact: true }] }] }));
`,
    );
    const r = baseFigures(join(repo, 'app'), commit);
    expect(r).toEqual({ ok: true, commit, byStem: new Map([['01-a', new Map([[4, { inputTokens: 1441, cachedTokens: 0, costUsd: 0.0036, exact: true }]])]]) });
    // Once per commit: the same object, not a second run.
    expect(baseFigures(join(repo, 'app'), commit)).toBe(r);
    expect(readdirSync(temp).filter((n) => n.startsWith('pfe-base-'))).toEqual([]);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it('says why when the report fails, and still cleans up', () => {
    const commit = commitReport("console.error('Error: boom at the base'); process.exit(2);\n");
    expect(baseFigures(join(repo, 'app'), commit)).toEqual({ ok: false, commit, reason: 'its `npm run report` fails at the base (Error: boom at the base)' });
    expect(readdirSync(temp).filter((n) => n.startsWith('pfe-base-'))).toEqual([]);
  });

  it('keeps a report on disk for the next process, per commit and installed packages; never a failure', () => {
    const app = join(repo, 'app');
    const lock = join(app, 'node_modules/.package-lock.json');
    const report = (tokens: number): string =>
      JSON.stringify({ scenarios: [{ id: 'a', file: 'scenarios/01-a.yaml', requests: [{ offset: 4, inputTokens: tokens, cachedTokens: 0, costUsd: null }] }] });
    const tokensOf = (r: ReturnType<typeof baseFigures>): number | undefined => (r.ok ? r.byStem.get('01-a')?.get(4)?.inputTokens : undefined);
    try {
      writeFileSync(lock, '{"name":"app","packages":{"node_modules/dep":{"version":"1.0.0"}}}');
      const commit = commitReport(`console.log(${JSON.stringify(report(1441))});\n`);
      const file = reportCacheFile(app, commit)!;
      expect(file).toMatch(new RegExp(`node_modules/\\.cache/prompt-fold-explainer/base-reports/${commit}-[0-9a-f]{16}\\.json$`));
      expect(tokensOf(baseFigures(app, commit))).toBe(1441);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(report(1441)));
      // The next process reads the file instead of running the base (a changed file proves it).
      writeFileSync(file, report(7));
      forgetBaseFigures();
      expect(tokensOf(baseFigures(app, commit))).toBe(7);
      // Another install is another key: the base runs again.
      writeFileSync(lock, '{"name":"app","packages":{"node_modules/dep":{"version":"1.0.0","resolved":"elsewhere"}}}');
      forgetBaseFigures();
      expect(reportCacheFile(app, commit)).not.toBe(file);
      expect(tokensOf(baseFigures(app, commit))).toBe(1441);
      // A failed report is not kept.
      const failing = commitReport('process.exit(3);\n');
      expect(baseFigures(app, failing).ok).toBe(false);
      expect(existsSync(reportCacheFile(app, failing)!)).toBe(false);
      expect(readdirSync(join(app, 'node_modules/.cache/prompt-fold-explainer/base-reports')).filter((n) => n.endsWith('.part'))).toEqual([]);
    } finally {
      rmSync(lock, { force: true });
      rmSync(join(app, 'node_modules/.cache'), { recursive: true, force: true });
      forgetBaseFigures();
    }
  });

  it('keeps nothing without npm’s record of what is installed', () => {
    expect(reportCacheFile(join(repo, 'app'), 'a'.repeat(40))).toBeUndefined();
  });

  it('refuses a base that pins another version of a runtime dependency', () => {
    writeFileSync(join(repo, 'app/package.json'), JSON.stringify({ name: 'app', private: true, scripts: { report: 'node report.mjs' }, dependencies: { dep: '0.9.0' } }));
    const commit = commitReport('console.log("{}")\n');
    expect(baseFigures(join(repo, 'app'), commit)).toEqual({
      ok: false,
      commit,
      reason: 'the base pins other package versions than the ones installed here (dep@0.9.0 (installed: 1.0.0))',
    });
  });
});
