// A preview folder arrives as an artifact from the pull request's own run, so it is checked before
// use: its description, its change list and its site; and the preview commands refuse bad arguments
// and mismatched folders with a message, never a stack trace and never a partial publish.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../../tests/support/sync-sites.ts';
import { readPreview } from './build.ts';
import { parseReview, serializeReview } from './changes.ts';
import type { ReviewData } from '../review/review-data.ts';
import { prSummary } from '../review/summary.ts';
import { project, setProject } from '../project.ts';

afterAll(removeTempDirs);
const ROOT = resolve(import.meta.dirname, '../..');
const SHA = 'c'.repeat(40);

const changes = {
  ref: 'origin/main',
  commit: SHA,
  changed: true,
  scenarios: [
    {
      id: 'x',
      stem: '01-x',
      title: 'X',
      status: 'changed' as const,
      added: 1,
      removed: 1,
      requests: [{ offset: 4, status: 'changed' as const, before: ['secret prompt text'], diff: { rows: [], added: 1, removed: 1 }, droppedAnnotations: [] }],
    },
  ],
};

const figures = (input: number, cached: number, costUsd: number | null) => ({ inputTokens: input, cachedTokens: cached, costUsd, exact: true });
const review = (c: unknown = changes): ReviewData => ({
  changes: c as never,
  sides: new Map([
    ['x', { before: { kind: 'figures', requests: new Map([[4, figures(1000, 900, 0.001)]]) }, after: { kind: 'figures', requests: new Map([[4, figures(1019, 0, 0.004)]]) } }],
    ['y', { before: { kind: 'unknown', reason: 'the base commit has no `npm run report`' }, after: { kind: 'absent' } }],
  ]),
  rootCauses: [
    {
      kind: 'volatile',
      text: 'Current time: 2026-01-01T00:00:02Z',
      previous: 'Current time: 2026-01-01T00:00:01Z',
      message: 1,
      role: 'system',
      scenarios: [{ id: 'x', stem: '01-x', title: 'X', offsets: [4] }],
      tokensLost: 900,
      lostCostUsd: 0.003,
      responsible: [{ kind: 'fold-code', fold: 'context-protocol', files: ['src/builtin-folds/context-protocol/render.ts'] }],
    },
  ],
  expectations: [{ file: 'scenarios/01-x.yaml', line: 3, col: 10, message: 'request @4 busts the cache but `expect.busts` does not list it' }],
  lint: [
    {
      id: 'x',
      stem: '01-x',
      title: 'X',
      findings: [
        {
          offset: 4,
          rule: 'volatile-prefix',
          severity: 'warning',
          message: 'request @4: a value that changes on every request sits inside the cached prefix',
          source: {
            url: 'https://platform.claude.com/docs/en/build-with-claude/prompt-caching',
            read: '2026-12-01',
            rule: 'a change at one level invalidates that level and all after it',
          },
        },
      ],
    },
  ],
});
const serializeChanges = (c: unknown): string => serializeReview(review(c));

function folder(meta: unknown, change: string = serializeChanges(changes as never), site = true): string {
  const dir = join(tempDir('preview'), 'preview-site');
  mkdirSync(join(dir, 'site'), { recursive: true });
  if (site) writeFileSync(join(dir, 'site/index.html'), '<!doctype html>');
  writeFileSync(join(dir, 'preview.json'), typeof meta === 'string' ? meta : JSON.stringify(meta));
  writeFileSync(join(dir, 'changes.json'), change);
  return dir;
}
const good = { pr: 7, basePath: '/previews/pr-7/', base: { ref: 'origin/main', commit: SHA }, head: SHA };

describe('a preview folder', () => {
  it('reads back what preview:build wrote, without prompt text in the change list', () => {
    const p = readPreview(folder(good));
    expect(p.meta.pr).toBe(7);
    expect(p.review.changes.scenarios[0]!.requests[0]).toEqual({ offset: 4, status: 'changed', diff: { added: 1, removed: 1 }, droppedAnnotations: [] });
    expect(JSON.stringify(p.review.changes)).not.toContain('secret prompt text');
  });

  it('carries every figure, root cause and broken expectation the comment needs, exactly', () => {
    const p = readPreview(folder(good));
    const { changes: _c, ...rest } = review();
    expect({ sides: p.review.sides, rootCauses: p.review.rootCauses, expectations: p.review.expectations, lint: p.review.lint }).toEqual(rest);
    // The comment from the file is the comment from the data: the same renderer, the same figures.
    expect(prSummary(p.review, 'https://x.example')).toBe(prSummary({ ...review(), changes: p.review.changes }, 'https://x.example'));
  });

  it('carries why each scenario and request changed, and refuses a cause it does not know', () => {
    const why = [{ kind: 'options', changes: [{ name: 'x', before: '1', after: '2' }] }];
    const s = changes.scenarios[0]!;
    const withWhy = { ...changes, scenarios: [{ ...s, why, requests: [{ ...s.requests[0]!, why }] }] };
    const p = readPreview(folder(good, serializeChanges(withWhy as never)));
    expect(p.review.changes.scenarios[0]!.why).toEqual(why);
    expect(p.review.changes.scenarios[0]!.requests[0]!.why).toEqual(why);
    expect(prSummary(p.review, 'https://x.example')).toContain('\nWhy: fold option `x` changed: `1` → `2`\n');
    expect(() => readPreview(folder(good, serializeChanges(withWhy as never).replace('"options"', '"script"')))).toThrow(
      /not a review \(changes\.json\): changes\.scenarios\.0\.why\.0/,
    );
  });

  it('names the command as a host runs it (the bin): npx prompt-fold preview build', () => {
    const before = project();
    setProject({ host: true, configFile: 'astro.config.ts' });
    try {
      expect(() => readPreview(folder(good, '{"ref":"main"}'))).toThrow(/fix: rebuild the preview with `npx prompt-fold preview build` \(this version writes format 2\)/);
      expect(() => readPreview(folder(good, undefined, false))).toThrow(/fix: rebuild it with `npx prompt-fold preview build`/);
    } finally {
      setProject(before);
    }
  });

  it('is refused when its description, change list or site is not right', () => {
    const cases: [string, RegExp][] = [
      [folder('{'), /preview\.json: not JSON/],
      [folder({ ...good, pr: 0 }), /not a preview description/],
      [folder({ ...good, basePath: '/previews/pr-8/' }), /not a preview description \(pr, basePath ending \/previews\/pr-<pr>\/, head commit\)/],
      [folder({ ...good, head: 'HEAD' }), /not a preview description/],
      [folder(good, '{"version":2,"changes":{"ref":1}}'), /changes\.json: not a review \(changes\.json\): changes\.ref: /],
      [
        folder(good, '{"ref":"main"}'),
        /changes\.json: not a review \(changes\.json\): version: .*\n {2}fix: rebuild the preview with `npm run preview:build` \(this version writes format 2\)/,
      ],
      [folder(good, serializeChanges(changes as never).replace('"offset": 4', '"offset": -4')), /not a review \(changes\.json\): changes\.scenarios\.0\.requests\.0\.offset/],
      [
        folder(good, serializeChanges(changes as never).replace('"inputTokens": 1019', '"inputTokens": -1')),
        /not a review \(changes\.json\): sides\.0\.after\.requests\.0\.inputTokens/,
      ],
      [folder(good, serializeChanges(changes as never).replace('"volatile"', '"cosmic-ray"')), /not a review \(changes\.json\): rootCauses\.0\.kind/],
      [folder(good, serializeChanges(changes as never).replace('"line": 3', '"line": 0')), /not a review \(changes\.json\): expectations\.0\.line/],
      [folder(good, serializeChanges(changes as never).replace('"volatile-prefix"', '"vibes"')), /not a review \(changes\.json\): lint\.0\.findings\.0\.rule/],
      [folder(good, serializeChanges(changes as never).replace('"previous": "', `"previous": "${'x'.repeat(2000)}`)), /not a review \(changes\.json\): rootCauses\.0\.previous/],
      [folder(good, undefined, false), /site\/index\.html not found/],
    ];
    for (const [dir, message] of cases) expect(() => readPreview(dir), String(message)).toThrow(message);
    expect(() => parseReview('[]', 'c.json')).toThrow(/c\.json: not a review \(changes\.json\): \(root\)/);
  });
});

describe('npm run preview:*', () => {
  const cli = (args: string[]) =>
    spawnSync(process.execPath, ['src/cli/prompt-fold.ts', 'preview', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, EXPLAINER_BASE: '' } });

  it('exits 1 with a message and no stack trace on bad arguments and mismatched folders', () => {
    const dir = folder(good);
    const out = `dir:${join(tempDir('preview'), 'www')}`;
    const cases: [string[], RegExp][] = [
      [['publish', '--prebuilt', dir], /--target is required/],
      [['remove', '--pr', 'x7', '--target', out], /--pr "x7" is not a pull-request number/],
      [['publish', '--prebuilt', dir, '--pr', '8', '--target', out], /is the preview of #7, not #8; nothing was published/],
      [
        ['publish', '--prebuilt', dir, '--site-url', 'https://x.example/docs/', '--target', out],
        /was built for \/previews\/pr-7\/, but the preview of #7 is served at \/docs\/previews\/pr-7\//,
      ],
      [['build', '--pr', '7'], /missing --base <ref>/],
      [['frobnicate'], /unknown command "frobnicate"; use build, publish or remove/],
    ];
    for (const [args, message] of cases) {
      const r = cli(args);
      expect({ args, status: r.status }).toEqual({ args, status: 1 });
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const published = cli(['publish', '--prebuilt', dir, '--target', out]);
    expect(published.status, published.stderr).toBe(0);
    expect(published.stdout).toContain('preview of #7 published under /previews/pr-7/');
  }, 120_000);
});
