/**
 * Browser tests of an imported Claude Code session read as a reviewer would (issue 49, item 8), on
 * the shared build: a 16-call transcript of our own (tests/support/claude-code-session.ts, imported
 * by src/import as `npm run import` does) whose bill says the cache was read on every call but the
 * one after a 12-minute pause. At 1400×900 its first screen leads with the billed totals — labelled,
 * the modelled figures beside them — and says what the capture does not hold; requests are numbered
 * 1..N with the trace line as a detail; the page opens on the request that lost the most billed
 * tokens, the only one the timeline marks; its pane shows the billed line beside the model's and
 * folds the 600-line file read earlier (a button shows it in place); tool
 * input with hostile text stays text; a tool call reads by name with its input readable, a tool result names
 * its call. Every figure is checked against the transcript's own usage,
 * summed here. A request fetched later on a windowed page carries the same wire views as a printed one.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltSite } from '../support/browser.ts';
import { CC_CALLS, CC_HOSTILE, CC_ID, CC_IDLE_CALL, transcriptBill } from '../support/claude-code-session.ts';
import { LONG_ID, LONG_REQUESTS } from '../support/long-scenario.ts';
import { sharedSite } from '../support/shared-site.ts';

let built: BuiltSite;
let site: { url: string; close: () => Promise<void> };
let browser: Browser;

beforeAll(async () => {
  built = await sharedSite();
  ({ site, browser } = built);
}, 600_000);

afterAll(() => built?.close());

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000 });
const group = (n: number): string => n.toLocaleString('en-US');

async function open(path: string): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${site.url}${path}`);
  return { page, errors };
}

describe('an imported Claude Code session', () => {
  it('leads its first screen with the bill, the modelled figures labelled beside it, and what the capture does not hold', async () => {
    const { page, errors } = await open(`/scenarios/${CC_ID}/`);
    const bill = transcriptBill();
    expect(bill.calls).toBe(CC_CALLS);
    const lede = page.locator('.billed-lede');
    // On the first screen, before the intro.
    const box = await lede.boundingBox();
    expect(box!.y + box!.height).toBeLessThan(900);
    expect(
      await page.evaluate(() => document.querySelector('.billed-lede')!.compareDocumentPosition(document.querySelector('.intro')!) & Node.DOCUMENT_POSITION_FOLLOWING),
    ).toBeTruthy();
    const billed = (await lede.locator('p[data-lead="Billed"]').textContent())!;
    const share = Math.round((100 * bill.cached) / bill.input);
    expect(billed).toContain(
      `Billed: what the provider’s usage reports for these ${CC_CALLS} requests: ${group(bill.input)} input tokens, ${share} % of them read from the cache, ${group(bill.output)} output tokens; $`,
    );
    // The modelled figures say what they are where the word first appears.
    expect(await lede.locator('p[data-lead="Modelled"]').textContent()).toMatch(
      /^Modelled: what this page’s cache model computes from the requests as the capture holds them .*≈[\d,]+ input tokens, \d+ % cached; ≈\$/,
    );
    expect(await page.locator('.scenario-meta a.badge[href="#economics"]').textContent()).toMatch(/^modelled: ≈[\d,]+ input tokens/);
    // The transcript records no system prompt and no tool definitions (the import says so in each request's
    // `unrecorded`): the lede names them, and the first call's billed input is mostly not in it.
    const unseen = (await lede.locator('p[data-lead="Not in the capture"]').textContent())!;
    expect(unseen).toMatch(/^Not in the capture: this capture does not record the system prompt, the tool definitions[^:]*: request 1 was billed /);
    expect(unseen).toContain(`: request 1 was billed ${group(bill.perCall[0]!.input)} input tokens`);
    // The transcript records no cache marker either: the model caches nothing where the bill read from the cache.
    expect(await lede.locator('p[data-lead="Cache markers not in the capture"]').textContent()).toContain(`the provider read ${group(bill.cached)} tokens from the cache`);
    // No local path in the intro: the trace's base name only.
    expect(await page.locator('.intro').textContent()).not.toMatch(/\/tmp|\/home|\.\.\//);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('numbers requests 1..N with the trace line as a detail, opens on the largest billed miss and marks only the misses', async () => {
    const { page, errors } = await open(`/scenarios/${CC_ID}/`);
    const bill = transcriptBill();
    const cards = page.locator('.card[data-offset]');
    expect(await cards.evaluateAll((cs) => cs.map((c) => Number((c as HTMLElement).dataset.offset)))).toEqual(Array.from({ length: CC_CALLS }, (_, i) => i + 1));
    expect(await cards.first().locator('.note').textContent()).toMatch(/^line \d+ of the trace$/);
    // The call after the pause read nothing of what the one before it left in the cache.
    const before = bill.perCall[CC_IDLE_CALL - 2]!;
    const lost = before.cached + before.written;
    const marked = await page
      .locator('.card .badge.warn', { hasText: 'billed miss' })
      .evaluateAll((bs) => bs.map((b) => [Number(b.closest<HTMLElement>('.card')!.dataset.offset), b.textContent]));
    expect(marked).toEqual([[CC_IDLE_CALL, `⚠ billed miss: ${group(lost)} tokens not read`]]);
    expect(await page.locator('.card.selected').getAttribute('data-offset')).toBe(String(CC_IDLE_CALL));
    const pane = page.locator(`.pane.selected[data-offset="${CC_IDLE_CALL}"]`);
    expect(await pane.locator('h2').textContent()).toBe(`Request @${CC_IDLE_CALL}`);
    // Its billed line beside the model's, which says it is modelled.
    const idle = bill.perCall[CC_IDLE_CALL - 1]!;
    expect(await pane.locator('.badge.billed').textContent()).toMatch(
      new RegExp(`^billed: cached 0 · writes ${group(idle.written)} · ${group(idle.input)} tokens · output ${idle.output} · \\$0\\.\\d+$`),
    );
    expect(await pane.locator('.badge.econ-tokens').textContent()).toMatch(/^Input tokens: modelled: cached /);
    expect(await page.locator('p[data-lead="Largest miss"] a').getAttribute('href')).toBe(`#@${CC_IDLE_CALL}`);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('folds a long request’s quiet runs, and shows them in place when asked', async () => {
    const { page, errors } = await open(`/scenarios/${CC_ID}/`);
    const pane = page.locator(`.pane.selected[data-offset="${CC_IDLE_CALL}"]`);
    const button = pane.locator('.fold-row > button').first();
    expect(await button.textContent()).toMatch(/^⋯ [\d,]+ lines folded \([\d,]+ sent before\) — show them$/);
    const hidden = Number((await button.textContent())!.match(/^⋯ ([\d,]+)/)![1]!.replace(/,/g, ''));
    const folded = pane.locator('.code > [data-folded="0"]');
    expect(await folded.count()).toBe(hidden);
    expect(await folded.first().isVisible()).toBe(false);
    const height = (await pane.boundingBox())!.height;
    await button.click();
    expect(await pane.locator('.code > [data-folded]').count()).toBe(0);
    expect(await button.isVisible()).toBe(false);
    // The folded lines are shown where they were: the pane grows by about a line each.
    expect((await pane.boundingBox())!.height).toBeGreaterThan(height + hidden * 10);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('keeps hostile text in a tool input as text', async () => {
    const { page, errors } = await open(`/scenarios/${CC_ID}/#@8`);
    const pane = page.locator('.pane[data-offset="8"]');
    await poll(() => pane.evaluate((p) => p.classList.contains('selected'))).toBe(true);
    expect(await pane.locator('.code').textContent()).toContain(CC_HOSTILE.replace(/"/g, '\\"'));
    expect(await pane.locator('.code img, .code script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(errors).toEqual([]);
    await page.context().close();
  });
  it('shows a tool call by name with its input readable, and the call a tool result answers', async () => {
    const { page, errors } = await open(`/scenarios/${CC_ID}/#@8`);
    const pane = page.locator('.pane[data-offset="8"]');
    await poll(() => pane.evaluate((p) => p.classList.contains('selected'))).toBe(true);
    // Call 7 is an Edit whose new_string carries quotes, a backslash and the hostile text.
    const edit = pane.locator('details.tool-readable', { hasText: 'Edit (toolu_010007)' });
    await edit.locator('summary').click();
    expect(await edit.locator('pre').innerText()).toContain(`  new_string: return roundHalfEven(cents); // "quoted" \\ ${CC_HOSTILE}`);
    expect(await pane.locator('.tool-answer', { hasText: 'Tool result ← Edit (toolu_010007)' }).count()).toBe(1);
    expect(await pane.locator('.code img, .code script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('a request fetched later on a windowed page', () => {
  it('carries the same provider wire views as one printed in the page', async () => {
    const { page, errors } = await open(`/scenarios/${LONG_ID}/`);
    const last = String(LONG_REQUESTS);
    expect(await page.locator(`.pane[data-offset="${last}"]`).count()).toBe(0); // not in the HTML: built from its part
    await page.locator(`.card[data-offset="${last}"] .card-link`).click();
    const pane = page.locator(`.pane[data-offset="${last}"]`);
    await poll(() => pane.evaluate((p) => p.classList.contains('selected')).catch(() => false)).toBe(true);
    await pane.locator('details.wire > summary').click();
    await poll(async () => (await pane.locator('.wire-format[data-format="openai-chat"] pre').textContent()) ?? '').toContain(`"content": "Request ${last}: `);
    expect(await pane.locator('.wire-format').count()).toBe(await page.locator('.pane[data-kind="request"]').first().locator('.wire-format').count());
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
