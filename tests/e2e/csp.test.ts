/**
 * The Content Security Policy in the browser: every built page (the bundled corpus plus the hostile
 * scenarios: the run's shared build) is loaded, a few at a time, with violation reporting on — a `securitypolicyviolation` listener installed
 * before any script runs, and the console — and the test fails on any violation. The pages are also
 * used the way a reader uses them (a pane built from the page data, the search run over its wasm
 * index), and a page with an injected inline handler proves the policy is enforced at all.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltSite, inTabs } from '../support/browser.ts';
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

/** Records every CSP violation (event and console) of `page` into `into`, with the path the page was on: once per page, before its first navigation. */
async function watch(page: Page, into: string[]): Promise<void> {
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

/** Opens a page in a new context, recording every CSP violation into the returned list. */
async function open(path: string): Promise<{ page: Page; violations: string[] }> {
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  const violations: string[] = [];
  await watch(page, violations);
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

  it('loads every built page without a single violation', async () => {
    // A few pages at a time, in one context (each page has its listener, writing to one list).
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const violations: string[] = [];
    const found = await inTabs(
      context,
      pages(),
      async (page, p) => {
        await page.goto(site.url + p, { waitUntil: 'load' });
        await page.waitForTimeout(50);
        // No inline event handler attribute on any element (the policy would block it; none should exist).
        const handlers = await page.evaluate(() =>
          [...document.querySelectorAll('*')].flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `<${e.tagName.toLowerCase()} ${a.name}>`)),
        );
        return handlers.map((h) => `${p}: inline handler ${h}`);
      },
      (page) => watch(page, violations),
    );
    await context.close();
    expect([...violations, ...found.flat()]).toEqual([]);
  }, 300_000);

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
