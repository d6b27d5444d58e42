/**
 * Test support: the browser the tests drive and the built site it opens. launchBrowser() starts
 * Debian's chromium (CHROMIUM_PATH overrides it; vitest.config.ts finds another Chromium-family
 * browser when there is none) through playwright-core with the project's flags; builtSite() is the
 * setup every e2e file shares — a throwaway copy of the project (or a given one) built with the real
 * `npm run build`, served on 127.0.0.1, and a browser — with one close() for the lot. One place, so
 * a flag or a clean-up fixed here is fixed for every browser test.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { build, makeProject, ROOT, serve } from './project.ts';

/** Headless, no sandbox (containers), nothing fetched in the background, no first-run dialogs. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** The browser every test drives. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** The hostile scenarios (tests/fixtures/hostile): markup, scripts and pathological text as scenario content. */
export const HOSTILE = join(ROOT, 'tests/fixtures/hostile');

export interface BuiltSite {
  /** The project copy that was built (its dist/ is served). */
  dir: string;
  site: Awaited<ReturnType<typeof serve>>;
  browser: Browser;
  /** Closes the browser and the server and removes the project copy. */
  close(): Promise<void>;
}

export interface BuiltSiteOptions {
  /** Add the hostile scenarios to the copy of the project. */
  hostile?: boolean;
  /** Build this project instead of a fresh copy (e.g. a review repo); it is removed on close too. */
  dir?: string;
  /** Environment of the build (e.g. EXPLAINER_SITE_BASE). */
  env?: Record<string, string>;
  /** Serve the site under this sub-path only (see serve()). */
  base?: string;
}

/** Builds the project (a fresh copy unless `dir` is given), serves its dist/ and launches the browser; throws with the build's output when it fails. */
export async function builtSite(opts: BuiltSiteOptions = {}): Promise<BuiltSite> {
  const dir = opts.dir ?? makeProject(opts.hostile ? readdirSync(HOSTILE).map((f) => join(HOSTILE, f)) : []);
  const r = build(dir, opts.env);
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`build failed:\n${r.output}`);
  }
  const site = await serve(join(dir, 'dist'), opts.base);
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (err) {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    dir,
    site,
    browser,
    close: async () => {
      await browser.close();
      await site.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
