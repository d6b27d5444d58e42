/**
 * Test support: the bundled corpus plus the tests' own scenarios (sharedExtras()), built ONCE per
 * test run and read by every browser test of the bundled site (site, playground, csp, wire,
 * reading, breakpoints, search-index…). The build belongs to the run (tests/support/global-setup.ts
 * makes it, in a temporary copy, on first use); each test file gets its own static server over
 * that dist/ (its own request log, its own port) and the worker's browser. Treat `dir` as
 * read-only: other files read the same folder. Outside the projects whose global setup provides
 * the build (say, a config of your own), this falls back to a build of the file's own with
 * builtSite().
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { inject } from 'vitest';
import { type BuiltSite, builtSite, closeContexts, sharedBrowser } from './browser.ts';
import type { SharedSiteAnswer } from './global-setup.ts';
import { serve, sharedExtras } from './project.ts';

/** Waits (as long as the build takes) for an answer from the global setup's endpoint: the shared build's, or (shared-package.ts) the shared package's. */
export function ask<T = SharedSiteAnswer>(url: string): Promise<T> {
  return new Promise((ok, fail) => {
    const req = request(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        try {
          ok(JSON.parse(body) as T);
        } catch {
          fail(new Error(`the shared build's endpoint answered ${res.statusCode}: ${body.slice(0, 200)}`));
        }
      });
    });
    req.on('error', fail);
    req.end();
  });
}

/** The shared build of the bundled corpus (with the hostile scenarios) at its folder only, for tests that read dist/ without a browser. */
export async function sharedBuildDir(): Promise<string> {
  const endpoint = inject('pfeShared');
  if (!endpoint) throw new Error('no shared build in this project: run the file in the `build` or `browser` project (vitest.config.ts)');
  const answer = await ask(`${endpoint}/site`);
  if ('error' in answer) throw new Error(answer.error);
  return answer.dir;
}

/** A page of the shared build as text: `path` is its URL path (`/`, `/scenarios/imported-trace/`), read from dist/<path>/index.html. */
export async function sharedBuiltPage(path: string): Promise<string> {
  return readFileSync(join(await sharedBuildDir(), 'dist', path, 'index.html'), 'utf8');
}

/** The shared build served on 127.0.0.1 for this file, and the worker's browser; close() closes this file's server and the contexts left open. */
export async function sharedSite(): Promise<BuiltSite> {
  if (!inject('pfeShared')) return builtSite({ scenarios: sharedExtras() });
  const dir = await sharedBuildDir();
  const site = await serve(join(dir, 'dist'));
  const browser = await sharedBrowser().catch(async (err: unknown) => {
    await site.close();
    throw err;
  });
  return {
    dir,
    site,
    browser,
    close: async () => {
      await closeContexts(browser);
      await site.close();
    },
  };
}
