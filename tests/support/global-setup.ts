/**
 * Vitest global setup of the `build` and `browser` projects (vitest.config.ts), run in vitest's own
 * process: the ONE build of the bundled corpus plus the tests' own scenarios (sharedExtras(): the
 * hostile scenarios and tests/fixtures/shared) that every test reading the bundled site shares
 * through sharedSite() (tests/support/shared-site.ts) — instead of a build per test file. The copy
 * is built with buildSite() (Astro's build() and the integration's search index, as `npm run
 * build`), once, in a temporary folder removed when the run ends. Likewise the ONE packed package
 * (tests/support/pack-package.ts: the package build and `npm pack`) that the package tests share
 * through sharedPackage() (tests/support/shared-package.ts): tests/package.test.ts installs its
 * tarball in hosts, tests/package-contents.test.ts reads what it ships — one package build (seconds
 * of TypeScript) instead of one per file.
 *
 * And the ONE review repository (tests/support/review-repo.ts: the project with a base commit and a
 * change, as a git repository) that the review tests copy (reviewRepo(), shared-review.ts), and the
 * ONE pull-request preview of it (`npm run preview:build`: sharedPreview()) that
 * tests/preview-lifecycle.test.ts publishes and tests/e2e/subpath.test.ts browses.
 *
 * Workers reach them through a small HTTP endpoint on 127.0.0.1 whose address is provided to them
 * as `pfeShared` (inject): `GET /site` answers, once the build has finished, `{ dir }` or
 * `{ error }`; `GET /package`, once packed, `{ dir, report }` or `{ error }`; `GET /review-repo`
 * `{ dir }`; `GET /preview` `{ dir, status, stdout, stderr }` (the command's result, failed or not). Each starts on its
 * first request, or at once when a test file queued in this run calls the function that asks for it
 * (so it runs beside the first tests rather than after them); a run of other files never makes it.
 * Both projects list this file: the endpoint is one per process (globalThis), and the last teardown
 * closes it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildSite, childEnv, makeProject, ROOT, sharedExtras } from './project.ts';
import { buildPreviewIn, copyRepo, createReviewRepo } from './review-repo.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared-build endpoint (see tests/support/global-setup.ts); absent outside the build and browser projects. */
    pfeShared: string;
  }
}

/** What a worker gets back for the shared site. */
export type SharedSiteAnswer = { dir: string } | { error: string };

/** What a worker gets back for the shared review repository (tests/support/review-repo.ts): its folder, to copy. */
export type SharedReviewRepoAnswer = { dir: string } | { error: string };

/** What a worker gets back for the shared pull-request preview: the repository it was built in and `npm run preview:build`'s result. */
export type SharedPreviewAnswer = { dir: string; status: number; stdout: string; stderr: string } | { error: string };

/** npm's `npm pack --json` report of one tarball (the fields the tests read). */
export interface PackReport {
  filename: string;
  entryCount: number;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

/** What a worker gets back for the shared package: the folder it was packed in (the tarball is `report.filename` there). */
export type SharedPackageAnswer = { dir: string; report: PackReport } | { error: string };

interface Shared {
  url: string;
  users: number;
  site(): Promise<SharedSiteAnswer>;
  pack(): Promise<SharedPackageAnswer>;
  reviewRepo(): Promise<SharedReviewRepoAnswer>;
  preview(): Promise<SharedPreviewAnswer>;
  close(): Promise<void>;
}

/** Runs tests/support/pack-package.ts into a new temporary folder (asynchronously: this process serves the endpoint meanwhile). */
function packPackage(dir: string): Promise<SharedPackageAnswer> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(ROOT, 'tests/support/pack-package.ts'), dir], { cwd: ROOT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const failed = (why: string): void => done({ error: `the shared package (tests/support/pack-package.ts) failed in ${dir}: ${why}` });
    child.on('error', (e) => failed(e.message));
    child.on('close', (code) => {
      if (code !== 0) return failed(`exit ${code}\n${err}${out}`);
      try {
        const [report] = JSON.parse(out) as [PackReport];
        done({ dir, report });
      } catch {
        failed(`npm pack --json printed no report:\n${out}${err}`);
      }
    });
  });
}

const KEY = Symbol.for('prompt-fold-explainer.tests.shared');
type Holder = { [KEY]?: Promise<Shared> };

async function start(): Promise<Shared> {
  let built: Promise<SharedSiteAnswer> | undefined;
  let packed: Promise<SharedPackageAnswer> | undefined;
  let repo: Promise<SharedReviewRepoAnswer> | undefined;
  let previewed: Promise<SharedPreviewAnswer> | undefined;
  const dirs: string[] = [];
  const site = (): Promise<SharedSiteAnswer> =>
    (built ??= (async () => {
      const dir = makeProject(sharedExtras());
      dirs.push(dir);
      const r = await buildSite(dir);
      return r.status === 0 ? { dir } : { error: `the shared build (bundled corpus + sharedExtras()) failed in ${dir}:\n${r.output}` };
    })());
  const pack = (): Promise<SharedPackageAnswer> => {
    if (!packed) {
      const dir = mkdtempSync(join(tmpdir(), 'pfe-packed-'));
      dirs.push(dir);
      packed = packPackage(dir);
    }
    return packed;
  };
  const reviewRepo = (): Promise<SharedReviewRepoAnswer> =>
    (repo ??= createReviewRepo().then(
      (dir) => {
        dirs.push(dir);
        return { dir };
      },
      (err: Error) => ({ error: `the shared review repository (tests/support/review-repo.ts) failed: ${err.message}` }),
    ));
  const preview = (): Promise<SharedPreviewAnswer> =>
    (previewed ??= (async () => {
      const from = await reviewRepo();
      if ('error' in from) return from;
      const dir = copyRepo(from.dir);
      dirs.push(dir);
      return { dir, ...(await buildPreviewIn(dir)) };
    })().catch((err: Error) => ({ error: `the shared preview (tests/support/review-repo.ts) failed: ${err.message}` })));
  const answers: Record<string, () => Promise<unknown>> = { '/site': site, '/package': pack, '/review-repo': reviewRepo, '/preview': preview };
  const server: Server = createServer((req, res) => {
    const answer = answers[req.url ?? ''];
    if (!answer) return void res.writeHead(404).end();
    void answer().then((a) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(a)));
  });
  // A build can take minutes on a busy machine: no socket timeout on the waiting requests.
  server.requestTimeout = 0;
  server.timeout = 0;
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    users: 0,
    site,
    pack,
    reviewRepo,
    preview,
    async close() {
      await Promise.all([built, packed, repo, previewed].map((p) => p?.catch(() => undefined)));
      await new Promise<void>((ok) => server.close(() => ok()));
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** True when a test file queued in this run (vitest's own list of them) calls what `uses` matches. */
function queuedFilesUse(project: TestProject, uses: RegExp): boolean {
  try {
    return project.vitest.state.getPaths().some((file) => uses.test(readFileSync(file, 'utf8')));
  } catch {
    return false; // the list is vitest's internal state: without it the build simply starts on first use
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const holder = globalThis as Holder;
  holder[KEY] ??= start();
  const shared = await holder[KEY];
  shared.users++;
  project.provide('pfeShared', shared.url);
  // The package first: the package tests are among the longest and start at once (tests/support/sequencer.ts).
  if (queuedFilesUse(project, /\bsharedPackage\(/)) void shared.pack();
  if (queuedFilesUse(project, /\bshared(?:Site|BuildDir)\(/)) void shared.site();
  if (queuedFilesUse(project, /\bsharedPreview\(/)) void shared.preview();
  else if (queuedFilesUse(project, /\breviewRepo\(/)) void shared.reviewRepo();
  return async () => {
    if (--shared.users > 0) return;
    delete holder[KEY];
    await shared.close();
  };
}
