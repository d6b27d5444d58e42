/**
 * Browser tests of the provider wire views and the imported example trace, on a built copy of the
 * project (plus the hostile scenarios): the imported scenario renders with its ✂ line where the
 * injected date changed the system prompt; a wire view opens in place of the printed request and
 * shows each provider's JSON (escaped), with the body's tool calls readable beneath it; its copy script loads only then; copy as cURL carries the
 * key as an environment variable and no secret; without JavaScript the JSON still reads.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../src/providers/registry.ts';
import type { BuiltSite } from '../support/browser.ts';
import { sharedSite } from '../support/shared-site.ts';

let built: BuiltSite;
let site: { url: string; close: () => Promise<void> };
let browser: Browser;

beforeAll(async () => {
  built = await sharedSite();
  ({ site, browser } = built);
}, 600_000);

/** The machine may be busy: give the page time (no timing is asserted). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000 });

afterAll(() => built?.close());

async function open(path: string, javaScript = true): Promise<{ page: Page; requested: string[]; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, javaScriptEnabled: javaScript });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
  const page = await context.newPage();
  const requested: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${site.url}${path}`);
  return { page, requested, errors };
}

describe('the imported example trace', () => {
  it('renders every request, with the ✂ line where the injected date changed the system prompt', async () => {
    const { page, errors } = await open('/scenarios/imported-trace/#@4');
    const pane = page.locator('.pane[data-offset="4"]');
    await poll(() => pane.evaluate((p) => p.classList.contains('selected'))).toBe(true);
    expect(await page.locator('.pane[data-kind="request"]').count()).toBe(5);
    // The first line below the ✂ line is the system prompt's dated block: the cause of the break.
    const afterCut = await pane.locator('.reviewable .cut').evaluate((c) => {
      let n = c.nextElementSibling;
      while (n?.matches('[role], details, .s-was')) n = n.nextElementSibling; // past the note and a changed line's old text
      return n?.textContent ?? '';
    });
    expect(afterCut).toContain("Today's date: 2026-12-01");
    expect(await pane.locator('.note').allTextContents()).toContainEqual(expect.stringContaining('THE BREAK'));
    expect(await page.content()).not.toMatch(/sk-ant-api03|sk-proj-FAKE|x-api-key: sk/);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('wire views', () => {
  it('open in place of the printed request; each provider JSON; the copy script loads only then', async () => {
    const { page, requested, errors } = await open('/scenarios/imported-trace/#@4');
    const pane = page.locator('.pane[data-offset="4"]');
    await poll(() => pane.evaluate((p) => p.classList.contains('selected'))).toBe(true);
    expect(requested.filter((u) => u.includes('wire-view'))).toEqual([]);
    expect(await pane.locator('.reviewable').isVisible()).toBe(true);
    await pane.locator('details.wire > summary').click();
    expect(await pane.locator('.reviewable').isVisible()).toBe(false);
    await poll(() => requested.filter((u) => u.includes('wire-view')).length).toBe(1);
    // The script is fetched, then runs and writes the view: wait for the written JSON, not the request.
    await poll(async () => ((await pane.locator('.wire-format[data-format="openai-chat"] pre').textContent()) ?? '').length > 0).toBe(true);
    const chat = JSON.parse((await pane.locator('.wire-format[data-format="openai-chat"] pre').textContent())!);
    expect(chat.model).toBe('claude-sonnet-4-5');
    expect(chat.messages[1].content).toMatch(/^The repository's contributor guide/);
    // The trace's own cache_control on this block is a breakpoint of the request: GPT-5.6's marker in this view.
    expect(chat.messages[2]).toEqual({
      role: 'system',
      content: [{ type: 'text', text: "Today's date: 2026-12-01. Working directory: /repos/harbor. Default branch: main.", prompt_cache_breakpoint: { mode: 'explicit' } }],
    });
    await pane.locator('.wire-format[data-format="anthropic"] > summary').click();
    expect(await pane.locator('.wire-format[data-format="openai-chat"] pre').isVisible()).toBe(false);
    const anthropic = JSON.parse((await pane.locator('.wire-format[data-format="anthropic"] pre').textContent())!);
    expect(anthropic.system.at(-1)).toMatchObject({ text: expect.stringContaining('2026-12-01'), cache_control: { type: 'ephemeral' } });
    expect(anthropic.tools.map((t: { name: string }) => t.name)).toEqual(['read_file', 'run']);
    expect(anthropic.messages.at(-1).content.at(-1).cache_control).toEqual({ type: 'ephemeral' });
    // Under the exact JSON, the body's tool calls by name with their input readable (the JSON holds the call as escaped text).
    const tools = pane.locator('.wire-format[data-format="anthropic"] details.wire-tools');
    await tools.locator('> summary').click();
    expect(await tools.locator('.wire-tool').allTextContents()).toContainEqual(expect.stringMatching(/^Tool call read_file \(toolu_01\) at messages\[\d+\]/));
    expect(await tools.locator('.wire-tool-input').first().textContent()).toBe('  path: src/exports/run.ts');
    expect(await tools.locator('.wire-tool').allTextContents()).toContainEqual(expect.stringMatching(/^Tool result ← read_file \(toolu_01\)/));
    // Highlighted like the prompt panes: the shiki themes' token classes (keys and strings differ).
    const classes = await pane.locator('.wire-format[data-format="anthropic"] pre code span').evaluateAll((spans) => spans.map((s) => s.className));
    expect(classes.length).toBeGreaterThan(10);
    expect(classes.every((c) => /^l\d+ d\d+$/.test(c))).toBe(true);
    expect(new Set(classes).size).toBeGreaterThan(1);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('says so when the page data cannot be fetched, and writes the view when opened again', async () => {
    const { page, errors } = await open('/scenarios/imported-trace/#@3');
    const pane = page.locator('.pane[data-offset="3"]');
    await poll(() => pane.evaluate((p) => p.classList.contains('selected'))).toBe(true);
    let down = true;
    await page.route('**/data.json', (route) => (down ? route.fulfill({ status: 404, body: 'gone' }) : route.continue()));
    const wire = pane.locator('details.wire');
    const chat = pane.locator('.wire-format[data-format="openai-chat"] pre');
    await wire.locator('> summary').click();
    await poll(() => chat.textContent()).toMatch(
      /^Could not load the provider JSON: \S*\/scenarios\/imported-trace\/data\.json answered 404 Not Found\. Close and open the view again to retry/,
    );
    expect(await pane.locator('.wire-actions').first().isHidden()).toBe(true);
    down = false;
    await wire.locator('> summary').click(); // closed
    await wire.locator('> summary').click(); // opened again
    await poll(async () => JSON.parse((await chat.textContent()) || 'null')?.model).toBe('claude-sonnet-4-5');
    expect(await pane.locator('.wire-actions').first().isVisible()).toBe(true);
    expect(errors.filter((e) => !/Failed to load resource: .* 404/.test(e))).toEqual([]); // the browser logs the 404 itself
    await page.context().close();
  });

  it('copy as cURL: the endpoint, the key as an environment variable, the body — and no secret', async () => {
    const { page } = await open('/scenarios/imported-trace/#@3');
    const pane = page.locator('.pane[data-offset="3"]');
    await poll(() => pane.evaluate((p) => p.classList.contains('selected'))).toBe(true);
    await pane.locator('details.wire > summary').click();
    await pane.locator('.wire-format[data-format="anthropic"] > summary').click();
    const button = pane.locator('.wire-format[data-format="anthropic"] button[data-copy="curl"]');
    await poll(() => button.isVisible()).toBe(true);
    await button.click();
    await poll(() => pane.locator('.wire-status').textContent()).toBe('Copied the cURL command.');
    const curl = await page.evaluate(() => navigator.clipboard.readText());
    expect(curl.split('\n').slice(0, 5)).toEqual([
      'curl https://api.anthropic.com/v1/messages \\',
      '  -H "x-api-key: $ANTHROPIC_API_KEY" \\',
      '  -H "anthropic-version: 2023-06-01" \\',
      '  -H "content-type: application/json" \\',
      "  --data-binary @- <<'JSON_BODY'",
    ]);
    expect(curl).toContain('[redacted secret]');
    expect(curl).not.toMatch(/sk-[A-Za-z0-9]|Bearer [^$]/);
    await pane.locator('.wire-format[data-format="anthropic"] button[data-copy="json"]').click();
    await poll(() => pane.locator('.wire-status').textContent()).toBe('Copied the JSON.');
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText())).max_tokens).toBe(4096);
    await page.context().close();
  });

  /** The formats a request is written in: every adapter with a wire writer (OTel spans have none). */
  const WRITTEN = PROVIDERS.filter((p) => p.write).map((p) => p.id);

  it('every bundled scenario shows its own requests in every written format', async () => {
    const { page } = await open('/scenarios/sent-re-add/');
    const views = page.locator('.pane[data-kind="request"] details.wire');
    expect(await views.count()).toBe(await page.locator('.pane[data-kind="request"]').count());
    expect(WRITTEN).toEqual(['openai-chat', 'openai-responses', 'anthropic', 'bedrock-converse', 'gemini']);
    expect(await page.locator('.pane[data-kind="request"] .wire-format').count()).toBe(WRITTEN.length * (await views.count()));
    await page.context().close();
  });

  it('without JavaScript: the view says the JSON needs the page script; no buttons, no JSON', async () => {
    const { page } = await open('/scenarios/imported-trace/', false);
    const pane = page.locator('.pane[data-offset="1"]');
    await pane.locator('details.wire > summary').click();
    expect(await pane.locator('details.wire').textContent()).toContain("written by this page's script, which is not running");
    expect(await pane.locator('.wire-format[data-format="openai-chat"] pre').textContent()).toBe('');
    expect(await pane.locator('.wire-actions').first().isVisible()).toBe(false);
    await page.context().close();
  });

  it('escapes hostile prompt text in every format', async () => {
    const { page, errors } = await open('/scenarios/hostile/');
    const pane = page.locator('.pane[data-kind="request"]').first();
    await pane.locator('details.wire > summary').click();
    for (const f of WRITTEN) {
      await pane.locator(`.wire-format[data-format="${f}"] > summary`).click();
      // The view is written by a script fetched on first open: wait for the text, not the click.
      await poll(async () => (await pane.locator(`.wire-format[data-format="${f}"] pre`).textContent()) ?? '').toContain("<script>window.__pwned='section'</script>");
    }
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(await pane.locator('.wire script, .wire img').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
