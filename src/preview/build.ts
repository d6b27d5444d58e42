/**
 * Builds a pull request's preview: the site compared with the merge-base of the pull request and
 * its base branch (EXPLAINER_BASE, so /changes/ and every changed pane show before/after), under the
 * preview's URL path (EXPLAINER_SITE_BASE=/…/previews/pr-<N>/), with `npm run build` itself — the
 * same build the tests run — as a review build (EXPLAINER_REVIEW=1, review/expectations.ts): broken
 * cache expectations are shown, not fatal, so the change that breaks the cache still gets its
 * review; an invalid scenario or a stale anchor still stops it (no trustworthy page to show).
 * The result is one folder, the unit that CI uploads as an artifact and `preview:publish
 * --prebuilt` syncs:
 *
 *   <out>/site/          the built site (moved from dist/)
 *   <out>/preview.json   {pr, basePath, url, base: {ref, commit}, head}
 *   <out>/changes.json   the review against the merge-base: changes, figures, causes, broken expectations
 *                        (for the comment; src/preview/changes.ts)
 *   <out>/summary.md     the pull-request comment, its links pointing into the preview (with --site-url)
 *
 * Nothing partial: the folder is assembled beside <out> and renamed into place at the end.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { resolveRef } from '../review/base.ts';
import { blockingErrors, REVIEW_ENV } from '../review/expectations.ts';
import { buildReview, type ReviewData } from '../review/review-data.ts';
import { prSummary } from '../review/summary.ts';
import { CorpusError } from '../scenarios/errors.ts';
import { SiteBaseError } from '../integration/site-base.ts';
import type { ExplainerConfig } from '../integration/options.ts';
import { renderCorpus } from '../corpus/check.ts';
import { parseReview, serializeReview } from './changes.ts';
import { previewBasePath, previewUrl } from './paths.ts';
import { runCommand } from '../project.ts';

export interface PreviewMeta {
  pr: number;
  /** The URL path the site was built for, e.g. /previews/pr-7/. */
  basePath: string;
  /** The preview's public URL, when the production URL was given. */
  url?: string;
  base: { ref: string; commit: string };
  /** The commit the preview was built from. */
  head: string;
}

export const META_FILE = 'preview.json';
export const SUMMARY_FILE = 'summary.md';
export const CHANGES_FILE = 'changes.json';
export const SITE_DIR = 'site';

export interface BuildPreviewOptions {
  /** The project's explainer config (its root is where the build runs). */
  config: ExplainerConfig;
  pr: number;
  /** The pull request's base branch (e.g. origin/main); the build compares with its merge-base. */
  baseRef: string;
  /** The production site's URL; the preview is at <it>previews/pr-<N>/. */
  siteUrl?: string;
  /** Output folder, relative to root. Default `preview-site`. */
  out?: string;
  log?: (line: string) => void;
}

function git(root: string, args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** The commit where HEAD left `baseRef`: what the pull request's fixtures are compared with. */
export function mergeBase(root: string, baseRef: string): string {
  const base = resolveRef(root, baseRef);
  try {
    return git(root, ['merge-base', base, 'HEAD']);
  } catch {
    throw new SiteBaseError(`no merge-base between ${baseRef} and HEAD: they share no history`, {
      fix: `fetch the full history (\`git fetch --unshallow\`, or actions/checkout with fetch-depth: 0)`,
    });
  }
}

/** Renames, or copies and removes when `to` is on another file system (CI writes the folder to its temp disk). */
function move(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    cpSync(from, to, { recursive: true });
    rmSync(from, { recursive: true, force: true });
  }
}

/** Refuses to replace a folder that is not an earlier preview (so `--out .` can never wipe a project). */
function assertReplaceable(dir: string): void {
  if (!existsSync(dir)) return;
  const entries = readdirSync(dir);
  if (entries.length && !entries.includes(META_FILE)) {
    throw new SiteBaseError(`${dir} exists and is not a preview folder (no ${META_FILE})`, { fix: `pick an empty or new --out folder` });
  }
}

export async function buildPreview(options: BuildPreviewOptions): Promise<PreviewMeta> {
  const log = options.log ?? ((l: string) => console.error(l));
  const root = resolve(options.config.root);
  const out = resolve(root, options.out ?? 'preview-site');
  assertReplaceable(out);
  const basePath = previewBasePath(options.pr, options.siteUrl);
  const commit = mergeBase(root, options.baseRef);
  const head = git(root, ['rev-parse', 'HEAD']);
  log(`preview of #${options.pr}: building ${head.slice(0, 7)} against merge-base ${commit.slice(0, 7)} (${options.baseRef}) under ${basePath}`);
  const r = spawnSync('npm', ['run', 'build'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    // BASE_URL in the environment (a test runner's) would override Astro's base: drop it.
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'BASE_URL')),
      EXPLAINER_BASE: commit,
      EXPLAINER_SITE_BASE: basePath,
      [REVIEW_ENV]: '1',
      ASTRO_TELEMETRY_DISABLED: '1',
    },
  });
  if (r.status !== 0) throw new SiteBaseError(`the preview build failed (its output is above); nothing was written to ${out}`);

  const meta: PreviewMeta = {
    pr: options.pr,
    basePath,
    ...(options.siteUrl ? { url: previewUrl(options.pr, options.siteUrl) } : {}),
    base: { ref: options.baseRef, commit },
    head,
  };
  const review = await reviewFor(options.config, meta);
  const summary = meta.url ? prSummary(review, meta.url) : undefined;
  const staging = `${out}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  move(join(root, 'dist'), join(staging, SITE_DIR));
  writeFileSync(join(staging, META_FILE), `${JSON.stringify(meta, null, 2)}\n`);
  writeFileSync(join(staging, CHANGES_FILE), serializeReview(review));
  if (summary !== undefined) writeFileSync(join(staging, SUMMARY_FILE), summary);
  rmSync(out, { recursive: true, force: true });
  renameSync(staging, out);
  log(`preview of #${options.pr} ready in ${out}${meta.url ? ` (for ${meta.url}/)` : ''}`);
  if (review.expectations.length)
    log(
      `${review.expectations.length} broken cache expectation(s): the preview and its comment show them; \`${runCommand('check')}\` (and the pull request's check) fails on them`,
    );
  return meta;
}

/** The review against the merge-base (what the comment says); broken expectations are part of it, other errors stop it. */
async function reviewFor(config: ExplainerConfig, meta: PreviewMeta): Promise<ReviewData> {
  const corpus = await renderCorpus(config, { everyEvent: false });
  const blocking = blockingErrors(corpus, true);
  if (blocking.length) throw new CorpusError(blocking);
  return buildReview(config, corpus, meta.base.commit, meta.base.ref);
}

/** Reads and checks a built preview folder (an artifact from another workflow: untrusted until checked). */
export function readPreview(dir: string): { meta: PreviewMeta; site: string; review: ReviewData; summary?: string } {
  const file = join(dir, META_FILE);
  let meta: PreviewMeta;
  try {
    meta = JSON.parse(readFileSync(file, 'utf8')) as PreviewMeta;
  } catch (err) {
    throw new SiteBaseError(`${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : `not JSON (${(err as Error).message})`}`, {
      fix: `pass the folder \`${runCommand('preview:build')}\` wrote (default preview-site)`,
    });
  }
  const ok =
    meta &&
    typeof meta === 'object' &&
    Number.isSafeInteger(meta.pr) &&
    meta.pr > 0 &&
    typeof meta.basePath === 'string' &&
    meta.basePath.endsWith(`/previews/pr-${meta.pr}/`) &&
    typeof meta.head === 'string' &&
    /^[0-9a-f]{40}$/.test(meta.head);
  if (!ok)
    throw new SiteBaseError(`${file}: not a preview description (pr, basePath ending /previews/pr-<pr>/, head commit)`, {
      fix: `rebuild it with \`${runCommand('preview:build')}\``,
    });
  const site = join(dir, SITE_DIR);
  if (!existsSync(join(site, 'index.html')))
    throw new SiteBaseError(`${site}/index.html not found: the preview folder has no built site`, { fix: `rebuild it with \`${runCommand('preview:build')}\`` });
  const changesFile = join(dir, CHANGES_FILE);
  if (!existsSync(changesFile)) throw new SiteBaseError(`${changesFile} not found`, { fix: `rebuild the preview with \`${runCommand('preview:build')}\`` });
  const review = parseReview(readFileSync(changesFile, 'utf8'), changesFile);
  const summaryFile = join(dir, SUMMARY_FILE);
  return { meta, site, review, ...(existsSync(summaryFile) ? { summary: readFileSync(summaryFile, 'utf8') } : {}) };
}
