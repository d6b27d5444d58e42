/**
 * A pull request's whole life, step by step as the workflows run it (the same npm commands, in
 * child processes), against a real S3-compatible server (s3rver) and a stand-in for the GitHub API:
 *
 *   production is live at s3://bucket/prod (the tests' shared build, synced; another PR's preview, pr-70, beside this one's)
 *   pr.yml        npm run preview:build   — the site at /previews/pr-7/, compared with the merge-base
 *   preview.yml   npm run preview:publish — --prebuilt, after checking PR #7's head with GitHub
 *                 npm run pr-comment      — the one summary comment; each link is a page in the bucket
 *   a second push → rebuild and republish in one command (preview:publish --pr --base, which builds):
 *                 only the changed files go up; the comment is updated, not added
 *   a stale run (old head) is refused; closing: npm run preview:remove — pr-7 gone, nothing else touched
 *   and the built preview published to a dir: target, then removed
 * Two site builds in all (production is the tests' shared build): the first push's preview:build —
 * the run's shared preview (tests/support/review-repo.ts: the same command on the same two commits,
 * which tests/e2e/subpath.test.ts browses), whose repository this file copies — and the second
 * push's one-command publish.
 */
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUMMARY_MARKER } from '../src/review/summary.ts';
import { startFakeGitHub, type FakeGitHub } from './support/fake-github.ts';
import { publishPreview } from '../src/preview/publish.ts';
import { dist } from './support/sync-contract.ts';
import { openTarget } from '../src/sync/target.ts';
import { removeTempDirs, siteV1, startS3, tempDir, type S3Server } from './support/sync-sites.ts';
import { copyRepo, PREVIEW_PR, PREVIEW_SITE_URL, type ReviewRepo, reviewRepoAt } from './support/review-repo.ts';
import { sharedPreview } from './support/shared-review.ts';
import { sharedBuildDir } from './support/shared-site.ts';

const SITE = PREVIEW_SITE_URL;
const AWS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
let repo: ReviewRepo;
let s3: S3Server;
let github: FakeGitHub;
let target: string;
let env: Record<string, string>;
/** pr.yml's `npm run preview:build` of the first push (the shared preview's). */
let firstBuild: { status: number; stdout: string; stderr: string };
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  // The in-process publish of pr-70 reads credentials from the environment, as the CLI does.
  for (const [k, v] of Object.entries(AWS)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  // The pull request: branch `feature` (the change), opened against `main` (the base commit), its
  // first push built by pr.yml's step (`npm run preview:build -- --pr 7 --base main --site-url …`)
  // into preview-site/: the run's shared preview, copied with its repository (the same commits).
  if (PREVIEW_PR !== 7) throw new Error(`the shared preview is of #${PREVIEW_PR}: this file's checks name #7`);
  const shared = await sharedPreview();
  firstBuild = shared;
  repo = reviewRepoAt(copyRepo(shared.dir));
  s3 = await startS3();
  github = await startFakeGitHub();
  target = `s3://${s3.bucket}/prod`;
  env = { ...AWS, GITHUB_API_URL: github.apiUrl, GITHUB_REPOSITORY: github.repo, GITHUB_TOKEN: github.token };
  github.pulls.set(7, { state: 'open', head: { sha: repo.git('rev-parse', 'HEAD').trim() } });
  // A wait limit, not a timing: the shared preview is a site build, minutes on a busy machine.
}, 600_000);

afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await github?.close();
  await s3?.close();
  removeTempDirs();
  if (repo) rmSync(repo.dir, { recursive: true, force: true });
});

/** The bodies read so far, by key and ETag (s3rver's ETag is the MD5 of the stored bytes, written with them). */
const bodies = new Map<string, { etag: string; body: string }>();

/**
 * Every key in the bucket → its body, as text. The whole bucket (production and two previews:
 * some 450 objects) is read after nearly every step, so a body is fetched only when its key is new
 * or its ETag changed since the last read: a changed object has another ETag, and the same ETag is
 * the same bytes. (Fetching every body every time cost this process about 8 CPU-seconds.)
 */
async function bucket(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let token: string | undefined;
  do {
    const res = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, ContinuationToken: token }));
    for (const o of res.Contents ?? []) {
      const key = o.Key!;
      const etag = o.ETag!;
      let known = bodies.get(key);
      if (known?.etag !== etag) {
        const got = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
        known = { etag: got.ETag!, body: await got.Body!.transformToString() };
        bodies.set(key, known);
      }
      out.set(key, known.body);
    }
    token = res.IsTruncated ? res.NextContinuationToken : undefined;
  } while (token);
  return out;
}

/** An npm command in the repo, as a workflow step runs it (async: s3rver and the API run in this process). */
function run(args: string[], extra: Record<string, string> = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  return repo.npmAsync(args, { ...env, ...extra });
}

const ok = (r: { status: number; stdout: string; stderr: string }): string => {
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  return r.stdout;
};

const head = (): string => repo.git('rev-parse', 'HEAD').trim();
/** What pr.yml ran (the first push's preview:build, in beforeAll), then what preview.yml runs; returns the publish output. */
async function pushAndPublish(): Promise<string> {
  ok(firstBuild);
  expect(repo.git('rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('feature');
  return ok(await run(['preview:publish', '--', '--prebuilt', 'preview-site', '--verify-head', head(), '--site-url', SITE, '--target', target, '--endpoint', s3.endpoint]));
}

/** The comment's links, checked against the bucket: each is a page there; each #@N an event on it. */
async function checkLinks(body: string): Promise<string[]> {
  const objects = await bucket();
  const links = [...body.matchAll(/\]\((https:\/\/explainer\.example\/[^)\s]*)\)/g)].map((m) => m[1]!);
  for (const link of links) {
    const url = new URL(link);
    expect(url.pathname, link).toMatch(/^\/previews\/pr-7\//);
    const key = `prod${url.pathname}${url.pathname.endsWith('/') ? 'index.html' : ''}`;
    expect(objects.has(key), `${link} → ${key}`).toBe(true);
    const at = /^#@(\d+)$/.exec(url.hash);
    if (at) expect(objects.get(key)!, link).toContain(`data-offset="${at[1]}"`);
  }
  return links;
}

let production: Map<string, string>;
let comment: { id: number; body: string };

describe('a pull request preview, from open to close', () => {
  it('production is live, with another pull request’s preview beside it', async () => {
    // Production is the tests' shared build of the bundled corpus (a real site of this code, built
    // once per run: tests/support/global-setup.ts), synced with the command the deploy runs.
    const live = join(await sharedBuildDir(), 'dist');
    ok(await run(['sync', '--', '--target', target, '--endpoint', s3.endpoint, '--prune', '--dist', live]));
    await publishPreview(dist(siteV1()), { target, pr: 70, log: () => {}, open: (spec) => openTarget(spec, { endpoint: s3.endpoint }) });
    production = await bucket();
    expect(production.has('prod/index.html')).toBe(true);
    expect(production.has('prod/previews/pr-70/index.html')).toBe(true);
  }, 300_000);

  it('publishes the preview under previews/pr-7/, built for that path against the merge-base', async () => {
    const out = await pushAndPublish();
    expect(out).toContain(`preview of #7 published: https://explainer.example/previews/pr-7/`);
    const objects = await bucket();
    const page = objects.get('prod/previews/pr-7/scenarios/sent-re-add/index.html')!;
    expect(page).toContain('href="/previews/pr-7/_astro/');
    expect(page).not.toMatch(/(?:href|src)="\/(?!previews\/pr-7\/)/); // every root-relative link inside the preview
    expect(objects.get('prod/previews/pr-7/changes/index.html')).toContain('href="/previews/pr-7/scenarios/sent-re-add/#@42"');
    const meta = JSON.parse(readFileSync(join(repo.dir, 'preview-site/preview.json'), 'utf8'));
    expect(meta).toMatchObject({ pr: 7, basePath: '/previews/pr-7/', base: { ref: 'main', commit: repo.git('rev-parse', 'main').trim() }, head: head() });
    // Production and the other preview are exactly as they were.
    for (const [key, body] of production) expect(objects.get(key), key).toBe(body);
  }, 300_000);

  it('posts one summary comment whose links are pages in the bucket, landing on the changed request', async () => {
    ok(await run(['pr-comment', '--', '--from', 'preview-site', '--verify-head', head(), '--site-url', SITE]));
    expect(github.comments.get(7)).toHaveLength(1);
    comment = { ...github.comments.get(7)![0]! };
    expect(comment.body.startsWith(SUMMARY_MARKER)).toBe(true);
    const links = await checkLinks(comment.body);
    expect(links).toContain('https://explainer.example/previews/pr-7/scenarios/sent-re-add/#@42');
    expect(links).toContain('https://explainer.example/previews/pr-7/changes/');
  }, 120_000);

  it('a second push, built and published by one command, uploads only the files that changed, and updates the same comment', async () => {
    repo.pushChange('01-birth-window.yaml', 'quick tour of the harbor repo', 'quick tour of the harbour repo', 'second push');
    const stale = github.pulls.get(7)!.head.sha;
    github.pulls.set(7, { state: 'open', head: { sha: head() } });
    // The one-command form: builds preview-site (against the merge-base, under the preview's path) and publishes it.
    const out = ok(await run(['preview:publish', '--', '--pr', '7', '--base', 'main', '--site-url', SITE, '--target', target, '--endpoint', s3.endpoint]));
    expect(out).toContain(`preview of #7 published: https://explainer.example/previews/pr-7/`);
    expect(JSON.parse(readFileSync(join(repo.dir, 'preview-site/preview.json'), 'utf8'))).toMatchObject({ pr: 7, basePath: '/previews/pr-7/', head: head() });
    const uploaded = [...out.matchAll(/^ {2}uploaded {2}(\S+)$/gm)].map((m) => m[1]!);
    expect(uploaded).toContain('scenarios/birth-window/index.html');
    const rebuilt = (await bucket()).get('prod/previews/pr-7/scenarios/birth-window/index.html')!;
    expect(rebuilt).toContain('quick tour of the harbour repo');
    expect(rebuilt).toContain('href="/previews/pr-7/_astro/');
    expect(uploaded).not.toContain('scenarios/compaction/index.html'); // a scenario the push did not touch
    expect(uploaded.filter((p) => p.startsWith('_astro/'))).toEqual([]);
    const counts = /done: uploaded (\d+), deleted (\d+), (\d+) unchanged/.exec(out)!;
    expect(Number(counts[1])).toBe(uploaded.length);
    expect(Number(counts[3])).toBeGreaterThan(Number(counts[1]));

    ok(await run(['pr-comment', '--', '--from', 'preview-site', '--verify-head', head(), '--site-url', SITE]));
    expect(github.comments.get(7)).toHaveLength(1);
    expect(github.comments.get(7)![0]!.id).toBe(comment.id);
    const links = await checkLinks(github.comments.get(7)![0]!.body);
    expect(links.some((l) => l.startsWith('https://explainer.example/previews/pr-7/scenarios/birth-window/#@'))).toBe(true);

    // A run for the superseded head (its artifact names #7) is refused before anything is written.
    const before = await bucket();
    const refused = await run(['preview:publish', '--', '--prebuilt', 'preview-site', '--verify-head', stale, '--site-url', SITE, '--target', target, '--endpoint', s3.endpoint]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`pull request #7 has head ${head()}, not ${stale}`);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(await bucket()).toEqual(before);
  }, 600_000);

  it('closing the pull request removes its preview and nothing else', async () => {
    const before = await bucket();
    expect([...before.keys()].filter((k) => k.startsWith('prod/previews/pr-7/')).length).toBeGreaterThan(20);
    const out = ok(await run(['preview:remove', '--', '--pr', '7', '--target', target, '--endpoint', s3.endpoint]));
    expect(out).toMatch(/removed the preview of #7: \d+ file\(s\) deleted from s3:\/\/site-bucket\/prod\/previews\/pr-7/);
    const after = await bucket();
    expect(after).toEqual(new Map([...before].filter(([k]) => !k.startsWith('prod/previews/pr-7/'))));
    for (const [key, body] of production) expect(after.get(key), key).toBe(body);
  }, 120_000);

  it('the built preview is published to a directory, and removed from it', async () => {
    const www = join(tempDir('www'), 'www');
    mkdirSync(join(www, 'docs'), { recursive: true });
    writeFileSync(join(www, 'docs/index.html'), 'production');
    // The folder the second push built (preview-site, #7's): its pull request comes from its preview.json.
    const out = ok(await run(['preview:publish', '--', '--prebuilt', 'preview-site', '--target', `dir:${www}`]));
    expect(out).toContain('preview of #7 published under /previews/pr-7/');
    const page = readFileSync(join(www, 'previews/pr-7/scenarios/birth-window/index.html'), 'utf8');
    expect(page).toContain('href="/previews/pr-7/_astro/');
    expect(page).toContain('quick tour of the harbour repo');
    expect(existsSync(join(www, 'previews/pr-7/changes/index.html'))).toBe(true);
    ok(await run(['preview:remove', '--', '--pr', '7', '--target', `dir:${www}`]));
    expect(existsSync(join(www, 'previews/pr-7'))).toBe(false);
    expect(readFileSync(join(www, 'docs/index.html'), 'utf8')).toBe('production');
  }, 120_000);
});
