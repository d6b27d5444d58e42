/**
 * Browser tests of the built site (playwright-core driving Debian's chromium, a static server on
 * 127.0.0.1; CHROMIUM_PATH overrides /usr/bin/chromium): the bundled corpus plus the hostile scenarios from tests/fixtures/hostile — the
 * run's one shared build (tests/support/shared-site.ts). Light and dark screenshots go to test-results/.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { type BuiltSite, logPageErrors, type OpenOptions, pathOn, ReusedPages } from '../support/browser.ts';
import { sharedSite } from '../support/shared-site.ts';
import { ROOT } from '../support/project.ts';

const ARTIFACTS = join(ROOT, 'test-results');

let built: BuiltSite;
let dir: string;
let site: BuiltSite['site'];
let browser: Browser;
const consoleErrors: string[] = [];
/** Polls wait for the page script, which can be slow on a loaded machine (no timing is asserted). */
const POLL = { timeout: 10_000 };

beforeAll(async () => {
  built = await sharedSite();
  ({ dir, site, browser } = built);
  mkdirSync(ARTIFACTS, { recursive: true });
}, 600_000);

afterAll(() => built?.close());

// bypassCSP: axe is injected as an inline script, which the pages' policy rightly blocks (tests/e2e/csp.test.ts tests the policy).
const pages = new ReusedPages(
  () => ({ browser, url: site.url }),
  (page) => {
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(`${pathOn(page)}: ${m.text()}`));
    logPageErrors(page, consoleErrors);
  },
);
const open = (path: string, opts?: OpenOptions): Promise<Page> => pages.open(path, opts);
const done = (page: Page): Promise<void> => pages.done(page);

const scenarioIds = (): string[] =>
  readdirSync(join(dir, 'dist/scenarios'))
    .filter((d) => !d.startsWith('.'))
    .sort();

/** The page's background in each scheme (site.css --pfe-bg): proof that the emulated scheme is the one painted. */
const BACKGROUND = { light: 'rgb(255, 255, 255)', dark: 'rgb(13, 17, 23)' } as const;

/**
 * axe on an open page in each colour scheme in turn, switched by media emulation (the stylesheet's
 * light-dark() colours follow prefers-color-scheme live) rather than a new context and load per
 * scheme; each scheme's background is checked first, so a scheme that did not apply fails here.
 */
async function axeInEachScheme(page: Page): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), colorScheme).toBe(BACKGROUND[colorScheme]);
    expect(await axeViolations(page), colorScheme).toEqual([]);
  }
}

describe('the built site', () => {
  it('lists every scenario on the index', async () => {
    const page = await open('/');
    const links = await page.locator('.scenario-list h3 a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(links.map((h) => h!.replace(/^\/scenarios\/|\/$/g, '')).sort()).toEqual(scenarioIds());
    expect(links.length).toBeGreaterThanOrEqual(11);
    await done(page);
  });

  it('selects an event and shows the request as of it', async () => {
    const page = await open('/scenarios/sent-re-add/');
    const visible = page.locator('.pane.selected');
    // opens on the request the scenario is about (its `opens:`)
    await expect.poll(() => visible.getAttribute('data-offset'), POLL).toBe('42');
    await page.locator('.card[data-offset="40"] .card-link').click();
    await expect.poll(() => visible.getAttribute('data-offset'), POLL).toBe('40');
    expect(await visible.locator('h2').textContent()).toBe('As of @40');
    expect(await visible.locator('.code').textContent()).toContain('<section key="project/agents-md" supersedes="@16">');
    expect(await visible.locator('.code > .s-added').count()).toBeGreaterThan(0);
    expect(page.url()).toMatch(/#@40$/);
    await page.locator('.card[data-offset="42"] .card-link').click();
    expect(await visible.locator('h2').textContent()).toBe('Request @42');
    expect(await visible.locator('.cut').count()).toBe(1);
    expect(await page.locator('.pane:visible').count()).toBe(1);
    await done(page);
  });

  it('opens a deep link #@offset selected', async () => {
    const page = await open('/scenarios/sent-re-add/#@42');
    await expect.poll(() => page.locator('.pane.selected').getAttribute('data-offset'), POLL).toBe('42');
    expect(await page.locator('.card.selected').getAttribute('data-offset')).toBe('42');
    expect(await page.locator('.card.selected .card-link').getAttribute('aria-current')).toBe('true');
    await done(page);
  });

  it('marks each annotation’s text and shows its comment', async () => {
    const page = await open('/scenarios/sent-re-add/#@42');
    const pane = page.locator('.pane.selected');
    const marks = await pane.locator('mark.anchor').allTextContents();
    expect(marks).toContain('supersedes="@16"');
    const notes = pane.locator('.note');
    expect(await notes.count()).toBeGreaterThanOrEqual(1);
    for (const n of await notes.all()) expect(await n.isVisible()).toBe(true);
    await done(page);
  });

  it('links a prompt line to the event that produced it', async () => {
    const page = await open('/scenarios/sent-re-add/#@42');
    await expect.poll(() => page.locator('.pane.selected').getAttribute('data-offset'), POLL).toBe('42');
    // the link's title is written when it is pointed at or focused (not in the page), from the cards
    const titled = page.locator('.pane.selected .gutter > a[title]');
    expect(await titled.count()).toBe(0);
    const several = page.locator('.pane.selected .code > [data-from*=" "] > .gutter > a').first();
    const offs = (await several.evaluate((a) => a.parentElement!.parentElement!.getAttribute('data-from')))!.split(' ');
    await several.focus();
    expect(await several.getAttribute('title')).toBe(
      (await Promise.all(offs.map(async (o) => `from @${o} ${await page.locator(`.card[data-offset="${o}"] .type`).textContent()}`))).join('; '),
    );
    const link = page.locator('.pane.selected .gutter > a[href="#@40"]').first();
    await link.hover();
    expect(await link.getAttribute('title')).toBe('from @40 agents/context-added');
    await link.click();
    await expect.poll(() => page.locator('.card.selected').getAttribute('data-offset'), POLL).toBe('40');
    expect(await page.locator('.pane.selected').getAttribute('data-offset')).toBe('40');
    await done(page);
  });

  it('highlights the card a hovered line came from, on any line of its run, in built and page-built panes', async () => {
    const page = await open('/scenarios/sent-re-add/#@42');
    for (const off of ['42', '40']) {
      if (off === '40') await page.locator('.card[data-offset="40"] .card-link').click();
      const pane = page.locator(`.pane[data-offset="${off}"]`);
      await expect.poll(() => pane.isVisible(), POLL).toBe(true);
      // the last line of the run the @40 link starts (the provenance is written on its first line only)
      const run = pane.locator('.review-view[data-view="after"] > div:has(> .gutter > a[href="#@40"])').first();
      const last = await run.evaluate((first) => {
        let last: Element = first;
        for (let l = first.nextElementSibling; l && !l.matches('[data-from], :has(> .gutter)'); l = l.nextElementSibling)
          if (l.matches(':not([role], details, .s-removed, .s-was)')) last = l;
        last.setAttribute('data-test-last', '');
        return last === first ? null : last.textContent;
      });
      expect(last, `a run of several lines in pane @${off}`).not.toBeNull();
      await pane.locator('[data-test-last]').hover();
      expect(await page.locator('.card.prov-hover').evaluateAll((cs) => cs.map((c) => (c as HTMLElement).dataset.offset))).toEqual(['40']);
      await page.mouse.move(0, 0);
      expect(await page.locator('.card.prov-hover').count()).toBe(0);
      // a blank line between two paragraphs of one event is written bare: of no event itself, and
      // the run goes on after it (the next paragraph has no gutter link of its own)
      const gap = pane.locator('.review-view[data-view="after"] > div:empty:not([data-from], [role])').first();
      const runOf = await gap.evaluate((g) => {
        for (let l = g.previousElementSibling; l; l = l.previousElementSibling) {
          if (l.hasAttribute('data-from')) return null;
          const a = l.querySelector(':scope > .gutter > a');
          if (a) return a.getAttribute('href')!.replace(/^.*#@/, '');
        }
        return null;
      });
      expect(runOf, `a run through a blank line in pane @${off}`).not.toBeNull();
      await gap.hover();
      expect(await page.locator('.card.prov-hover').count()).toBe(0);
      const after = gap.locator('xpath=following-sibling::div[1]');
      expect(await after.locator('> .gutter').count()).toBe(0);
      await after.hover();
      expect(await page.locator('.card.prov-hover').evaluateAll((cs) => cs.map((c) => (c as HTMLElement).dataset.offset))).toEqual([runOf]);
      await page.mouse.move(0, 0);
    }
    // a line of no event (the blank line between two sections) ends the run above it: no card
    const blank = page.locator('.pane[data-offset="40"] .review-view[data-view="after"] > [data-from=""]').first();
    await blank.evaluate((l) => l.previousElementSibling!.setAttribute('data-test-above', ''));
    await page.locator('.pane[data-offset="40"] [data-test-above]').hover();
    expect(await page.locator('.card.prov-hover').count()).toBe(1);
    await blank.hover();
    expect(await page.locator('.card.prov-hover').count()).toBe(0);
    // the line after it starts the next run: its own event
    const next = blank.locator('xpath=following-sibling::div[1]');
    const nextOff = await next.locator('.gutter > a').getAttribute('href');
    await next.hover();
    expect(await page.locator('.card.prov-hover').evaluateAll((cs) => cs.map((c) => `#@${(c as HTMLElement).dataset.offset}`))).toEqual([nextOff]);
    await done(page);
  });

  it("shows a changed line's sign and says what changed to assistive technology, with no element per sign", async () => {
    const page = await open('/scenarios/rewrite-vs-re-add/#@42');
    const pane = page.locator('.pane.selected');
    await expect.poll(() => pane.getAttribute('data-offset'), POLL).toBe('42');
    await pane.locator('button.show-old').click();
    const kinds = { 's-changed': 'changed', 's-added': 'added', 's-removed': 'removed', 's-was': 'was' } as const;
    for (const [cls, word] of Object.entries(kinds)) {
      const line = pane.locator(`.review-view[data-view="after"] > .${cls}`).first();
      expect(await line.count(), cls).toBe(1);
      expect(await line.locator('.sign, .visually-hidden').count()).toBe(0);
      // the accessibility tree: the line's text starts with its status word (CSS alternative text)
      const snapshot = await line.ariaSnapshot();
      expect(snapshot, cls).toMatch(new RegExp(`^- text: "?${word}\\b`, 'm'));
      expect(snapshot).not.toMatch(/[+~−] /);
      // on screen: the sign paints the line (hidden, the line looks different)
      await line.scrollIntoViewIfNeeded();
      const shown = await line.screenshot();
      const hide = await page.addStyleTag({ content: '.code > *::before { visibility: hidden; }' });
      const hidden = await line.screenshot();
      await hide.evaluate((e) => (e as Element).remove());
      expect(shown.equals(hidden), `${cls}: a visible sign`).toBe(false);
    }
    // an unchanged line has no sign: hiding signs changes nothing there
    const same = pane.locator('.review-view[data-view="after"] > :not([role], details, [class*="s-"])').nth(3);
    expect(await same.ariaSnapshot()).not.toMatch(/added|changed|removed/);
    await same.scrollIntoViewIfNeeded();
    const plain = await same.screenshot();
    const hide = await page.addStyleTag({ content: '.code > *::before { visibility: hidden; }' });
    expect((await same.screenshot()).equals(plain)).toBe(true);
    await hide.evaluate((e) => (e as Element).remove());
    await done(page);
  });

  it('hangs a wrapped prompt line at its own indent: the usual six spaces without a class, others by theirs', async () => {
    const page = await open('/scenarios/sent-re-add/#@42');
    const pane = page.locator('.pane.selected');
    await expect.poll(() => pane.getAttribute('data-offset'), POLL).toBe('42');
    const hang = await pane.locator('.review-view[data-view="after"]').evaluate((box) => {
      const lines = [...box.querySelectorAll(':scope > div:not([role])')].filter((l) => l.textContent !== '');
      const indentOf = (l: Element): number => -Number.parseFloat(getComputedStyle(l).textIndent);
      const text = (l: Element): string =>
        [...l.childNodes]
          .filter((n) => !(n instanceof Element && n.matches('.gutter')))
          .map((n) => n.textContent)
          .join('');
      const pick = (f: (l: Element) => boolean): Element => lines.find(f)!;
      const usual = pick((l) => !l.className && /^ {6}\S/.test(text(l)));
      const zero = pick((l) => l.classList.contains('i0') && /^\S/.test(text(l)));
      const four = pick((l) => l.classList.contains('i4') && /^ {4}\S/.test(text(l)));
      return { usual: indentOf(usual), zero: indentOf(zero), four: indentOf(four) };
    });
    expect(hang.zero).toBeCloseTo(0, 5);
    expect(hang.four).toBeGreaterThan(0);
    expect(hang.usual / hang.four).toBeCloseTo(6 / 4, 5);
    await done(page);
  });

  it('moves between events with j/k and the arrow keys', async () => {
    const page = await open('/scenarios/sent-re-add/#@40');
    await expect.poll(() => page.locator('.card.selected').getAttribute('data-offset'), POLL).toBe('40');
    await page.locator('body').press('j');
    expect(await page.locator('.card.selected').getAttribute('data-offset')).toBe('41');
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('.card.selected').getAttribute('data-offset')).toBe('42');
    await page.keyboard.press('k');
    await page.keyboard.press('ArrowUp');
    expect(await page.locator('.card.selected').getAttribute('data-offset')).toBe('40');
    expect(await page.evaluate(() => document.activeElement?.closest('.card')?.getAttribute('data-offset'))).toBe('40');
    await done(page);
  });

  it('shows every pinned request in full without JavaScript (and offers no event YAML it cannot write)', async () => {
    const page = await open('/scenarios/sent-re-add/', { javaScript: false });
    expect(await page.locator('.card details.event-yaml').count()).toBeGreaterThan(0);
    expect(await page.locator('.card details.event-yaml').evaluateAll((ds) => ds.filter((d) => getComputedStyle(d).display !== 'none').length)).toBe(0);
    const shown = await page.locator('.pane').evaluateAll((ps) => ps.filter((p) => getComputedStyle(p).display !== 'none').map((p) => p.getAttribute('data-offset')));
    expect(shown).toEqual(['31', '42']);
    expect(await page.locator('.pane[data-offset="42"] .note').first().isVisible()).toBe(true);
    await done(page);
  });

  it('expands an abridged stand-in to its full text, and shows the protocol prompt before/after, without JavaScript', async () => {
    const page = await open('/scenarios/sent-re-add/', { javaScript: false });
    const abridged = page.locator('.pane[data-offset="42"] details.abridged');
    expect(await abridged.count()).toBe(1);
    expect(await abridged.locator('pre').isVisible()).toBe(false);
    await abridged.locator('summary').click();
    const full = await abridged.locator('pre').innerText();
    expect(full).toContain('append-only event stream');
    expect(full).toContain('<section key="…">'); // shown literally, not parsed as markup
    await done(page);
    const ref = await open('/reference/context-protocol/', { javaScript: false });
    expect(await ref.locator('.text-diff del').allInnerTexts()).toContain('Every');
    expect((await ref.locator('.text-diff ins').allInnerTexts()).join(' ')).toContain('and developer-role');
    await done(ref);
  }, 60_000);

  it('expands an abridged stand-in in a pane the page script builds (the state as of a non-request event)', async () => {
    const page = await open('/scenarios/sent-re-add/#@40');
    const built = page.locator('.pane[data-offset="40"] details.abridged');
    await built.locator('summary').click();
    expect(await built.locator('pre').innerText()).toContain('append-only event stream');
    await done(page);
  }, 60_000);

  it('lists every audited producer on the layered placement table, with the fold’s computed placements', async () => {
    const page = await open('/reference/layered-placement/', { javaScript: false });
    const row = (id: string) => page.locator(`tr#${id}`);
    const placed = (id: string) => row(id).locator('td.today .badge, td.after .badge').allInnerTexts();
    expect(await placed('recoveryTicket')).toEqual(['system fold', 'trailing slot']);
    expect(await placed('neededArtifact')).toEqual(['inline', 'inline']);
    expect(await placed('steeringNote-locked')).toEqual(['system fold + reminder', 'system fold + reminder']);
    // Shown by today's scenario, the recommended one, and the mid-conversation one (it arrives after the first send).
    expect(await row('recoveryTicket').locator('.demos .badge').allInnerTexts()).toEqual(['system fold', 'trailing slot', 'mid-conversation system']);
    // The three placements in numbers: one row each, every figure a price or a share.
    expect(await page.locator('.compare-table tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/^today.*\t0 %\t≈\$0\.\d+\t≈\$0\.\d+$/),
      expect.stringMatching(/^recommended.*\t\d+ %\t≈\$0\.\d+\t≈\$0\.\d+$/),
      expect.stringMatching(/^mid-conversation system messages.*\t\d+ %\t≈\$0\.\d+\t≈\$0\.\d+$/),
    ]);
    expect(await row('artifactRepair').innerText()).toContain("Outside this fold's model.");
    expect(await row('rejectionFeedback').locator('a[href*="layered-operator-rejection-recommended/#@10"]').count()).toBe(1);
    expect(await page.locator('tr.moves').count()).toBe(4);
    await done(page);
  });

  // Every reference page: the hand-written ones (their code blocks are highlighted), the generated
  // placement table and one payload reference per configured fold.
  const referencePages = ['context-protocol', 'layered', 'layered-placement', 'wire-formats', 'writing-scenarios', 'bring-your-own-fold', 'economics', 'cache-promises'].map(
    (p) => `/reference/${p}/`,
  );
  const payloadPages = ['context-protocol', 'layered', 'requests'].map((f) => `/reference/payloads/${f}/`);
  it('checks every built reference page with axe (a new page joins the list above)', () => {
    const built = readdirSync(join(dir, 'dist/reference'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('index.html'))
      .map((f) => `/reference/${f.replace(/index\.html$/, '')}`);
    expect(built.sort()).toEqual([...referencePages, ...payloadPages].sort());
  });

  for (const path of ['/', '/scenarios/sent-re-add/#@40', ...referencePages, ...payloadPages]) {
    // axe takes a while on a long page of a busy machine (no timing is asserted)
    it(`has no axe violations: ${path}`, { timeout: 120_000 }, async () => {
      const page = await open(path, { bypassCSP: true });
      await axeInEachScheme(page);
      await done(page);
    });
  }

  it('has no axe violations on the search page (its input labelled) nor with every event YAML open', { timeout: 120_000 }, async () => {
    const search = await open('/search/', { bypassCSP: true });
    await search.locator('#search input[aria-label]').waitFor();
    await axeInEachScheme(search);
    await done(search);
    const page = await open('/scenarios/cache-economics/#@42', { bypassCSP: true });
    await page.locator('.card details').evaluateAll((ds) => {
      for (const d of ds) d.setAttribute('open', '');
    });
    // …and written: the page script adds each one's <pre> and fills it from the page's data file as it opens.
    await page.waitForFunction(() => [...document.querySelectorAll('.card details.event-yaml')].every((d) => d.querySelector(':scope > pre > code')?.hasChildNodes()));
    await axeInEachScheme(page);
    await done(page);
  });

  it('is readable at 360px without horizontal scrolling', async () => {
    const page = await open('/scenarios/sent-re-add/#@42', { width: 360 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: join(ARTIFACTS, 'scenario-360.png') });
    await done(page);
  });

  it('finds a scenario by a word from its prompt (offline search)', async () => {
    const page = await open('/search/');
    await page.locator('#search input').fill('CHANGELOG');
    await expect
      .poll(() => page.locator('.pagefind-ui__result-link').evaluateAll((as) => as.map((a) => a.getAttribute('href'))), { timeout: 10_000 })
      .toContain('/scenarios/sent-re-add/');
    await done(page);
  });

  it('saves light and dark screenshots of a scenario page', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await open('/scenarios/sent-re-add/#@42', { colorScheme });
      await page.screenshot({ path: join(ARTIFACTS, `scenario-${colorScheme}.png`) });
      expect(readFileSync(join(ARTIFACTS, `scenario-${colorScheme}.png`)).length).toBeGreaterThan(10_000);
      await done(page);
    }
  });

  it('toggles the theme and remembers it', async () => {
    const page = await open('/');
    await page.locator('.theme-toggle').click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(13, 17, 23)');
    await done(page);
  });
});

describe('cache economics', () => {
  it('renders the panel, its chart and the ✂ note without JavaScript', async () => {
    const page = await open('/scenarios/rewrite-vs-re-add/', { javaScript: false });
    const panel = page.locator('#economics');
    expect(await panel.isVisible()).toBe(true);
    const svg = panel.locator('svg[role="img"]');
    expect(await svg.isVisible()).toBe(true);
    expect(await svg.locator('title').textContent()).toBe('Cached and new input tokens per request');
    expect(await svg.locator('desc').textContent()).toMatch(/^@21: [\d,]+ cached, [\d,]+ new; @32: [\d,]+ cached, [\d,]+ new; @42: [\d,]+ cached, [\d,]+ new$/);
    expect(await svg.locator('rect.econ-new').count()).toBe(3);
    const rows = panel.locator('table.econ-requests tbody tr');
    expect(await rows.count()).toBe(3);
    expect(await rows.nth(2).textContent()).toMatch(/@42.*tools or a system message changed @40 agents\/context-rewritten[\d,]+ \(\$0\.\d+\)$/);
    // First thing: one sentence with the cost with and without caching, and what was lost to which event (linked).
    const lede = panel.locator('p.econ-lede');
    expect(await lede.textContent()).toMatch(
      /^These 3 requests cost \$0\.\d+ under OpenAI GPT-5\.6 Terra with caching — \$0\.\d+ less than with no caching \(\$0\.\d+\); \d+ % of their input is read from the cache\. [\d,]+ cached tokens were lost \(\$0\.\d+\), .*@40 agents\/context-rewritten\.$/,
    );
    expect(await lede.locator('a[href="#@40"]').count()).toBe(1);
    // The models in common use, grouped by provider, the scenario's own marked; the rest (and every unpriced profile) behind a disclosure.
    const shown = panel.locator('.econ-every > .econ-groups tbody tr');
    expect(await shown.count()).toBeLessThanOrEqual(12);
    // (Most Anthropic models reject this scenario's mid-conversation system message: they are in the disclosure, said so.)
    expect((await panel.locator('.econ-every > .econ-groups caption').allTextContents())[0]).toBe('OpenAI');
    expect(await panel.locator('.econ-every > .econ-groups tr.own').textContent()).toMatch(/GPT-5\.6 Terra this scenario/);
    expect(await panel.locator('.econ-every > .econ-groups').textContent()).not.toContain('no price configured');
    const more = panel.locator('details.econ-more');
    expect(await more.locator('summary').textContent()).toMatch(/^All \d+ other profiles \(\d+ without a price; \d+ rejects? a request\)$/);
    expect(await more.locator('tbody tr', { hasText: 'anthropic-claude-sonnet-4.5' }).textContent()).toContain('rejected by the API');
    expect(await more.locator('tbody tr').count()).toBeGreaterThan(25);
    // What-if: the default retention and the cost of 1,000 conversations like this one.
    expect(await panel.locator('.econ-whatif tbody tr').first().textContent()).toMatch(/^30-minute writes \(the default\)\$0\.\d+.*\$\d+\.\d+$/);
    const note = page.locator('.pane[data-offset="42"] .cut-econ');
    expect(await note.textContent()).toMatch(
      /^[\d,]+ tokens above this line — cache broke: tools or a system message above the end of the previous request changed, by @40 agents\/context-rewritten \([\d,]+ tokens lost, \$0\.\d+\)$/,
    );
    expect(await page.locator('.pane[data-offset="42"] .econ-tokens').textContent()).toMatch(/cached [\d,]+ · writes [\d,]+ · new [\d,]+ · [\d,]+ tokens · \$0\.\d+/);
    await page.screenshot({ path: join(ARTIFACTS, 'economics-panel.png'), fullPage: true });
    await done(page);
  });

  it('as first shown at 1280 px, fits one 1280×1024 screen, opens with its dollar figure and shows at most 12 profiles; a phone does not scroll sideways', async () => {
    for (const id of ['cache-economics', 'layered-today', 'metadata-lines-deploy']) {
      const page = await open(`/scenarios/${id}/`, { width: 1280 });
      const panel = page.locator('#economics');
      // One screen at 1280×1024 (with four providers' tables since Amazon Bedrock and Google Gemini joined, two rows of them: 900 px no longer holds them).
      expect((await panel.boundingBox())!.height, id).toBeLessThanOrEqual(1024);
      expect(await panel.locator('h2 + p').getAttribute('class'), id).toBe('econ-lede');
      expect(await panel.locator('p.econ-lede').textContent(), id).toMatch(/^(These \d+ requests|This request) costs? ≈?\$\d/);
      const rows = await panel.locator('.econ-every tbody tr').evaluateAll((trs) => trs.filter((tr) => !tr.closest('details:not([open])')).length);
      expect(rows, id).toBeGreaterThan(0);
      expect(rows, id).toBeLessThanOrEqual(12);
      await done(page);
      const phone = await open(`/scenarios/${id}/#economics`, { width: 390 });
      expect(await phone.evaluate(() => document.documentElement.scrollWidth), id).toBeLessThanOrEqual(390);
      await done(phone);
    }
  });

  it('the ✂ note’s event link selects that event’s card', async () => {
    const page = await open('/scenarios/rewrite-vs-re-add/#@42');
    await page.locator('.pane[data-offset="42"] .cut-econ a.prov').click();
    await expect.poll(() => page.evaluate(() => location.hash), { timeout: 10_000 }).toBe('#@40');
    expect(await page.locator('.card[data-offset="40"]').getAttribute('class')).toContain('selected');
    await done(page);
  });

  it('a base-chain request built in the browser carries the same token figures', async () => {
    const page = await open('/scenarios/sent-re-add/#@21');
    const badge = page.locator('.pane[data-offset="21"] .econ-tokens');
    await expect.poll(() => badge.count(), { timeout: 10_000 }).toBe(1);
    expect(await badge.textContent()).toMatch(/cached 0 · writes [\d,]+ · new [\d,]+ · [\d,]+ tokens · \$0\.\d+/);
    await done(page);
  });

  it('has no axe violations with the panel, every profile and its sources open, and fits 360px', async () => {
    const page = await open('/scenarios/rewrite-vs-re-add/#@42', { bypassCSP: true });
    await page.locator('.econ-sources summary').click();
    await page.locator('.econ-more summary').click();
    await axeInEachScheme(page);
    await done(page);
    const narrow = await open('/scenarios/rewrite-vs-re-add/#economics', { width: 360 });
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await done(narrow);
  }, 120_000);
});

describe('before / after', () => {
  it('toggles Before / After / Diff on a compared request', async () => {
    const page = await open('/scenarios/metadata-lines-before-after/#@33', { bypassCSP: true }); // axe below
    const pane = page.locator('.pane.selected');
    await expect.poll(() => pane.getAttribute('data-offset'), POLL).toBe('33');
    const view = (name: string) => pane.locator(`.review-view[data-view="${name}"]`);
    expect(await view('after').isVisible()).toBe(true);
    expect(await view('before').isVisible()).toBe(false);
    // a user turn renders bare in the after (no `@N actor=user:web` line of its own), not in the before
    const bareActorLine = (v: string) =>
      view(v)
        .locator('.code > :not([role], details)')
        .evaluateAll((ls) =>
          ls.some((l) =>
            /^\s*@\d+ actor=user:web$/.test(
              [...l.childNodes]
                .filter((n) => !(n instanceof Element && n.matches('.gutter')))
                .map((n) => n.textContent)
                .join(''),
            ),
          ),
        );
    expect(await bareActorLine('after')).toBe(false);
    await pane.locator('.review-tabs button[data-view="before"]').click();
    expect(await view('before').isVisible()).toBe(true);
    expect(await view('after').isVisible()).toBe(false);
    expect(await view('before').textContent()).toContain('actor=user:web');
    expect(await bareActorLine('before')).toBe(true);
    await pane.locator('.review-tabs button[data-view="unified"]').click();
    expect(await view('unified').isVisible()).toBe(true);
    expect(await view('unified').locator('.code > .s-removed').count()).toBeGreaterThan(0);
    expect(await view('unified').locator('del, ins').count()).toBeGreaterThan(0);
    await pane.locator('.review-tabs button[data-view="split"]').click();
    expect(await view('split').isVisible()).toBe(true);
    expect(await view('split').locator('.row.k-removed, .row.k-changed').count()).toBeGreaterThan(0);
    expect(await pane.locator('.review-tabs button[aria-pressed="true"]').textContent()).toBe('Side by side');
    await pane.locator('.review-tabs button[data-view="after"]').click();
    expect(await view('after').isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await done(page);
  });
});

describe('the page data file (the other events’ panes and the wire messages)', () => {
  const fetches = (): number => site.requests.filter((r) => r.path === '/scenarios/sent-re-add/data.json').length;
  const selected = (page: Page) => () => page.locator('.pane.selected').getAttribute('data-offset');

  it('is not fetched to read the page; fetched once, when the reader reaches for the timeline', async () => {
    const before = fetches();
    const page = await open('/scenarios/sent-re-add/');
    await page.waitForLoadState('load');
    await page.locator('.pane.selected').waitFor();
    await page.waitForTimeout(500);
    expect(fetches()).toBe(before);
    await page.locator('.card[data-offset="40"] .card-link').hover();
    await expect.poll(fetches, POLL).toBe(before + 1);
    await page.locator('.card[data-offset="40"] .card-link').click();
    await expect.poll(selected(page), POLL).toBe('40');
    for (let i = 0; i < 3; i++) await page.keyboard.press('j');
    await expect.poll(selected(page), POLL).not.toBe('40');
    expect(fetches()).toBe(before + 1);
    await done(page);
  });

  it('says so in the pane column when it cannot be fetched, and a new try loads it', async () => {
    // Not through open(): the failed fetch is meant to be logged by the browser.
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    let down = true;
    await page.route('**/data.json', (route) => (down ? route.fulfill({ status: 503, body: 'down' }) : route.continue()));
    await page.goto(`${site.url}/scenarios/sent-re-add/`);
    const opened = await page.locator('.pane.selected').getAttribute('data-offset');
    await page.locator('.card[data-offset="40"] .card-link').click();
    const error = page.locator('.panes .load-error[role="alert"]');
    await expect
      .poll(() => error.textContent(), POLL)
      .toMatch(/^Could not load the request as of @40: \S*\/scenarios\/sent-re-add\/data\.json answered 503 Service Unavailable\. Select the event again to retry/);
    expect(await selected(page)()).toBe(opened); // the page keeps what it showed
    down = false;
    await page.locator('.card[data-offset="40"] .card-link').click();
    await expect.poll(selected(page), POLL).toBe('40');
    expect(await error.count()).toBe(0);
    expect(errors).toEqual([]); // no uncaught rejection
    await context.close();
  });
});

describe('hostile scenario text', () => {
  it('never executes and shows literally', async () => {
    const page = await open('/scenarios/hostile/#@3');
    await page.waitForLoadState('load');
    await page.locator('.card[data-offset="1"] details summary').click();
    // The event's YAML is written from the page's data file when opened: the hostile text, as text.
    const eventYaml = page.locator('.card[data-offset="1"] details pre code');
    await expect.poll(() => eventYaml.textContent(), POLL).toContain("</section></details></code></pre><script>window.__pwned='section'</script>");
    expect(await eventYaml.textContent()).toContain(`key: 'evil"><script>window.__pwned=''key''</script>'`);
    expect(await eventYaml.locator('script, img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    const pane = page.locator('.pane[data-offset="3"]');
    const text = await pane.locator('.code').textContent();
    expect(text).toContain("</section></details></code></pre><script>window.__pwned='section'</script>");
    expect(text).toContain(`<img src=x onerror="window.__pwned='section-img'">`);
    expect(text).toContain('```ts');
    expect(await pane.locator('.note').first().textContent()).toContain("<script>window.__pwned='comment'</script>");
    expect(await page.locator('h1').textContent()).toBe("Hostile <script>alert('title')</script> & </details> title");
    expect(await page.locator('.intro').textContent()).toContain("<script>window.__pwned = 'intro-script'</script>");
    expect(await page.locator('.intro a').count()).toBe(1);
    expect(await page.locator('.intro a').getAttribute('href')).toBe('');
    expect(await page.locator('.card[data-offset="1"] .note').textContent()).toContain("<script>window.__pwned='note'</script>");
    // no element came from the prompt text: the only scripts are the site's own
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('script:not([src]):not([type="application/json"])').evaluateAll((ss) => ss.filter((s) => s.textContent?.includes('__pwned')).length)).toBe(0);
    // Panes built in the browser from the page's data show the same text, just as literally.
    // The other events' panes come from the page's data file: the hostile text is in it, as JSON data.
    const dataUrl = new URL((await page.locator('article.scenario').getAttribute('data-src'))!, page.url()).href;
    const data = await (await page.request.get(dataUrl)).json();
    expect(JSON.stringify(data)).toContain('onerror');
    await page.locator('.card[data-offset="2"] .card-link').click();
    const built = page.locator('.pane.selected');
    expect(await built.getAttribute('data-offset')).toBe('2');
    const builtText = await built.locator('.code').textContent();
    expect(builtText).toContain('content: "<img src=x onerror=');
    expect(builtText).toContain("window.__pwned='user'");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: hostile text, literally
    expect(builtText).toContain('`backticks` and ${template} {{mustache}}');
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1400);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    await done(page);
  });
});

describe('console', () => {
  it('logged no errors on any page visited', () => {
    expect(consoleErrors).toEqual([]);
  });
});
