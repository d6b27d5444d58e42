/**
 * Browser tests of /playground/ (playwright-core driving Debian's chromium against a built copy of
 * the project with the hostile scenarios): opened from a scenario page it shows the same request
 * text; typing an event updates the pane; broken YAML shows the CLI's error at the right line and
 * keeps the last good pane marked stale; the URL reopens the same edit; the download is a scenario
 * the loader accepts; hostile and pathological input executes nothing and leaves the page
 * responsive; axe-clean in light and dark; usable at 360 px.
 * The text opens in the source view and CodeMirror is fetched on the first intent to edit: nothing
 * of it on open, the same text and colours as the site's event YAML, the cursor where the reader
 * clicked, no key lost while it loads, the selects working without it, a failed load explained, and
 * the colours (sent after the answer) written into the lines in place, moving nothing under the pointer.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/integration/options.ts';
import { renderTexts } from '../../src/corpus/check.ts';
import { yamlTokenTags } from '../../src/render/highlight.ts';
import { yamlSourceHtml } from '../../src/render/yaml-source.ts';
import { encodeState } from '../../src/playground/state.ts';
import { formatError } from '../../src/scenarios/errors.ts';
import type { EconomicsConfig } from '../../src/economics/profiles.ts';
import { encodeChat as clChat } from 'gpt-tokenizer/encoding/cl100k_base';
import { encodeChat as o200kChat } from 'gpt-tokenizer/encoding/o200k_base';
import { axeViolations } from '../support/axe.ts';
import { type BuiltSite, painted } from '../support/browser.ts';
import { sharedSite } from '../support/shared-site.ts';
import { ROOT } from '../support/project.ts';

let built: BuiltSite;
let site: { url: string; close: () => Promise<void> };
let browser: Browser;
const pageErrors: string[] = [];
/** The .js files each page fetched (paths), from before it opened. */
const fetched = new WeakMap<Page, string[]>();

beforeAll(async () => {
  built = await sharedSite();
  ({ site, browser } = built);
}, 600_000);

afterAll(() => built?.close());

/**
 * `bypassCSP`: only for pages axe is injected into (an inline script); the policy itself is csp.test.ts's.
 * `corpus`: changes the site's corpus.json (scenarios, economics) on its way to the page.
 */
async function open(
  path: string,
  opts: { colorScheme?: 'light' | 'dark'; width?: number; bypassCSP?: boolean; corpus?: (json: { economics: EconomicsConfig }) => unknown } = {},
): Promise<Page> {
  const context = await browser.newContext({
    colorScheme: opts.colorScheme ?? 'light',
    viewport: { width: opts.width ?? 1400, height: 900 },
    acceptDownloads: true,
    bypassCSP: opts.bypassCSP ?? false,
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(`${path}: ${e.message}`));
  page.on('dialog', (d) => {
    pageErrors.push(`${path}: a dialog opened: ${d.message()}`);
    void d.dismiss();
  });
  const js: string[] = [];
  fetched.set(page, js);
  page.on('response', (r) => {
    if (/\.m?js(\?|$)/.test(r.url())) js.push(new URL(r.url()).pathname);
  });
  const change = opts.corpus;
  if (change)
    await page.route('**/corpus.json', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: change(await response.json()) });
    });
  await page.goto(site.url + path);
  return page;
}

/** Whether a fetched .js file of the built site is CodeMirror's (its view's base theme names this class). */
const isCodeMirror = (path: string): boolean => readFileSync(join(built.dir, 'dist', path), 'utf8').includes('cm-gutterElement');

/** Loads the editor (a click into the source view) unless it is loaded, and clicks into it. */
async function editor(page: Page): Promise<void> {
  if (await page.locator('#pg-source').count()) await page.locator('#pg-source').click();
  await page.locator('.cm-content').click();
}

/** Holds back every script the page fetches from now on (the editor's chunk) until the returned function is called. */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  await page.route(/\.m?js(\?|$)/, async (route) => {
    await gate;
    await route.continue();
  });
  return release;
}

/** The 1-based line of the editor's cursor (its line number is highlighted in the gutter). */
const cursorLine = (page: Page): Promise<string | null> => page.locator('.cm-lineNumbers .cm-activeLineGutter').textContent();

/**
 * Scrolls the first `selector` into view and waits until it has stayed put for three frames. The
 * source lines scrolled into view are laid out a frame later (content-visibility), moving what is
 * below them; Playwright scrolls and presses the mouse in one go, so a click right after the scroll
 * can press on the button and release elsewhere (no click) — a reader never clicks within a frame.
 */
async function inViewAndStill(page: Page, selector: string): Promise<void> {
  await page.locator(selector).first().scrollIntoViewIfNeeded();
  await page.evaluate(
    (sel) =>
      new Promise<void>((done) => {
        let last = Number.NaN;
        let same = 0;
        const tick = (): void => {
          const top = document.querySelector(sel)!.getBoundingClientRect().top;
          same = top === last ? same + 1 : 0;
          last = top;
          if (same >= 3) done();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    selector,
  );
}

/** Waits until the playground has answered the latest edit (with its figures). */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const root = document.querySelector('.playground');
      // …and the pane's figures, when they were still loading (the economics' chunks arrive after the first pane).
      return root && !root.hasAttribute('aria-busy') && document.getElementById('pg-status')?.textContent !== 'Loading…' && !document.querySelector('#pg-pane .econ-pending');
    },
    undefined,
    { timeout: 60_000 },
  );
  await page.waitForTimeout(50);
  await page.waitForFunction(() => !document.querySelector('.playground')!.hasAttribute('aria-busy'), undefined, { timeout: 60_000 });
}

/** Opens a playground page and waits for its first pane and answer. */
async function opened(path: string, opts?: Parameters<typeof open>[1]): Promise<Page> {
  const page = await open(path, opts);
  await page.waitForSelector('#pg-pane .pane');
  await settled(page);
  return page;
}

/** Types into the editor at the start of the first line whose text is `line` (found after moving to the end). */
async function insertBefore(page: Page, line: string, text: string): Promise<void> {
  await editor(page);
  await page.keyboard.press('Control+End');
  await page
    .locator('.cm-line', { hasText: new RegExp(`^${line}$`) })
    .first()
    .click();
  await page.keyboard.press('Home');
  await page.keyboard.insertText(text);
}

/** Pastes text into the editor as the clipboard would; returns how long the paste handler took (ms). */
const paste = (page: Page, text: string): Promise<number> =>
  page.evaluate((t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    const start = performance.now();
    document.querySelector('.cm-content')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    return performance.now() - start;
  }, text);

/** The prompt text of a pane: its lines, without the page's cache-economics note (the playground has no tokenizer). */
const paneText = (page: Page, sel: string): Promise<string> =>
  page
    .locator(sel)
    .first()
    .evaluate((el) => {
      // The cache economics (the note under the ✂ line, and whether the text above it was read from the
      // cache) are the build's: the playground does not compute them.
      for (const n of el.querySelectorAll<HTMLElement>('.cut-econ, .cut-above')) n.style.display = 'none';
      return (el as HTMLElement).innerText;
    });
const config = await resolveOptions(ROOT);

describe('the playground', () => {
  it('opens a scenario from its page and shows the same request text', { timeout: 90_000 }, async () => {
    const page = await open('/scenarios/sent-re-add/');
    const pageText = await paneText(page, '.pane.selected .code');
    await page.getByRole('link', { name: 'Open in playground' }).click();
    await page.waitForSelector('#pg-pane .pane');
    await settled(page);
    expect(await page.locator('#pg-pane .pane h2').textContent()).toBe('Request @42'); // the request the page opens on
    expect(await paneText(page, '#pg-pane .code')).toBe(pageText);
    expect(await page.locator('#pg-file').textContent()).toBe('scenarios/02-sent-re-add.yaml');
    expect(await page.locator('#pg-fold').inputValue()).toBe('context-protocol');
    await page.context().close();
  });

  it('re-folds as you type, reports broken YAML at its line, and keeps the last pane stale', { timeout: 90_000 }, async () => {
    const page = await opened('/playground/#open=sent-re-add');
    await insertBefore(
      page,
      'annotations:',
      [
        '  - off: 49',
        '    t: 18m 50s',
        '    type: agent/llm-request-settled',
        '    payload:',
        '      requestOffset: 42',
        '      result: {status: succeeded, text: ok}',
        '  - off: 50',
        '    t: 19m',
        '    type: agents/context-added',
        '    payload:',
        '      role: user',
        '      content: typed in the playground test',
        '  - off: 51',
        '    t: 19m 1s',
        '    type: agent/llm-request-requested',
        '    payload:',
        '      model: openai/gpt-5.6-terra',
        '      contractVersion: "7.0.0"',
        '',
      ].join('\n'),
    );
    await expect.poll(() => page.locator('#pg-event option[value="51"]').count(), { timeout: 30_000 }).toBe(1);
    await page.locator('#pg-event').selectOption('51');
    await expect.poll(() => page.locator('#pg-pane .pane h2').textContent(), { timeout: 30_000 }).toBe('Request @51');
    const pane = await paneText(page, '#pg-pane .code');
    expect(pane).toContain('typed in the playground test');
    expect(await page.locator('#pg-pane .code > .s-added').count()).toBeGreaterThan(0);
    // a provenance link is titled when pointed at (not in the markup), from the playground's events
    const link = page.locator('#pg-pane .gutter > a[href="#@50"]').first();
    expect(await link.getAttribute('title')).toBeNull();
    await link.hover();
    await expect.poll(() => link.getAttribute('title')).toContain('from @50 agents/context-added');
    expect(await page.locator('#pg-pane .cut').count()).toBe(1);

    // A second `id:` on line 2: the CLI's message, at line 2, and the pane keeps @51 marked stale.
    await editor(page);
    await page.keyboard.press('Control+Home');
    await page.keyboard.insertText('id: again\n');
    await page.waitForSelector('#pg-errors pre', { timeout: 30_000 });
    await settled(page);
    const shown = await page.locator('#pg-errors pre').allTextContents();
    const edited = readFileSync(join(ROOT, 'scenarios/02-sent-re-add.yaml'), 'utf8');
    // What `npm run check` prints for the same text (the playground's edit is replayed here).
    const text = `id: again\n${edited.replace(/^annotations:/m, (a) => `  - off: 49\n    t: 18m 50s\n    type: agent/llm-request-settled\n    payload:\n      requestOffset: 42\n      result: {status: succeeded, text: ok}\n  - off: 50\n    t: 19m\n    type: agents/context-added\n    payload:\n      role: user\n      content: typed in the playground test\n  - off: 51\n    t: 19m 1s\n    type: agent/llm-request-requested\n    payload:\n      model: openai/gpt-5.6-terra\n      contractVersion: "7.0.0"\n${a}`)}`;
    const cli = await renderTexts(
      readdirSync(join(ROOT, 'scenarios')).map((n) => ({ file: `scenarios/${n}`, text: n === '02-sent-re-add.yaml' ? text : readFileSync(join(ROOT, 'scenarios', n), 'utf8') })),
      config,
      { everyEvent: false },
    );
    expect(shown).toEqual(cli.errors.map(formatError));
    expect(shown[0]).toMatch(/^scenarios\/02-sent-re-add\.yaml:3:1 error: /);
    const marker = page.locator('.cm-gutter-lint .cm-gutterElement', { has: page.locator('.cm-lint-marker-error') });
    expect(await marker.count()).toBe(1);
    const markerBox = (await marker.boundingBox())!;
    const line3 = (await page.locator('.cm-lineNumbers .cm-gutterElement', { hasText: /^3$/ }).boundingBox())!;
    expect(Math.abs(markerBox.y - line3.y)).toBeLessThan(3);
    expect(await page.locator('#pg-pane').getAttribute('data-stale')).toBe('');
    expect(await page.locator('#pg-pane .pane h2').textContent()).toBe('Request @51');
    expect(await page.locator('#pg-status').textContent()).toContain('stale');
    await page.context().close();
  });

  it('reopens the same edit from its URL, and downloads a scenario the loader accepts', { timeout: 90_000 }, async () => {
    const page = await opened('/playground/#open=sent-re-add@40');
    expect(await page.locator('#pg-pane .pane h2').textContent()).toBe('As of @40');
    await insertBefore(
      page,
      'annotations:',
      '  - off: 60\n    t: 20m\n    type: agents/context-added\n    payload:\n      role: user\n      content: shared by link ✂ </script>\n',
    );
    await expect.poll(() => page.locator('#pg-event option[value="60"]').count(), { timeout: 30_000 }).toBe(1);
    await page.locator('#pg-event').selectOption('60');
    await expect.poll(() => page.locator('#pg-pane .pane h2').textContent(), { timeout: 30_000 }).toBe('As of @60');
    await settled(page);
    const url = page.url();
    expect(url).toMatch(/\/playground\/#s=/);
    const before = await paneText(page, '#pg-pane .code');

    const again = await opened(url.slice(site.url.length));
    expect(await again.locator('#pg-pane .pane h2').textContent()).toBe('As of @60');
    expect(await paneText(again, '#pg-pane .code')).toBe(before);

    const downloads = await Promise.all(
      [page, again].map(async (p) => {
        const [d] = await Promise.all([p.waitForEvent('download'), p.locator('#pg-download').click()]);
        return { name: d.suggestedFilename(), text: readFileSync((await d.path())!, 'utf8') };
      }),
    );
    expect(downloads[1]).toEqual(downloads[0]);
    const file = downloads[0]!;
    expect(file.name).toBe('sent-re-add-edited.yaml');
    expect(file.text).toContain('content: shared by link ✂ </script>');
    expect(await page.locator('#pg-status').textContent()).toContain('id changed to sent-re-add-edited');
    // As a new file next to the site's scenarios: `npm run check` loads and renders it cleanly.
    const corpus = readdirSync(join(ROOT, 'scenarios')).map((n) => ({ file: `scenarios/${n}`, text: readFileSync(join(ROOT, 'scenarios', n), 'utf8') }));
    const checked = await renderTexts([...corpus, { file: `scenarios/${file.name}`, text: file.text }], config, { everyEvent: false });
    expect(checked.errors.map(formatError)).toEqual([]);
    expect(checked.scenarios.find((s) => s.scenario.id === 'sent-re-add-edited')!.requests.map((q) => q.offset)).toEqual([31, 42]);
    await page.context().close();
    await again.context().close();
  });

  it('patches the pane in place to exactly what a fresh render of the event shows', { timeout: 90_000 }, async () => {
    const page = await opened('/playground/#open=sent-re-add');
    const fresh = await opened('/playground/#open=sent-re-add');
    const paneHtml = (p: Page): Promise<string> => p.locator('#pg-pane').evaluate((el) => el.innerHTML);
    // From request @31 through a later request, a state, a base event and back; each step patches the previous pane.
    for (const off of ['42', '40', '20', '31']) {
      await page.evaluate(() => {
        for (const row of document.querySelectorAll('#pg-pane .code > *')) (row as unknown as { kept: boolean }).kept = true;
      });
      await page.locator('#pg-event').selectOption(off);
      await expect.poll(() => page.locator('#pg-pane .pane').getAttribute('data-offset'), { timeout: 30_000 }).toBe(off);
      await settled(page);
      await fresh.goto('about:blank');
      await fresh.goto(`${site.url}/playground/#open=sent-re-add@${off}`);
      await fresh.waitForSelector(`#pg-pane .pane[data-offset="${off}"]`);
      await settled(fresh);
      expect(await paneHtml(page)).toBe(await paneHtml(fresh));
      if (off === '42') {
        // From request @31 to request @42: the rows that did not change are the same DOM nodes.
        const kept = await page.evaluate(() => [...document.querySelectorAll('#pg-pane .code > *')].filter((row) => (row as unknown as { kept?: boolean }).kept).length);
        expect(kept).toBeGreaterThan(0);
      }
    }
    await page.context().close();
    await fresh.context().close();
  });

  it('switches the fold by editing `fold:`', { timeout: 90_000 }, async () => {
    const page = await opened('/playground/#open=birth-window');
    await editor(page); // the fold switch is then an edit of the editor's, undoable
    await page.locator('#pg-fold').selectOption('layered');
    await page.waitForSelector('#pg-errors pre', { timeout: 30_000 });
    expect(await page.locator('#pg-errors pre').first().textContent()).toMatch(
      /^scenarios\/01-birth-window\.yaml:\d+:\d+ error: unknown event type `[^`]+` at @\d+ for fold `layered`/,
    );
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+z');
    await settled(page);
    await expect.poll(() => page.locator('#pg-errors pre').count(), { timeout: 30_000 }).toBe(0);
    expect(await page.locator('#pg-fold').inputValue()).toBe('context-protocol');
    await page.context().close();
  });

  it('executes nothing from hostile text and stays responsive on pathological input', { timeout: 120_000 }, async () => {
    const page = await opened('/playground/#open=hostile');
    expect(await paneText(page, '#pg-pane .code')).toContain("<script>window.__pwned='section'</script>");
    await page.locator('#pg-event').selectOption('2');
    await settled(page);
    await insertBefore(
      page,
      'annotations:',
      `  - off: 4\n    t: 3s\n    type: agents/context-added\n    payload: {role: user, content: "</textarea><script>window.__pwned='typed'</script><a href=\\"javascript:window.__pwned='link'\\">x</a>"}\n    note: "</textarea><svg onload=\\"window.__pwned='note'\\">"\n`,
    );
    await expect.poll(() => page.locator('#pg-event option[value="4"]').count(), { timeout: 30_000 }).toBe(1);
    await page.locator('#pg-event').selectOption('4');
    await expect.poll(() => paneText(page, '#pg-pane .code'), { timeout: 30_000 }).toContain("</textarea><script>window.__pwned='typed'</script>");
    for (const link of await page.locator('#pg-pane a').all()) expect(await link.getAttribute('href')).toMatch(/^#@\d+$/);
    expect(await page.locator('#pg-pane script, #pg-pane svg, #pg-pane img, #pg-pane textarea').count()).toBe(0);

    // A 5 MB line is refused before it is parsed or drawn; the page keeps answering.
    await editor(page);
    const pasteMs = await paste(page, `x: ${'A'.repeat(5_000_000)}`);
    await expect.poll(() => page.locator('#pg-status').textContent(), { timeout: 30_000 }).toMatch(/^Not inserted: the text would be 5,\d{3},\d{3} characters/);
    expect(pasteMs).toBeLessThan(5_000); // refused before it is parsed or drawn (not a timing assertion: a hang guard)
    await paste(page, `y: ${'B'.repeat(200_000)}\n`);
    await expect.poll(() => page.locator('#pg-status').textContent(), { timeout: 30_000 }).toMatch(/^Not inserted: a line would be 200,\d{3} characters long/);
    expect(await page.evaluate(() => document.querySelector('.cm-content')!.textContent!.length)).toBeLessThan(1_000_000);

    // An alias bomb (a billion laughs) is an error with a fix, not a hang.
    const bomb = ['id: bomb', 'title: t', 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++)
      bomb.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(`${bomb.join('\n')}\nevents: *j\n`);
    await page.waitForSelector('#pg-errors pre', { timeout: 30_000 });
    await settled(page);
    expect(await page.locator('#pg-errors pre').first().textContent()).toMatch(/^scenarios\/90-hostile\.yaml:\d+:\d+ error: .*\n(.*\n)*\s*fix: /);
    expect(await page.evaluate(() => 1 + 1)).toBe(2);

    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  it('is keyboard-usable and fits 360 px', { timeout: 90_000 }, async () => {
    const page = await opened('/playground/#open=sent-re-add', { width: 360 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // Tab reaches the text (which loads the editor and hands it the focus) and leaves it again (Tab
    // is not trapped), then reaches the event list.
    await page.locator('#pg-download').focus();
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('cm-content')), { timeout: 30_000 }).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.classList.contains('cm-content'))).toBe(false);
    await page.locator('#pg-event').focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.locator('#pg-pane .pane h2').textContent(), { timeout: 30_000 }).not.toBe('Request @31');
    await page.context().close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no axe violations (${colorScheme}), with and without errors`, { timeout: 90_000 }, async () => {
      const page = await opened('/playground/#open=sent-re-add', { colorScheme, bypassCSP: true });
      expect(await axeViolations(page)).toEqual([]);
      await editor(page);
      await page.keyboard.press('Control+Home');
      await page.keyboard.insertText('id: again\n');
      await page.waitForSelector('#pg-errors pre', { timeout: 30_000 });
      expect(await axeViolations(page)).toEqual([]);
      await page.context().close();
    });
  }
});

describe('the playground before its editor is loaded', () => {
  /** [element, text] of each coloured token of highlighted HTML, split at line ends as the source view shows them. */
  const tokensOf = (html: string): [string, string][] =>
    [...html.matchAll(/<(y-[a-z])>([^<]*)<\/\1>/g)].flatMap(([, cls, text]) =>
      text!
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&')
        .split('\n')
        .filter(Boolean)
        .map((part): [string, string] => [cls!, part]),
    );

  it('counts with cl100k_base when a profile names it, fetching its tables only then', { timeout: 90_000 }, async () => {
    // Every profile counting with cl100k_base, as a site's custom profile may: corpus.json changed on its way.
    const page = await opened('/playground/#open=rewrite-vs-re-add@42', {
      corpus: (json) => ({
        ...json,
        economics: { ...json.economics, profiles: Object.fromEntries(Object.entries(json.economics.profiles).map(([id, p]) => [id, { ...p, tokenizer: 'cl100k_base' }])) },
      }),
    });
    // The request as the fold renders it, counted by gpt-tokenizer's own chat encodings.
    const texts = readdirSync(join(ROOT, 'scenarios')).map((n) => ({ file: `scenarios/${n}`, text: readFileSync(join(ROOT, 'scenarios', n), 'utf8') }));
    const request = (await renderTexts(texts, config, { everyEvent: false })).scenarios.find((r) => r.scenario.id === 'rewrite-vs-re-add')!.requests.find((q) => q.offset === 42)!;
    const chat = request.messages.map((m) => ({ role: m.role as 'user', content: m.content }));
    const want = clChat(chat, 'gpt-4').length;
    expect(want).not.toBe(o200kChat(chat, 'gpt-4o').length); // the two encodings tell apart here
    const tokens = page.locator('#pg-pane .pane .pane-head .econ-tokens');
    await expect.poll(() => tokens.textContent(), { timeout: 30_000 }).toContain(` · ${want.toLocaleString('en-US')} tokens`);
    expect(fetched.get(page)!.filter((p) => /\/cl100k_base[-.][^/]*\.js$/.test(p))).toHaveLength(1);
    await page.context().close();
  });

  it('shows the first pane before the tokenizer’s tables and js-yaml arrive, then patches the figures in: a reader’s place holds', { timeout: 90_000 }, async () => {
    // The economics' chunks are held until released; js-yaml's fetch notes whether the pane was already shown.
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(`first pane: ${e.message}`));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const held: string[] = [];
    await page.route(/\/(economics|o200k_base)[-.][^/]*\.js/, async (route) => {
      held.push(new URL(route.request().url()).pathname);
      await gate;
      await route.continue();
    });
    const jsYaml: boolean[] = [];
    await page.route(/\/js-yaml[-.][^/]*\.js/, async (route) => {
      jsYaml.push(await page.evaluate(() => !!document.querySelector('#pg-pane .pane')));
      await route.continue();
    });
    await page.goto(`${site.url}/playground/#open=rewrite-vs-re-add@42`);
    const pane = page.locator('#pg-pane .pane[data-offset="42"]');
    await pane.waitFor();
    // The prompt is there; its figures' places say they are coming, in the header and under the ✂ line.
    expect(await pane.locator('.pane-head .econ-pending').textContent()).toBe('counting tokens…');
    expect(await pane.locator('.cut-econ.pending').textContent()).toBe('counting tokens…');
    expect(await pane.locator('.econ-tokens, .cut-econ:not(.pending)').count()).toBe(0);
    await expect.poll(() => held.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(jsYaml).toEqual([true]); // asked for once, after the first pane
    // A reader who has scrolled to the lines under the ✂ line: the one at the top of the window stays there.
    const reading = page.locator('#pg-pane .pane .cut-econ ~ div').nth(3);
    await reading.evaluate((n) => {
      n.scrollIntoView({ block: 'start' });
      (n as HTMLElement & { reading?: true }).reading = true;
    });
    const top = () => reading.evaluate((n) => n.getBoundingClientRect().top);
    const before = await top();
    release();
    const tokens = page.locator('#pg-pane .pane[data-offset="42"] .pane-head .econ-tokens');
    await expect.poll(() => tokens.count(), { timeout: 30_000 }).toBe(1);
    expect(await page.locator('#pg-pane .econ-pending, #pg-pane .cut-econ.pending').count()).toBe(0);
    expect(await page.locator('#pg-pane .pane .cut-econ').textContent()).toMatch(/^1,129 tokens above this line — cache broke/);
    // Patched in place (the same line element), so the browser's scroll anchoring keeps it where it was.
    expect(await reading.evaluate((n) => (n as HTMLElement & { reading?: true }).reading === true && n.isConnected)).toBe(true);
    expect(Math.abs((await top()) - before)).toBeLessThanOrEqual(1); // sub-pixel rounding of the anchored scroll
    await context.close();
  });

  it('opens in the source view without fetching CodeMirror, in the text and colours of the event YAML', { timeout: 90_000 }, async () => {
    const file = readFileSync(join(ROOT, 'scenarios/02-sent-re-add.yaml'), 'utf8');
    const page = await opened('/playground/#open=sent-re-add');
    await page.waitForSelector('#pg-source .pg-src-text y-k');
    expect(await page.locator('.cm-editor').count()).toBe(0);
    expect(fetched.get(page)!.length).toBeGreaterThan(1); // the page script and the worker…
    expect(fetched.get(page)!.filter(isCodeMirror)).toEqual([]); // …and nothing of CodeMirror…
    expect(fetched.get(page)!.filter((p) => /cl100k/.test(p))).toEqual([]); // …nor the tables of an encoding no profile names

    expect((await page.locator('#pg-source .pg-src-text').allTextContents()).join('\n')).toBe(file);
    const shown = await page.locator('#pg-source .pg-src-text *').evaluateAll((els) => els.map((s) => [s.localName, s.textContent]));
    expect(shown.length).toBeGreaterThan(10);
    expect(shown).toEqual(tokensOf(yamlSourceHtml(file, await yamlTokenTags())));
    // The same elements give the same colours as on the scenario page's event YAML.
    const keyTag = shown.find(([, t]) => t === 'id')![0]!;
    const colourOf = (p: Page, sel: string): Promise<string> =>
      p
        .locator(sel)
        .first()
        .evaluate((el) => getComputedStyle(el).color);
    const scenario = await open('/scenarios/sent-re-add/');
    // The event YAML is written when opened (from the page's data file).
    await scenario.locator('.timeline > li.card details.event-yaml > summary').first().click();
    await scenario.locator(`details pre code ${keyTag}`).first().waitFor();
    const onScenario = await colourOf(scenario, `details pre code ${keyTag}`);
    expect(await colourOf(page, `#pg-source ${keyTag}`)).toBe(onScenario);
    // Strings, untagged, are the text's own colour on both.
    expect(await colourOf(page, '#pg-source .pg-src-text')).toBe(await colourOf(scenario, 'details pre code'));
    expect(onScenario).not.toBe(await colourOf(page, '#pg-source .pg-src-text'));
    await scenario.context().close();

    // The first click fetches CodeMirror (so the check above can see it), with the same text.
    await page.locator('#pg-source').click();
    await page.waitForSelector('.cm-content:focus', { timeout: 30_000 });
    expect(fetched.get(page)!.filter(isCodeMirror).length).toBeGreaterThan(0);
    expect(await page.locator('#pg-source').count()).toBe(0);
    expect(await page.locator('.cm-line').first().textContent()).toBe(file.split('\n')[0]);
    await page.context().close();
  });

  it('puts the cursor where the reader clicked and keeps the keys typed while the editor loads', { timeout: 90_000 }, async () => {
    const page = await opened('/playground/#open=sent-re-add');
    const release = await holdScripts(page);
    // A click just inside the 5th character of line 2 (`id: sent-re-add`): the cursor goes before it.
    const at = await page
      .locator('#pg-source .pg-src-text')
      .nth(1)
      .evaluate((el) => {
        // The text node holding character 4 (whatever tags the colouring put around the text).
        const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        let at = 4;
        let node = walk.nextNode() as Text;
        while (at >= node.length) {
          at -= node.length;
          node = walk.nextNode() as Text;
        }
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        const r = range.getBoundingClientRect();
        return { x: r.left + 1, y: r.top + r.height / 2 };
      });
    await page.mouse.click(at.x, at.y);
    await page.keyboard.type('QWX');
    await page.keyboard.press('Backspace');
    expect(await page.locator('#pg-source').getAttribute('aria-busy')).toBe('true');
    expect(await page.locator('#pg-status').textContent()).toBe('Loading the editor…');
    expect(await page.locator('.cm-editor').count()).toBe(0);
    release();
    await page.waitForSelector('.cm-content:focus', { timeout: 30_000 });
    await expect.poll(() => cursorLine(page)).toBe('2');
    await expect.poll(() => page.locator('.cm-line').nth(1).textContent()).toBe('id: QWsent-re-add');
    await page.keyboard.type('Z'); // the editor goes on from there
    expect(await page.locator('.cm-line').nth(1).textContent()).toBe('id: QWZsent-re-add');
    await page.context().close();
  });

  it('is editable from the keyboard alone: Tab to the text and type', { timeout: 90_000 }, async () => {
    const page = await opened('/playground/#open=sent-re-add');
    const release = await holdScripts(page);
    await page.locator('#pg-download').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('pg-source');
    expect(await page.locator('#pg-source').getAttribute('aria-label')).toBe('Scenario YAML — press a key or click to edit');
    await page.keyboard.type('#');
    await page.keyboard.press('Enter');
    release();
    await page.waitForSelector('.cm-content:focus', { timeout: 30_000 });
    await expect.poll(() => page.locator('.cm-line').first().textContent()).toBe('#');
    expect(await page.locator('.cm-line').nth(1).textContent()).toBe('# yaml-language-server: $schema=../schemas/scenario.context-protocol.json');
    await page.context().close();
  });

  it('colours the source view in place: nothing below it moves when the colours arrive', { timeout: 90_000 }, async () => {
    // The worker's colours (its 'tokens' message, sent after the answer) are held until released, and every line element removed is counted.
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(`colours in place: ${e.message}`));
    await page.addInitScript(() => {
      const w = window as unknown as { held: (() => void)[]; removedLines: number };
      w.held = [];
      w.removedLines = 0;
      const Native = window.Worker;
      window.Worker = class extends Native {
        override set onmessage(h: ((ev: MessageEvent) => void) | null) {
          super.onmessage = (ev: MessageEvent) => (ev.data?.kind === 'tokens' ? w.held.push(() => h!(ev)) : h!(ev));
        }
      };
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.removedNodes) if ((n as Element).classList?.contains('pg-src-ln')) w.removedLines++;
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${site.url}/playground/#open=birth-window`);
    await page.waitForSelector('#pg-pane .pane');
    await settled(page);
    // Another fold: errors (no editor is loaded for them), and the new text's colours held like the first's.
    await page.locator('#pg-fold').selectOption('layered');
    await page.waitForSelector('#pg-errors .pg-goto', { timeout: 30_000 });
    await settled(page);
    await page.waitForFunction(() => (window as unknown as { held: unknown[] }).held.length === 2, undefined, { timeout: 30_000 });
    expect(await page.locator('#pg-source y-k').count()).toBe(0); // plain so far
    // Where a click on Go to line scrolls to: source lines above the button, in view.
    await page.locator('.pg-goto').first().scrollIntoViewIfNeeded();
    await painted(page); // the lines scrolled into view are laid out (content-visibility)
    const top = () =>
      page
        .locator('.pg-goto')
        .first()
        .evaluate((e) => e.getBoundingClientRect().top);
    const before = await top();
    await page.evaluate(() => {
      for (const f of (window as unknown as { held: (() => void)[] }).held.splice(0)) {
        f();
      }
    });
    await page.waitForSelector('#pg-source y-k', { state: 'attached' });
    await painted(page);
    expect(await top()).toBe(before);
    expect(await page.evaluate(() => (window as unknown as { removedLines: number }).removedLines)).toBe(0);
    await context.close();
  });

  it('switches the scenario and the fold without the editor, marking the error lines, and Go to line opens it there', { timeout: 90_000 }, async () => {
    const page = await opened('/playground/#open=birth-window');
    await page.locator('#pg-fold').selectOption('layered');
    await page.waitForSelector('#pg-errors pre', { timeout: 30_000 });
    await settled(page);
    const line = Number(/^scenarios\/01-birth-window\.yaml:(\d+):/.exec((await page.locator('#pg-errors pre').first().textContent())!)![1]);
    expect(await page.locator('#pg-source .pg-src-text').allTextContents()).toContain('fold: layered');
    const marked = await page.locator('#pg-source .pg-src-ln.pg-src-err .pg-src-no').allTextContents();
    expect(marked).toContain(String(line));
    expect(await page.locator('#pg-source .pg-src-err .pg-src-marker').count()).toBe(marked.length);

    await page.locator('#pg-open').selectOption('sent-re-add');
    await expect.poll(() => page.locator('#pg-pane .pane h2').textContent(), { timeout: 30_000 }).toBe('Request @31');
    await settled(page);
    expect((await page.locator('#pg-source .pg-src-text').allTextContents()).join('\n')).toBe(readFileSync(join(ROOT, 'scenarios/02-sent-re-add.yaml'), 'utf8'));
    expect(await page.locator('#pg-source .pg-src-err').count()).toBe(0);
    expect(await page.locator('.cm-editor').count()).toBe(0);
    expect(fetched.get(page)!.filter(isCodeMirror)).toEqual([]);

    // An error's "Go to line" loads the editor with the cursor on that line.
    await page.locator('#pg-open').selectOption('birth-window');
    await page.locator('#pg-fold').selectOption('layered');
    // The run for the new fold answers first (under load an earlier answer could still re-render the list under the click).
    await page.waitForSelector('#pg-errors pre', { timeout: 30_000 });
    await settled(page);
    await inViewAndStill(page, '.pg-goto');
    await page.locator('.pg-goto').first().click({ timeout: 30_000 });
    await page.waitForSelector('.cm-content:focus', { timeout: 30_000 });
    await expect.poll(() => cursorLine(page)).toBe(String(line));
    expect(await page.locator('.cm-lint-marker-error').count()).toBeGreaterThan(0);
    await page.context().close();
  });

  it('loads the editor at once when the opened text has errors, without taking the focus', { timeout: 90_000 }, async () => {
    const text = readFileSync(join(ROOT, 'scenarios/02-sent-re-add.yaml'), 'utf8').replace(/^id: .*$/m, (l) => `${l}\nid: twice`);
    const page = await open(`/playground/${encodeState({ file: 'scenarios/02-sent-re-add.yaml', text })}`);
    await page.waitForSelector('.cm-editor', { timeout: 30_000 });
    await expect.poll(() => page.locator('.cm-lint-marker-error').count(), { timeout: 30_000 }).toBe(1);
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    expect(await page.locator('#pg-errors pre').first().textContent()).toMatch(/^scenarios\/02-sent-re-add\.yaml:3:1 error: /);
    await page.context().close();
  });

  it('says so when the editor cannot be loaded, keeps the text readable, and tries again on the next click', { timeout: 90_000 }, async () => {
    const page = await opened('/playground/#open=sent-re-add');
    await page.route(/\.m?js(\?|$)/, (route) => route.abort());
    await page.locator('#pg-source').click();
    await expect.poll(() => page.locator('#pg-status').textContent(), { timeout: 30_000 }).toMatch(/^The editor could not be loaded \(.+\); the text stays readable here/);
    expect(await page.locator('#pg-source').getAttribute('aria-busy')).toBeNull();
    expect(await page.locator('#pg-source .pg-src-ln').count()).toBeGreaterThan(10);
    expect(await page.locator('.cm-editor').count()).toBe(0);
    await page.unroute(/\.m?js(\?|$)/);
    // The retry is a real fetch (Chromium keeps the failed one in its module map: the same URL would fail at once, unfetched).
    const fetched: string[] = [];
    page.on('requestfinished', (r) => void (/\/editor\.[^/]*\.js/.test(r.url()) && fetched.push(r.url())));
    await page.locator('#pg-source').click();
    await page.waitForSelector('.cm-content:focus', { timeout: 30_000 });
    expect(fetched).toEqual([expect.stringMatching(/\/editor\.[^/?]+\.js\?retry=1$/)]);
    await page.context().close();
  });

  it('shows hostile text as text, and executes nothing before and after the editor loads', { timeout: 90_000 }, async () => {
    const hostile = `${readFileSync(join(ROOT, 'tests/fixtures/hostile/90-hostile.yaml'), 'utf8')}# </textarea><script>window.__pwned='comment'</script><a href="javascript:window.__pwned='a'">x</a><img src=x onerror="window.__pwned='img'">\n`;
    const page = await opened(`/playground/${encodeState({ file: 'scenarios/90-hostile.yaml', text: hostile })}`);
    // Tall enough that the editor (at most 75vh) holds every line: CodeMirror renders only the lines
    // near its viewport, and the click below puts the cursor — and the scroll — on the last one.
    await page.setViewportSize({ width: 1280, height: 4000 });
    await page.waitForSelector('#pg-source .pg-src-text y-k');
    expect(await page.locator('.cm-editor').count()).toBe(0);
    expect((await page.locator('#pg-source .pg-src-text').allTextContents()).join('\n')).toBe(hostile);
    expect(await page.locator('#pg-source *:not(div.pg-src-ln, span, y-k, y-n, y-p, y-h, y-c)').count()).toBe(0);
    expect(await page.locator('#pg-editor script, #pg-editor img, #pg-editor a, #pg-editor textarea, #pg-editor svg').count()).toBe(0);
    await page.locator('#pg-source .pg-src-ln').last().click();
    await page.waitForSelector('.cm-content:focus', { timeout: 30_000 });
    // Polled: CodeMirror first draws the lines near the cursor, and every line once it has measured
    // the editor (a frame later, or several on a busy machine: once in a fresh-clone run it had drawn 15 of 40).
    await expect.poll(() => page.locator('.cm-line').allTextContents(), { timeout: 30_000 }).toEqual(hostile.split('\n'));
    expect(await page.locator('#pg-editor script, #pg-editor img, #pg-editor a, #pg-editor textarea, #pg-editor svg').count()).toBe(0);
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
});
