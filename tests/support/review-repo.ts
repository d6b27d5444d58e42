/**
 * Test support: a throwaway copy of the project that is a git repository with two commits — the
 * bundled corpus with its fixtures ("base"), then a change that edits one request of
 * 02-sent-re-add (its fixture regenerated) — so a build with EXPLAINER_BASE=HEAD~1 has real
 * changes to show, as a pull-request build does. `pushChange` adds a further commit (a second push).
 *
 * The two commits are the same for every test file, so the run makes them ONCE (the global setup,
 * tests/support/global-setup.ts: createReviewRepo(), on first use) and each file gets a copy of that
 * repository (shared-review.ts: reviewRepo()) — the same commits, the same hashes, a folder of its own — instead
 * of a project copy, two commits and an `npm run fixtures` process per file. Likewise the one
 * pull-request preview of that change (buildPreviewIn(): `npm run preview:build` on branch `feature`
 * against `main`, the base commit, under /previews/pr-7/), which tests/preview-lifecycle.test.ts
 * publishes and tests/e2e/subpath.test.ts browses: one site build instead of one per file. A test
 * file reaches both through tests/support/shared-review.ts. The copies also share one cache of the
 * base commits' reports (createReviewRepo): a base reviewed by one of them is not run again by another.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv, makeProject, ROOT } from './project.ts';
import { runAsync } from './run-async.ts';

export const GIT_ENV = childEnv({
  CI: '',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.invalid',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.invalid',
});

export interface ReviewRepo {
  dir: string;
  git: (...args: string[]) => string;
  /** `npm run --silent <args>` in the repo; never throws. */
  npm: (args: string[], env?: Record<string, string>) => { status: number; stdout: string; stderr: string };
  /** The same without blocking this process (needed when it talks to a server running in this process). */
  npmAsync: (args: string[], env?: Record<string, string>) => Promise<{ status: number; stdout: string; stderr: string }>;
  /** Replaces `from` with `to` in a scenario file, regenerates the fixtures and commits. */
  pushChange: (file: string, from: string, to: string, message: string) => void;
}

/** `npm run --silent <args>` in `dir`, without blocking this process. */
async function npmAsyncIn(dir: string, args: string[], env: Record<string, string> = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  const r = await runAsync('npm', ['run', '--silent', ...args], { cwd: dir, env: { ...GIT_ENV, ...env } });
  return { status: r.code ?? 1, stdout: r.stdout, stderr: r.error ? `${r.stderr}\n${r.error}` : r.stderr };
}

/** The helpers of a review repository in `dir`. */
export function reviewRepoAt(dir: string): ReviewRepo {
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, env: GIT_ENV, encoding: 'utf8' });
  const npm = (args: string[], env: Record<string, string> = {}) => {
    const r = spawnSync('npm', ['run', '--silent', ...args], { cwd: dir, env: { ...GIT_ENV, ...env }, encoding: 'utf8' });
    return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
  };
  const pushChange = (file: string, from: string, to: string, message: string): void => {
    edit(dir, file, from, to);
    const fx = npm(['fixtures']);
    if (fx.status !== 0) throw new Error(fx.stdout + fx.stderr);
    git('add', '-A');
    git('commit', '-qm', message);
  };
  return { dir, git, npm, npmAsync: (args, env) => npmAsyncIn(dir, args, env), pushChange };
}

function edit(dir: string, file: string, from: string, to: string): void {
  const path = join(dir, 'scenarios', file);
  const text = readFileSync(path, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} does not contain ${JSON.stringify(from)}`);
  writeFileSync(path, text.replace(from, to));
}

/**
 * Makes the review repository (the two commits) in a new project copy and returns its folder —
 * asynchronously (the global setup's process serves the other files meanwhile). Throws with the
 * command's output when `npm run fixtures` fails.
 */
export async function createReviewRepo(): Promise<string> {
  const dir = makeProject();
  // The base commits' reports (src/review/base-report.ts keeps each in node_modules/.cache, by
  // commit and installed packages) shared by every copy of this repository: the copies have the
  // same commits, so a base one file's review ran is not run again by the next (the shared
  // preview's base, the change that two files review against). The cache's link is copied as it is.
  const reports = join(dir, REPORT_CACHE);
  mkdirSync(reports);
  symlinkSync(reports, join(dir, 'node_modules/.cache'));
  cpSync(join(ROOT, 'fixtures'), join(dir, 'fixtures'), { recursive: true });
  writeFileSync(join(dir, '.gitignore'), 'node_modules\ndist\n.astro\npreview-site\n');
  const { git } = reviewRepoAt(dir);
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'base');
  edit(dir, '02-sent-re-add.yaml', 'CHANGELOG line; migrations run', 'CHANGELOG entry; migrations run');
  const fx = await npmAsyncIn(dir, ['fixtures']);
  if (fx.status !== 0) throw new Error(`npm run fixtures failed in ${dir}:\n${fx.stdout}${fx.stderr}`);
  git('add', '-A');
  git('commit', '-qm', 'change');
  return dir;
}

/** Where the copies of a review repository keep the base commits' reports, together (createReviewRepo). */
const REPORT_CACHE = 'node_modules/.review-cache';

/** The caches Astro and Vite keep in a copy (node_modules/.astro, .vite…, and the project's own .astro): never carried into another folder; nor the shared report cache (reached through the link). */
const BUILD_CACHES = new Set(['node_modules/.astro', 'node_modules/.vite', 'node_modules/.vite-temp', '.astro', REPORT_CACHE]);

/** A copy of the repository in `from` (its commits, branches and working tree; node_modules' links as links) in a new temporary folder. */
export function copyRepo(from: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'pfe-review-'));
  cpSync(from, dir, { recursive: true, verbatimSymlinks: true, filter: (src) => !BUILD_CACHES.has(src.slice(from.length + 1)) });
  return dir;
}

/** The pull request the shared preview is of, and the production URL it was built for. */
export const PREVIEW_PR = 7;
export const PREVIEW_SITE_URL = 'https://explainer.example/';

/** `npm run preview:build` as pr.yml runs it, in `dir` (a review repository): branch `feature` (the change) opened against `main` (the base commit). */
export async function buildPreviewIn(dir: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const { git } = reviewRepoAt(dir);
  git('checkout', '-q', '-b', 'feature');
  git('branch', '-f', 'main', 'HEAD~1');
  return npmAsyncIn(dir, ['preview:build', '--', '--pr', String(PREVIEW_PR), '--base', 'main', '--site-url', PREVIEW_SITE_URL]);
}
