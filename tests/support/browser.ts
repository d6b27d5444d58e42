/**
 * Test support: the browser the tests drive and the built site it opens. launchBrowser() starts
 * Debian's chromium (CHROMIUM_PATH overrides it; vitest.config.ts finds another Chromium-family
 * browser when there is none) through playwright-core with the project's flags; sharedBrowser() is
 * the one such browser of this worker process, launched on first use and reused by every later test
 * file the worker runs (a test opens contexts in it and closes them, never the browser; playwright
 * ends it with the process). builtSite() is the setup of a browser test that needs a corpus of its
 * own — a throwaway copy of the project (or a given one) built as `npm run build` builds it, served
 * on 127.0.0.1, and the worker's browser — with one close() for the lot. A test of the bundled corpus
 * uses sharedSite() (tests/support/shared-site.ts) instead: the run's one build of it. One place, so
 * a flag or a clean-up fixed here is fixed for every browser test.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildSite, makeProject, serve } from './project.ts';

/**
 * Headless, no sandbox (containers), nothing fetched in the background, no first-run dialogs — and
 * no spare renderer: Chromium keeps a renderer process started ahead for the next navigation, and
 * a test opens each page in a new context, which cannot use the one started for another, so a
 * spare was started and thrown away per page (measured on the built site: 3 renderer processes per
 * page opened, 2 without; ≈15 % less renderer CPU, the largest share of a test run's CPU) — and no
 * omnibox popup: Debian's Chromium (156.0.8078.114 here) starts, with every new context (a window
 * of its own, in headless mode too), a renderer for the address bar's suggestion popup
 * (chrome://omnibox-popup.top-chrome/, a WebUI page no test sees), which loads its whole UI at
 * once. Measured: ten contexts each opening /favicon.svg took 16.0–16.4 CPU-s with it and 7.9–8.1
 * without; ten opening a scenario page 19.2–21.8 and 10.8–12.0. Unknown feature names are
 * ignored, so a Chromium without these features takes the same flags; tests/e2e/browser-flags.test.ts
 * fails when a new context starts any chrome:// page (a renamed feature, say).
 *
 * Chromium reads only the last `--disable-features` it is given, and playwright-core passes its own
 * list before these arguments without merging: ours alone would switch Playwright's back on (checked
 * on 156.0.8078.129: a list given first and another after it, the first one's features are on). So
 * the one list here is Playwright's (playwright-core 1.65.1's chromiumSwitches: no HTTPS upgrade of
 * the tests' http:// URLs, no paint holding, no requests to Google at start-up, …) and then ours;
 * tests/e2e/browser-flags.test.ts reads the browser's real command line and fails, naming the
 * feature, when a Playwright upgrade disables one this list lacks.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];
const OUR_DISABLED_FEATURES = ['SpareRendererForSitePerProcess', 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OUR_DISABLED_FEATURES].join(',')}`,
];

/** The browser every test drives. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

const KEY = Symbol.for('prompt-fold-explainer.tests.browser');
type Holder = { [KEY]?: Promise<Browser> };

/**
 * This worker's browser (one per process, on globalThis so that it outlives a test file's module
 * state): launched on first use, launched again if it went away. Close the contexts and pages you
 * open in it, not the browser.
 */
export function sharedBrowser(): Promise<Browser> {
  const holder = globalThis as Holder;
  holder[KEY] ??= launchBrowser().then(
    (browser) => {
      browser.on('disconnected', () => delete holder[KEY]);
      return browser;
    },
    (err: unknown) => {
      delete holder[KEY];
      throw err;
    },
  );
  return holder[KEY];
}

/** Closes every context open in the worker's browser (what a test file left open, say after a failure). */
export async function closeContexts(browser: Browser): Promise<void> {
  await Promise.all(browser.contexts().map((c) => c.close().catch(() => undefined)));
}

/** How many pages a test that visits many pages keeps open at once (in one browser context). */
/** Resolves after the next frame is rendered: the page as the reader sees it, not mid-event. */
export const painted = (page: Page): Promise<unknown> => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

export const PAGES_AT_ONCE = 4;

/**
 * Runs `visit` on each of `items` in a few pages of `context` (PAGES_AT_ONCE), each page moving on
 * to the next item when done with one — `visit` navigates it (page.goto) — instead of a new page
 * per item: a new page starts a renderer process, a navigation within the site keeps it (measured
 * on the built site, 12 scenario pages one after another, browser start included: 5.4 s and 9.1
 * CPU-s with a new context each, 6.4 s and 10.9 CPU-s with a new page each, 2.6 s and 3.8 CPU-s
 * navigating one page). `setup` runs once per page before its first visit (listeners, init
 * scripts). Results come in the order of `items`; the pages are closed at the end, whatever happened.
 */
export async function inTabs<I, T>(context: BrowserContext, items: readonly I[], visit: (page: Page, item: I) => Promise<T>, setup?: (page: Page) => unknown): Promise<T[]> {
  const results: T[] = new Array(items.length);
  let next = 0;
  const pages: Page[] = [];
  const tab = async (): Promise<void> => {
    const page = await context.newPage();
    pages.push(page);
    await setup?.(page);
    while (next < items.length) {
      const i = next++;
      results[i] = await visit(page, items[i]!);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(PAGES_AT_ONCE, items.length) }, tab));
  } finally {
    await Promise.all(pages.map((p) => p.close().catch(() => undefined)));
  }
  return results;
}

/** How a test opens a page: viewport width (height 900), colour scheme, scripts on or off, the page's CSP bypassed (to inject axe). */
export interface OpenOptions {
  width?: number;
  colorScheme?: 'light' | 'dark';
  javaScript?: boolean;
  bypassCSP?: boolean;
}

/** The path (and #hash) a page is on, for a message: a reused page visits several. */
export const pathOn = (page: Page): string => {
  const url = new URL(page.url());
  return url.pathname + url.hash;
};

/** Records the page's uncaught errors into `into`, each with the path it was on. */
export function logPageErrors(page: Page, into: string[]): void {
  page.on('pageerror', (e) => into.push(`${pathOn(page)}: ${e.message}`));
}

/**
 * Records every Content Security Policy violation of `page` (the `securitypolicyviolation` event,
 * listened for before any script runs, and the console's report) into `into`, with the path the
 * page was on. Once per page, before its first navigation. (tests/e2e/csp.test.ts tests the policy;
 * tests/e2e/reading.test.ts's one visit of every built page records with it too.)
 */
export async function recordCspViolations(page: Page, into: string[]): Promise<void> {
  const where = (): string => new URL(page.url()).pathname;
  await page.exposeFunction('__cspViolation', (v: string) => into.push(`${where()}: ${v}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation: (v: string) => void }).__cspViolation(
        `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber}) ${e.sample}`,
      );
    });
  });
  page.on('console', (m) => /content security policy/i.test(m.text()) && into.push(`${where()}: console: ${m.text()}`));
}

/**
 * A test file's pages, reused from one test to the next: open() takes a page that a finished test
 * gave back (done()) in a context of the same kind (scripts, CSP) when there is one — a new page
 * starts a renderer process (see inTabs()) — sets its width and colour scheme, and loads the path
 * afresh, through about:blank, so that a path differing from the last only in its #hash is a new
 * load too. done() clears what the test left in the site's storage (the theme) first. A test that
 * fails before done() keeps its page out of the pool: the next test gets another. `watch` runs once
 * per new page (its listeners; pathOn() names the path it is on).
 */
export class ReusedPages {
  private readonly given = new Map<string, Page[]>();
  private readonly kindOf = new WeakMap<Page, string>();
  private readonly site: () => { browser: Browser; url: string };
  private readonly watch: (page: Page) => unknown;

  /** `site`: the browser and the site's URL (read at each open(): a file sets them in beforeAll). */
  constructor(site: () => { browser: Browser; url: string }, watch: (page: Page) => unknown = () => undefined) {
    this.site = site;
    this.watch = watch;
  }

  /** A page on `path`, loaded (the load event), at that width (height 900) and colour scheme. */
  async open(path: string, opts: OpenOptions = {}): Promise<Page> {
    const { browser, url } = this.site();
    const javaScriptEnabled = opts.javaScript ?? true;
    const bypassCSP = opts.bypassCSP ?? false;
    const kind = JSON.stringify([javaScriptEnabled, bypassCSP]);
    let page = this.given.get(kind)?.pop();
    if (page) await page.goto('about:blank');
    else {
      page = await (await browser.newContext({ javaScriptEnabled, bypassCSP })).newPage();
      this.kindOf.set(page, kind);
      await this.watch(page);
    }
    await page.setViewportSize({ width: opts.width ?? 1400, height: 900 });
    await page.emulateMedia({ colorScheme: opts.colorScheme ?? 'light' });
    await page.goto(url + path);
    return page;
  }

  /** Gives the page back for a later open(). */
  async done(page: Page): Promise<void> {
    if (page.url().startsWith(this.site().url)) await page.evaluate(() => localStorage.clear());
    const kind = this.kindOf.get(page)!;
    if (!this.given.has(kind)) this.given.set(kind, []);
    this.given.get(kind)!.push(page);
  }
}

export interface BuiltSite {
  /** The project copy that was built (its dist/ is served). Read it; never change it (sharedSite() shares it with other files). */
  dir: string;
  site: Awaited<ReturnType<typeof serve>>;
  /** The worker's browser (sharedBrowser()). */
  browser: Browser;
  /** Closes the contexts left open in the browser and the server, and removes the project copy if it was this test's own. */
  close(): Promise<void>;
}

export interface BuiltSiteOptions {
  /** Scenario files to add to the copy of the project. */
  scenarios?: string[];
  /** Build this project instead of a fresh copy (e.g. a review repo); it is removed on close too. */
  dir?: string;
  /** Environment of the build (e.g. EXPLAINER_SITE_BASE). */
  env?: Record<string, string>;
  /** Serve the site under this sub-path only (see serve()). */
  base?: string;
}

/**
 * Builds the project (a fresh copy unless `dir` is given), serves its dist/ and opens the worker's
 * browser; throws with the build's output when it fails. For the bundled corpus use sharedSite()
 * (the run's one build, hostile scenarios included): this is for a corpus or an environment of the
 * test's own.
 */
export async function builtSite(opts: BuiltSiteOptions = {}): Promise<BuiltSite> {
  const dir = opts.dir ?? makeProject(opts.scenarios);
  const r = await buildSite(dir, opts.env);
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`build failed:\n${r.output}`);
  }
  const site = await serve(join(dir, 'dist'), opts.base);
  let browser: Browser;
  try {
    browser = await sharedBrowser();
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
      await closeContexts(browser);
      await site.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
