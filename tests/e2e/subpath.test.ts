/**
 * The site served under a sub-path, as a pull-request preview is (`/previews/pr-7/` of a bucket):
 * the run's one pull-request preview (tests/support/review-repo.ts: `npm run preview:build`, which
 * builds with EXPLAINER_SITE_BASE and compares with the merge-base; tests/preview-lifecycle.test.ts
 * publishes the same folder), served on 127.0.0.1 ONLY under that path (anything outside it is a 404). Every page's links and assets must resolve there, the
 * browser must load nothing that 404s, search must find a scenario and link into the preview, and a
 * deep link `#@N` must select its event.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, sharedBrowser } from '../support/browser.ts';
import { serve } from '../support/project.ts';
import { PREVIEW_PR } from '../support/review-repo.ts';
import { sharedPreview } from '../support/shared-review.ts';

const BASE = `/previews/pr-${PREVIEW_PR}/`;
/** The built preview site (read-only: the run's shared preview). */
let out: string;
let site: Awaited<ReturnType<typeof serve>>;
let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  const preview = await sharedPreview();
  if (preview.status !== 0) throw new Error(`npm run preview:build failed:\n${preview.stdout}${preview.stderr}`);
  out = join(preview.dir, 'preview-site/site');
  // Built against the merge-base of `feature` and `main`: the base commit, one before the change.
  expect(JSON.parse(readFileSync(join(preview.dir, 'preview-site/preview.json'), 'utf8'))).toMatchObject({ basePath: BASE });
  site = await serve(out, BASE);
  browser = await sharedBrowser();
}, 600_000);

afterAll(async () => {
  if (browser) await closeContexts(browser);
  await site?.close();
});

async function open(path: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.on('pageerror', (e) => pageErrors.push(`${path}: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && pageErrors.push(`${path}: ${m.text()}`));
  const res = await page.goto(site.url + path);
  expect(res?.status(), path).toBe(200);
  await page.waitForLoadState('networkidle');
  return page;
}

/** Every URL an HTML page references (links, stylesheets, scripts, images, icons), resolved against it. */
function references(html: string, pageUrl: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
    const raw = m[1]!.replace(/&amp;/g, '&');
    if (/^(mailto:|javascript:|data:)/.test(raw)) continue;
    out.push(new URL(raw, pageUrl).href);
  }
  return out;
}

describe(`the site built under ${BASE}`, () => {
  it('every link and asset of every page resolves inside the sub-path', async () => {
    const seen = new Set<string>();
    const queue = [`${site.url}${BASE}`];
    const broken: string[] = [];
    const outside: string[] = [];
    let pages = 0;
    while (queue.length) {
      const url = queue.shift()!;
      const bare = url.replace(/#.*$/, '');
      if (seen.has(bare)) continue;
      seen.add(bare);
      const res = await fetch(bare);
      if (res.status !== 200) {
        broken.push(`${res.status} ${bare}`);
        continue;
      }
      if (!(res.headers.get('content-type') ?? '').startsWith('text/html')) continue;
      pages++;
      for (const ref of references(await res.text(), bare)) {
        if (!ref.startsWith(site.url)) continue; // nothing external is referenced; checked below
        if (!new URL(ref).pathname.startsWith(BASE)) outside.push(`${bare} → ${ref}`);
        queue.push(ref);
      }
    }
    expect(broken).toEqual([]);
    expect(outside).toEqual([]);
    expect(pages).toBeGreaterThanOrEqual(18); // index, changes, search, 4 reference pages, every scenario
    expect([...seen].some((u) => u.endsWith(`${BASE}changes/`))).toBe(true);
    expect([...seen].some((u) => u.endsWith(`${BASE}reference/layered/`))).toBe(true);
  }, 120_000);

  it('the browser loads nothing that 404s (pages, scripts, styles, search bundle)', async () => {
    const from = site.requests.length;
    for (const path of ['', 'scenarios/sent-re-add/', 'changes/', 'reference/context-protocol/', 'search/']) await (await open(BASE + path)).context().close();
    const failed = site.requests.slice(from).filter((r) => r.status !== 200);
    expect(failed).toEqual([]);
    expect(site.requests.slice(from).some((r) => r.path.startsWith(`${BASE}pagefind/`))).toBe(true);
  }, 120_000);

  it('search finds a scenario and links into the preview', async () => {
    const page = await open(`${BASE}search/`);
    await page.locator('#search input').fill('CHANGELOG');
    await expect
      .poll(() => page.locator('.pagefind-ui__result-link').evaluateAll((as) => as.map((a) => a.getAttribute('href'))), { timeout: 10_000 })
      .toContain(`${BASE}scenarios/sent-re-add/`);
    await Promise.all([page.waitForLoadState('load'), page.locator(`.pagefind-ui__result-link[href="${BASE}scenarios/sent-re-add/"]`).first().click()]);
    expect(new URL(page.url()).pathname).toBe(`${BASE}scenarios/sent-re-add/`);
    expect(await page.locator('.card').count()).toBeGreaterThan(0);
    await page.context().close();
  });

  it('a deep link #@N selects its event, and the changes page links to it', async () => {
    const page = await open(`${BASE}scenarios/sent-re-add/#@42`);
    // A wait limit, not a timing assertion: on a loaded machine the page script can take seconds.
    await expect.poll(() => page.locator('.pane.selected').getAttribute('data-offset'), { timeout: 15_000 }).toBe('42');
    expect(await page.locator('.card.selected').getAttribute('data-offset')).toBe('42');
    await page.context().close();

    const changes = readFileSync(join(out, 'changes/index.html'), 'utf8');
    expect(changes).toMatch(new RegExp(`href="${BASE}scenarios/sent-re-add/#@\\d+"`));
  });

  it('logged no errors on any page visited', () => {
    expect(pageErrors).toEqual([]);
  });
});
