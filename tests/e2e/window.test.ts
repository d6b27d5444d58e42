/**
 * Browser tests of a windowed scenario page (issue 41), on the shared build: the generated long
 * conversation (tests/support/long-scenario.ts, 60 requests over the default `pageWindow`) prints
 * only the requests around its opening one; selecting a request outside the window fetches its data
 * part (same-origin, under the page's Content-Security-Policy) — with the parts it continues, back to
 * one that stands alone, and no other (a part holds what its requests add: render/scenario-data.ts)
 * — all asked for at once (the page lists which part each continues), not one round trip per part
 * — and renders the request as the page would print it, its hostile text escaped, nothing of it run;
 * the event YAML of a card outside the window is fetched when opened; when a part cannot be fetched,
 * the pane and the card say so.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltSite } from '../support/browser.ts';
import { HOSTILE_TEXT, LONG_ID, LONG_REQUESTS } from '../support/long-scenario.ts';
import { sharedSite } from '../support/shared-site.ts';

let built: BuiltSite;
let site: { url: string; close: () => Promise<void> };
let browser: Browser;

beforeAll(async () => {
  built = await sharedSite();
  ({ site, browser } = built);
}, 600_000);

afterAll(() => built?.close());

/** The machine may be busy: give the page time (no timing is asserted). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000 });

const PATH = `/scenarios/${LONG_ID}/`;
const LAST = String(LONG_REQUESTS);

async function open(missing?: RegExp): Promise<{ page: Page; requested: string[]; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const requested: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  if (missing) await page.route(missing, (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not here' }));
  await page.goto(`${site.url}${PATH}`);
  return { page, requested, errors };
}

/** The page's data parts: [first offset, last offset, URL path, the first offset of the part it continues?]. */
const partsOf = async (page: Page): Promise<[number, number, string, number?][]> => JSON.parse((await page.locator('article.scenario').getAttribute('data-parts')) ?? '[]');

/** The URL paths of `part` and of the parts it continues, back to one that stands alone (each part's `base` names the first event of the part it continues). */
async function chainOf(parts: readonly [number, number, string, number?][], part: [number, number, string, number?]): Promise<string[]> {
  const out: string[] = [];
  for (let p: [number, number, string, number?] | undefined = part; p; ) {
    out.push(p[2]);
    const base: number | undefined = ((await (await fetch(`${site.url}${p[2]}`)).json()) as { base?: number }).base;
    // The page's list says the same as the part's data.
    expect((parts.find(([, , url]) => url === p![2]) ?? [])[3], `${p[2]}: the part it continues, as the page lists it`).toBe(base);
    p = base === undefined ? undefined : parts.find(([a]) => a === base);
    if (base !== undefined) expect(p, `${out.at(-1)} continues the part of @${base}`).toBeDefined();
  }
  return out;
}

describe('a windowed scenario page', () => {
  it('prints the requests around the opening one and lists its data parts instead of one data file', async () => {
    const { page, requested, errors } = await open();
    const parts = await partsOf(page);
    expect(parts.length).toBeGreaterThanOrEqual(3); // the window's part and at least two after it
    expect(await page.locator('article.scenario').getAttribute('data-src')).toBeNull();
    // Every event is in exactly one part, in timeline order.
    const order = await page.locator('.card[data-offset]').evaluateAll((cs) => cs.map((c) => Number((c as HTMLElement).dataset.offset)));
    expect(order).toHaveLength(LONG_REQUESTS);
    expect(parts.flatMap(([a, b]) => order.slice(order.indexOf(a), order.indexOf(b) + 1))).toEqual(order);
    for (const [, , url] of parts) expect(url).toMatch(new RegExp(`^/scenarios/${LONG_ID}/part-\\d+\\.json$`));
    // The HTML prints some requests, not all; the last one is left to a part.
    const printed = await page.locator('.pane[data-kind="request"]').count();
    expect(printed).toBeGreaterThan(1);
    expect(printed).toBeLessThan(LONG_REQUESTS);
    expect(await page.locator(`.pane[data-offset="${LAST}"]`).count()).toBe(0);
    // Nothing is fetched before the reader asks.
    expect(requested.filter((p) => p.includes('/part-'))).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('fetches the part of a request outside the window when it is selected and renders it escaped', async () => {
    const { page, requested, errors } = await open();
    const parts = await partsOf(page);
    const lastPart = parts.find(([a, b]) => a <= LONG_REQUESTS && LONG_REQUESTS <= b)!;
    const chain = await chainOf(parts, lastPart);
    await page.locator(`.card[data-offset="${LAST}"] .card-link`).click();
    const pane = page.locator(`.pane[data-offset="${LAST}"]`);
    await poll(() => pane.evaluate((p) => p.classList.contains('selected')).catch(() => false)).toBe(true);
    expect(requested).toContain(lastPart[2]);
    // That part and those it continues, each once: not the others.
    expect(requested.filter((p) => p.includes('/part-')).sort()).toEqual([...chain].sort());
    const text = (await pane.locator('.code').textContent()) ?? '';
    expect(text).toContain(`Request ${LAST}: ${HOSTILE_TEXT}`);
    expect(await pane.locator('img, script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    // The next request is in the same part: selected with j, no second fetch.
    await page.locator(`.card[data-offset="${LONG_REQUESTS - 1}"] .card-link`).click();
    await poll(() => page.locator('.pane.selected').getAttribute('data-offset')).toBe(String(LONG_REQUESTS - 1));
    expect(requested.filter((p) => p.includes('/part-')).sort()).toEqual([...chain].sort());
    // A card's event YAML outside the window: fetched on opening, escaped like the page's own.
    const details = page.locator(`.card[data-offset="${LAST}"] details.event-yaml`);
    await details.locator('summary').click();
    await poll(() => details.locator('pre code').textContent()).toContain(`Request ${LAST}: ${HOSTILE_TEXT}`);
    expect(await details.locator('img, script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    // Fetched under the page's Content-Security-Policy, with no violation (a violation is a console error).
    expect(await page.locator('meta[http-equiv="content-security-policy" i]').getAttribute('content')).toContain("connect-src 'self'");
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('builds a request from a part that continues another, read on top of it: the same prompt and wire views', async () => {
    const { page, requested, errors } = await open();
    const parts = await partsOf(page);
    // In this build the part after the window continues the window's part (render/scenario-data.ts).
    const continuing = (await Promise.all(parts.map(async (p) => ({ p, chain: await chainOf(parts, p) })))).find((x) => x.chain.length > 1);
    expect(continuing, 'a part that continues another').toBeDefined();
    const { p: part, chain } = continuing!;
    const off = String(part[1]);
    expect(await page.locator(`.pane[data-offset="${off}"]`).count()).toBe(0); // not in the HTML: built from its part
    // The parts it continues are asked for at once, not after its own answer names them: its answer
    // is held until every one of them has been asked for (fetched one after another, it never would be).
    let release!: () => void;
    const chainAsked = new Promise<void>((resolve) => (release = resolve));
    page.on('request', () => chain.every((u) => requested.includes(u)) && release());
    await page.route(new RegExp(`${part[2].replace(/[.]/g, '\\.')}$`), async (route) => {
      await chainAsked;
      await route.continue();
    });
    await page.locator(`.card[data-offset="${off}"] .card-link`).click();
    const pane = page.locator(`.pane[data-offset="${off}"]`);
    await poll(() => pane.evaluate((p) => p.classList.contains('selected')).catch(() => false)).toBe(true);
    // It and the parts it continues, each once.
    expect(requested.filter((p) => p.includes('/part-')).sort()).toEqual([...chain].sort());
    const text = (await pane.locator('.code').textContent()) ?? '';
    expect(text).toContain(`Request ${off}: ${HOSTILE_TEXT}`);
    expect(text).toContain('You are a test agent.');
    expect(await pane.locator('img, script').count()).toBe(0);
    await pane.locator('details.wire > summary').click();
    await poll(async () => (await pane.locator('.wire-format[data-format="openai-chat"] pre').textContent()) ?? '').toContain(`"content": "Request ${off}: `);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('says in the pane and in the card when a part cannot be fetched, and fetches it again on the next try', async () => {
    const probe = await open();
    const lastPart = (await partsOf(probe.page)).find(([a, b]) => a <= LONG_REQUESTS && LONG_REQUESTS <= b)!;
    await probe.page.context().close();
    const { page, requested } = await open(new RegExp(`${lastPart[2].replace(/[.]/g, '\\.')}$`));
    await page.locator(`.card[data-offset="${LAST}"] .card-link`).click();
    const alert = page.locator('pf-request-column .load-error[role="alert"]');
    await poll(() => alert.textContent().catch(() => '')).toContain(`Could not load the request as of @${LAST}: ${lastPart[2]} answered 404`);
    expect(await page.locator(`.pane[data-offset="${LAST}"]`).count()).toBe(0);
    const details = page.locator(`.card[data-offset="${LAST}"] details.event-yaml`);
    await details.locator('summary').click();
    await poll(() => details.locator('pre code').textContent()).toContain(`The event's YAML could not be loaded: ${lastPart[2]} answered 404`);
    // The part is there again: selecting the event again fetches it and shows the request.
    await page.unroute(new RegExp(`${lastPart[2].replace(/[.]/g, '\\.')}$`));
    const before = requested.filter((p) => p === lastPart[2]).length;
    await page.locator(`.card[data-offset="${LAST}"] .card-link`).click();
    await poll(() =>
      page
        .locator('.pane.selected')
        .getAttribute('data-offset')
        .catch(() => null),
    ).toBe(LAST);
    expect(requested.filter((p) => p === lastPart[2]).length).toBe(before + 1);
    expect(await alert.count()).toBe(0);
    await page.context().close();
  });
});
