/**
 * `npm run bench:playground` — the playground's budgets, measured in Chromium (playwright-core)
 * against the built dist/ (run `npm run build` first):
 * - JavaScript transferred (gzip) by /playground/ on open — every .js file fetched until the first
 *   pane is shown: the page script and the fold engine's worker — against ≤ 150 KB, and what loads
 *   after it while the pane is read (the economics and the tokenizer's tables); the editor's
 *   chunk(s), fetched on the first click into the text, and the total when editing; and by every
 *   scenario page (every .js file the browser fetched, imported chunks included) against ≤ 15 KB;
 * - from the first pointerdown in the source view to an editable, focused editor (the chunk's fetch,
 *   parse and the editor's creation), median of a few fresh page loads (each in a new browser
 *   context: nothing cached);
 * - a seeded 1,000-event scenario (tools/bench/corpus.ts) opened in the playground from a link: the
 *   re-fold (worker: fold + the selected event's pane model) plus the re-render (highlight + pane
 *   markup + DOM) when another event is selected, and the same after an edit, which also re-loads
 *   (parse + validate) the text. Medians of the playground's own performance measures (the page
 *   records playground:load / fold / markup / render / answer), with the machine's load average
 *   beside them. What counts: re-fold = the worker's fold of the requests (after an edit) and the
 *   selected event's pane model; re-render = highlight + pane markup + the DOM update + the style
 *   and layout it causes (forced inside the measure); the whole round trip (answer) = from posting
 *   to the worker to the laid-out pane, i.e. also the worker's queue, the re-load of an edited text
 *   and the messages both ways — what a reader waits for after the debounce. A second, traced pass
 *   gives the CPU time of each round trip (worker + page threads), which the machine's load does not
 *   inflate (tools/bench/cpu-trace.ts).
 * Prints numbers; never fails on them (machines are noisy).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { generateCorpus } from '../bench/corpus.ts';
import { startTrace, stopTrace } from '../bench/cpu-trace.ts';
import { median } from '../bench/measure.ts';
import { encodeState } from '../../src/playground/state.ts';
import { serve } from '../../tests/support/project.ts';
import { runMain, UsageError } from '../../src/cli/config.ts';

const SELECTIONS = 25;
/** The simulated link the weights are fetched over: 1 KB of gzip per ms (8 Mbit/s). */
const LINK_KB_PER_MS = 1;
const CLICKS = 5;
const EDITS = 10;
const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
const msf = (x: number): string => `${x.toFixed(1)} ms`;

/**
 * gzip size of every .js file a page fetched (its scripts, their chunks and any worker): `ready`
 * is what the reader waits for; `before` counts the files requested before the page showed it
 * (`shown`: the instant, from the page), `total` every file until the network is idle. Each script
 * arrives after its gzip size at LINK_KB_PER_MS (the worker's requests too), so what loads behind
 * the first pane — the economics and the tokenizer's tables — is requested after it, as on a real
 * link, rather than all at once as on localhost.
 */
async function jsWeight(
  page: Page,
  dist: string,
  path: string,
  base: string,
  ready: () => Promise<unknown>,
  shown?: () => Promise<number>,
): Promise<{ total: number; before: number; files: [string, number, boolean][] }> {
  const requested = new Map<string, number>();
  const js = /\.m?js(\?|$)/;
  await page.route(js, async (route) => {
    const u = new URL(route.request().url()).pathname;
    if (!requested.has(u)) requested.set(u, Date.now());
    const response = await route.fetch();
    const file = join(dist, u);
    if (existsSync(file)) await new Promise((r) => setTimeout(r, gzipSync(readFileSync(file)).length / 1024 / LINK_KB_PER_MS));
    await route.fulfill({ response });
  });
  await page.goto(base + path);
  await ready();
  const at = shown ? await shown() : Number.POSITIVE_INFINITY;
  await page.waitForLoadState('networkidle');
  await page.unroute(js);
  const files = [...requested]
    .filter(([u]) => u.startsWith('/'))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([u, t]): [string, number, boolean] => [u, gzipSync(readFileSync(join(dist, u)), { level: 9 }).length, t < at]);
  const sum = (fs: typeof files): number => fs.reduce((n, [, s]) => n + s, 0);
  return { total: sum(files), before: sum(files.filter(([, , b]) => b)), files };
}

/** .js files the page fetches while `act` runs (and the network is then idle). */
async function fetchedJs(page: Page, dist: string, base: string, act: () => Promise<unknown>): Promise<[string, number][]> {
  const urls = new Set<string>();
  const onResponse = (r: { url: () => string }): void => {
    const u = r.url();
    if (u.startsWith(base) && /\.m?js(\?|$)/.test(u)) urls.add(new URL(u).pathname);
  };
  page.on('response', onResponse);
  await act();
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  return [...urls].sort().map((u): [string, number] => [u, gzipSync(readFileSync(join(dist, u)), { level: 9 }).length]);
}

/**
 * Clicks into the source view and resolves with the ms from that pointerdown to the editor's
 * content taking the focus (it is editable from its creation).
 */
async function clickToEditor(page: Page): Promise<number> {
  const timing = page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let t0 = 0;
        document.getElementById('pg-source')!.addEventListener('pointerdown', () => (t0 = performance.now()), { capture: true, once: true });
        document.addEventListener('focusin', function onFocus(e) {
          if (!(e.target as HTMLElement).classList.contains('cm-content') || !t0) return;
          document.removeEventListener('focusin', onFocus);
          resolve(performance.now() - t0);
        });
      }),
  );
  await page.locator('#pg-source .pg-src-ln').nth(2).click();
  return timing;
}

/** The editor, loaded (by a click into the source view) if it is not yet. */
async function editorOpen(page: Page): Promise<void> {
  if (!(await page.locator('.cm-content').count())) await page.locator('#pg-source').click();
  await page.locator('.cm-content').click();
}

/** The latest value of each of the playground's performance measures. */
const measures = (page: Page): Promise<Record<string, number>> =>
  page.evaluate(() =>
    Object.fromEntries(
      ['playground:source', 'playground:load', 'playground:fold', 'playground:markup', 'playground:render', 'playground:answer'].map((n) => [
        n.slice(11),
        performance.getEntriesByName(n).at(-1)?.duration ?? NaN,
      ]),
    ),
  );

const answered = (page: Page, count: number): Promise<unknown> =>
  page.waitForFunction((n) => performance.getEntriesByName('playground:fold').length >= n && !document.querySelector('.playground')!.hasAttribute('aria-busy'), count, {
    timeout: 120_000,
  });

runMain(async () => {
  const dist = join(process.cwd(), 'dist');
  if (!existsSync(join(dist, 'playground/index.html'))) throw new UsageError('dist/ has no playground', { fix: 'run `npm run build` first' });
  const site = await serve(dist);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });

    // JavaScript weight.
    // The instant the first pane is in the page (Date.now(), the clock the route handler reads too).
    await page.addInitScript(() => {
      new MutationObserver((_, o) => {
        if (!document.querySelector('#pg-pane .pane')) return;
        document.documentElement.dataset.benchFirstPane = String(Date.now());
        o.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    const pg = await jsWeight(
      page,
      dist,
      '/playground/',
      site.url,
      () => page.waitForSelector('#pg-pane .pane', { timeout: 120_000 }),
      () => page.evaluate(() => Number(document.documentElement.dataset.benchFirstPane)),
    );
    console.log('JavaScript, gzip (every .js file the browser fetched; * = requested after the first pane was shown)');
    for (const [f, s, before] of pg.files) console.log(`  ${f.padEnd(72)} ${kb(s).padStart(9)}${before ? '' : ' *'}`);
    console.log(`  /playground/ on open (until the first pane is shown): ${kb(pg.before)} (budget 150 KB); then, while it is read: ${kb(pg.total - pg.before)}`);
    const chunks = await fetchedJs(page, dist, site.url, () => clickToEditor(page));
    for (const [f, s] of chunks) console.log(`  ${f.padEnd(72)} ${kb(s).padStart(9)}`);
    const editorKb = chunks.reduce((n, [, s]) => n + s, 0);
    console.log(`  the editor, on the first click into the text: ${kb(editorKb)}; total when editing: ${kb(pg.total + editorKb)}`);
    const clicks: number[] = [];
    for (let i = 0; i < CLICKS; i++) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const fresh = await context.newPage();
      await fresh.goto(`${site.url}/playground/`);
      await fresh.waitForSelector('#pg-pane .pane', { timeout: 120_000 });
      clicks.push(await clickToEditor(fresh));
      await context.close();
    }
    console.log(
      `  first click into the text → editable, focused editor: median ${msf(median(clicks))} (${CLICKS} fresh page loads: ${clicks.map((x) => x.toFixed(0)).join(', ')} ms)`,
    );
    let worst = { page: '', total: 0 };
    for (const id of readdirSync(join(dist, 'scenarios')).filter((d) => existsSync(join(dist, 'scenarios', d, 'index.html')))) {
      const w = await jsWeight(page, dist, `/scenarios/${id}/`, site.url, () => page.waitForSelector('.pane.selected'));
      if (w.total > worst.total) worst = { page: `/scenarios/${id}/`, total: w.total };
    }
    console.log(`  scenario pages: at most ${kb(worst.total)} (${worst.page}; budget 15 KB)`);

    // Re-fold + re-render of a 1,000-event scenario.
    const corpus = generateCorpus({ scenarios: 1, events: 1000, requests: 10, seed: 7 });
    const text = corpus.files[0]!.text;
    await page.goto(`${site.url}/playground/${encodeState({ file: 'scenarios/bench-1000.yaml', text })}`);
    await answered(page, 1);
    const first = await measures(page);
    if (!(await page.locator('#pg-pane .pane').count())) throw new Error(`the 1,000-event scenario did not render: ${await page.locator('#pg-errors').innerText()}`);
    const offsets = await page.locator('#pg-event option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    console.log(
      `\n1,000-event scenario: ${corpus.events} events, ${corpus.requests} requests, ${(text.length / 1024).toFixed(0)} KB of YAML; first open: load ${msf(first.load!)}, fold ${msf(first.fold!)}, render ${msf(first.render!)}; the source view's last render ${msf(first.source!)}`,
    );
    // Each pass picks SELECTIONS events spread over the scenario, then makes EDITS edits at its end.
    const pass = async (): Promise<{ select: Record<string, number>[]; edit: Record<string, number>[] }> => {
      const select: Record<string, number>[] = [];
      for (let i = 0; i < SELECTIONS; i++) {
        const off = offsets[Math.floor(((i + 0.5) / SELECTIONS) * offsets.length)]!;
        const n = await page.evaluate(() => performance.getEntriesByName('playground:fold').length);
        await page.locator('#pg-event').selectOption(off);
        await answered(page, n + 1);
        await page.waitForFunction((o) => document.querySelector('#pg-pane .pane')?.getAttribute('data-offset') === o, off);
        select.push(await measures(page));
      }
      const edit: Record<string, number>[] = [];
      await editorOpen(page);
      await page.keyboard.press('Control+End');
      for (let i = 0; i < EDITS; i++) {
        const n = await page.evaluate(() => performance.getEntriesByName('playground:fold').length);
        await page.keyboard.insertText(`# edit ${i}\n`);
        await answered(page, n + 1);
        edit.push(await measures(page));
      }
      return { select, edit };
    };
    const { select, edit } = await pass();
    const load = loadavg();
    // A second pass under a performance trace: the CPU time each round trip took (cpu-trace.ts).
    const cdp = await page.context().newCDPSession(page);
    await startTrace(cdp);
    const traced = await pass();
    const cpu = await stopTrace(cdp);
    const selectCpu = cpu.slice(-(traced.select.length + traced.edit.length), -traced.edit.length);
    const editCpu = cpu.slice(-traced.edit.length);
    console.log(`machine: ${cpus().length} cores, load average ${load.map((x) => x.toFixed(1)).join(' ')} (wall-clock numbers scale with it; CPU times do not)`);
    const med = (xs: Record<string, number>[], f: (m: Record<string, number>) => number): string => msf(median(xs.map(f)));
    console.log(
      `select another event (${SELECTIONS}×): re-fold ${med(select, (m) => m.fold!)}, re-render ${med(select, (m) => m.render!)} (of which highlight + markup ${med(select, (m) => m.markup!)}) — re-fold + re-render median ${med(select, (m) => m.fold! + m.render!)} (budget 50 ms); whole round trip ${med(select, (m) => m.answer!)}`,
    );
    console.log(
      `edit the text (${EDITS}×):          re-load ${med(edit, (m) => m.load!)}, re-fold ${med(edit, (m) => m.fold!)}, re-render ${med(edit, (m) => m.render!)} — re-fold + re-render median ${med(edit, (m) => m.fold! + m.render!)}, with re-load ${med(edit, (m) => m.load! + m.fold! + m.render!)}; whole round trip ${med(edit, (m) => m.answer!)}`,
    );
    const cpuLine = (xs: { main: number; worker: number }[]): string =>
      xs.length
        ? `worker ${msf(median(xs.map((c) => c.worker)))} + page ${msf(median(xs.map((c) => c.main)))} = ${msf(median(xs.map((c) => c.worker + c.main)))}`
        : 'not in the trace';
    console.log(`CPU time of the whole round trip (traced pass, medians): select ${cpuLine(selectCpu)}; edit (with re-load) ${cpuLine(editCpu)}`);
  } finally {
    await browser.close();
    await site.close();
  }
});
