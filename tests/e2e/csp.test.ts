/**
 * The Content Security Policy: every built page (the bundled corpus plus the hostile scenarios: the
 * run's shared build) carries a strict policy as the first element of its head; in the browser, with
 * violation reporting on (recordCspViolations(): a `securitypolicyviolation` listener installed
 * before any script runs, and the console), the pages are used the way a reader uses them (a pane
 * built from the page data, the search run over its wasm index) without a violation, and a page with
 * an injected inline handler proves the policy is enforced at all. Every built page loaded without a
 * violation or an inline handler is checked in tests/e2e/reading.test.ts, on the one visit of every
 * page that its text checks make anyway (a visit of every page was this file's largest cost).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltSite, recordCspViolations } from '../support/browser.ts';
import { sharedSite } from '../support/shared-site.ts';

let built: BuiltSite;
let dir: string;
let site: { url: string; close: () => Promise<void> };
let browser: Browser;

beforeAll(async () => {
  built = await sharedSite();
  ({ dir, site, browser } = built);
}, 600_000);

afterAll(() => built?.close());

/** Opens a page in a new context, recording every CSP violation into the returned list. */
async function open(path: string): Promise<{ page: Page; violations: string[] }> {
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  const violations: string[] = [];
  await recordCspViolations(page, violations);
  await page.goto(site.url + path, { waitUntil: 'load' });
  return { page, violations };
}

const pages = (): string[] =>
  readdirSync(join(dir, 'dist'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('index.html') && !f.startsWith('pagefind'))
    .map((f) => `/${f.replace(/index\.html$/, '')}`)
    .sort();

describe('Content Security Policy', () => {
  it('every page carries a strict policy as the first element of its head', async () => {
    const { readFileSync } = await import('node:fs');
    expect(pages().length).toBeGreaterThan(10);
    for (const p of pages()) {
      const html = readFileSync(join(dir, 'dist', p, 'index.html'), 'utf8');
      const meta = /<head[^>]*><meta http-equiv="content-security-policy" content="([^"]+)">/.exec(html);
      expect(meta, p).not.toBeNull();
      const policy = meta![1]!;
      expect(policy).toMatch(/^default-src 'self'; script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')*( 'wasm-unsafe-eval')?;/);
      expect(policy).toContain("object-src 'none'");
      expect(policy).toContain("base-uri 'none'");
      expect(policy).not.toMatch(/https?:|'unsafe-eval'|'unsafe-hashes'|script-src[^;]*'unsafe-inline'/);
    }
  });

  it('builds a pane from page data, toggles the theme and shows the hostile scenario without a violation', async () => {
    const hostile = readdirSync(join(dir, 'dist/scenarios')).find((d) => d.startsWith('hostile'))!;
    const { page, violations } = await open(`/scenarios/${hostile}/`);
    await page.locator('.card[data-offset="2"] .card-link').click();
    await expect.poll(() => page.locator('.pane.selected').getAttribute('data-offset')).toBe('2');
    await page.locator('.theme-toggle').click();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    await page.waitForTimeout(50);
    expect(violations).toEqual([]);
    await page.context().close();
  });

  it('search (pagefind, WebAssembly) finds a scenario under the policy', async () => {
    const { page, violations } = await open('/search/');
    await page.locator('#search input').fill('compaction');
    await expect.poll(() => page.locator('.pagefind-ui__result').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(violations).toEqual([]);
    await page.context().close();
  });

  it('is enforced: an inline handler injected into a built page is blocked and reported', async () => {
    const { page, violations } = await open('/');
    await page.evaluate(() => {
      const img = document.createElement('img');
      img.setAttribute('onerror', "window.__pwned='handler'");
      img.src = 'data:,not-an-image';
      document.body.append(img);
      const s = document.createElement('script');
      s.textContent = "window.__pwned='inline'";
      document.body.append(s);
    });
    await expect.poll(() => violations.length).toBeGreaterThanOrEqual(2);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    await page.context().close();
  });
});
