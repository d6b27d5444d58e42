/**
 * Vitest global setup of the `build` and `browser` projects (vitest.config.ts), run in vitest's own
 * process: the ONE build of the bundled corpus plus the tests' own scenarios (sharedExtras(): the
 * hostile scenarios and tests/fixtures/shared) that every test reading the bundled site shares
 * through sharedSite() (tests/support/shared-site.ts) — instead of a build per test file. The copy
 * is built with buildSite() (Astro's build() and the integration's search index, as `npm run
 * build`), once, in a temporary folder removed when the run ends.
 *
 * Workers reach it through a small HTTP endpoint on 127.0.0.1 whose address is provided to them as
 * `pfeShared` (inject): `GET /site` answers, once the build has finished, `{ dir }` or `{ error }`.
 * The build starts on the first such request, or at once when a test file queued in this run calls
 * sharedSite() or sharedBuildDir() (so it runs beside the first tests rather than after them); a run of other files
 * never builds it. Both projects list this file: the endpoint is one per process (globalThis), and
 * the last teardown closes it.
 */
import { readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { buildSite, makeProject, sharedExtras } from './project.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared-build endpoint (see tests/support/global-setup.ts); absent outside the build and browser projects. */
    pfeShared: string;
  }
}

/** What a worker gets back for the shared site. */
export type SharedSiteAnswer = { dir: string } | { error: string };

interface Shared {
  url: string;
  users: number;
  site(): Promise<SharedSiteAnswer>;
  close(): Promise<void>;
}

const KEY = Symbol.for('prompt-fold-explainer.tests.shared');
type Holder = { [KEY]?: Promise<Shared> };

async function start(): Promise<Shared> {
  let built: Promise<SharedSiteAnswer> | undefined;
  let dir: string | undefined;
  const site = (): Promise<SharedSiteAnswer> =>
    (built ??= (async () => {
      dir = makeProject(sharedExtras());
      const r = await buildSite(dir);
      return r.status === 0 ? { dir } : { error: `the shared build (bundled corpus + sharedExtras()) failed in ${dir}:\n${r.output}` };
    })());
  const server: Server = createServer((req, res) => {
    if (req.url !== '/site') return void res.writeHead(404).end();
    void site().then((answer) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)));
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
    async close() {
      await built?.catch(() => undefined);
      await new Promise<void>((ok) => server.close(() => ok()));
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** True when a test file queued in this run (vitest's own list of them) asks for the shared site. */
function queuedFilesUseIt(project: TestProject): boolean {
  try {
    return project.vitest.state.getPaths().some((file) => /\bshared(?:Site|BuildDir)\(/.test(readFileSync(file, 'utf8')));
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
  if (queuedFilesUseIt(project)) void shared.site();
  return async () => {
    if (--shared.users > 0) return;
    delete holder[KEY];
    await shared.close();
  };
}
