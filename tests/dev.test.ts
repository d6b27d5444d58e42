/**
 * `astro dev` watches the scenarios: editing one re-renders its page, and a scenario error shows
 * in the dev overlay (file:line:column, what is wrong, the fix) instead of stopping the server;
 * fixing it brings the page back. A tab left open on the page follows along (the hot-update path):
 * it shows the project's own error as soon as the file breaks, not Astro's generic "Unhandled
 * rejection", and the page again once it is fixed; the terminal prints every error of the file.
 *
 * One dev server for the file (a start is most of a dev test's CPU): it starts on a broken corpus
 * (the first block), whose tests end with the files fixed; the second block restores them anyway
 * and then edits, breaks and fixes them on the same server — a server that recovered from a broken
 * start must serve the round trip as one started clean does (tests/dev-subpath.test.ts runs that
 * round trip on a server started clean).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, sharedBrowser } from './support/browser.ts';
import { useDevServer } from './support/dev-server.ts';
import { editBreakFix } from './support/edit-break-fix.ts';

describe('astro dev', () => {
  /**
   * Started on a broken corpus — a stale anchor in one scenario, malformed YAML in another, before
   * `astro dev` starts — there are no scenario entries, so the scenario routes used to be 404s. Every
   * page shows the project's errors instead, the terminal printed them once as the check does, and
   * fixing the files brings the open tab back by itself.
   */
  const STALE = 'scenarios/01-birth-window.yaml';
  const YAML = 'scenarios/02-sent-re-add.yaml';
  const originals = new Map<string, string>();
  const project = useDevServer({
    prepare: (dir) => {
      for (const f of [STALE, YAML]) originals.set(f, readFileSync(join(dir, f), 'utf8'));
      const m = /^(\s+find: )(['"])(.+)\2$/m.exec(originals.get(STALE)!)!;
      writeFileSync(join(dir, STALE), originals.get(STALE)!.replace(m[0], `${m[1]}"gone from the prompt"`));
      writeFileSync(join(dir, YAML), originals.get(YAML)!.replace(/^title: .*$/m, 'title: "unclosed'));
    },
  });
  /** The malformed line: the title's (read once the project is prepared). */
  const titleLine = (): number => {
    const text = originals.get(YAML)!;
    return text.slice(0, text.search(/^title: /m)).split('\n').length;
  };
  const staleTitle = /scenarios\/01-birth-window\.yaml:\d+:\d+ stale anchor: find "gone from the prompt" matches no line of request @21/;
  const yamlError = (): RegExp => new RegExp(`scenarios/02-sent-re-add\\.yaml:${titleLine()}:\\d+ error: malformed YAML`);
  /**
   * The overlay's text once it matches `want` (or whatever it shows after 30 s; '' without one). An
   * overlay replaced or reloaded away between the count and the read reads as '' (the read does
   * not wait for the next one: that is the loop's job).
   */
  const overlay = async (tab: Page, want: (text: string) => boolean): Promise<string> => {
    const layout = tab.locator('vite-error-overlay #layout');
    let text = '';
    for (let i = 0; i < 60 && !want(text); i++) {
      await new Promise((r) => setTimeout(r, 500));
      text = (await layout.count()) ? ((await layout.textContent({ timeout: 1000 }).catch(() => '')) ?? '') : '';
    }
    return text;
  };

  describe('started on a broken corpus', () => {
    it('prints every error once at start, cleanly, and shows them on every page instead of a 404', async () => {
      const { dev } = project;
      await expect.poll(() => dev.log, { timeout: 20_000 }).toContain('2 errors in 2 files');
      const atStart = dev.log;
      expect(atStart.match(/01-birth-window\.yaml:\d+:\d+ error: stale anchor: find "gone from the prompt"/g)).toHaveLength(1);
      expect(atStart.match(yamlError())).toHaveLength(1);
      expect(atStart).toContain('fix: add the closing "');

      for (const path of ['/', '/scenarios/birth-window/', '/scenarios/sent-re-add/', '/scenarios/compaction/']) {
        const r = await dev.fetchPage(path);
        expect(r.status, path).toBe(500);
        expect(r.text, path).toContain('/@vite/client'); // the overlay client, which shows the error:
      }
      const browser = await sharedBrowser();
      try {
        // Each tab opened beside the ones before, still open: each gets the error although Astro
        // sends it only to the tabs connected when the page is served (dev-reload.ts replays it).
        for (const path of ['/', '/scenarios/sent-re-add/', '/scenarios/birth-window/']) {
          const tab = await (await browser.newContext()).newPage();
          await tab.goto(`${dev.url}${path}`);
          const shown = await overlay(tab, (t) => staleTitle.test(t));
          expect(shown, path).toMatch(staleTitle);
          expect(shown, path).toMatch(/fix: change `?find:`? to text the rendered request contains/);
          expect(shown, path).toMatch(yamlError()); // the second error, in the hint
          expect(shown, path).not.toMatch(/unhandled rejection|promises all have an|404|not found/i);
        }
      } finally {
        await closeContexts(browser);
      }
      expect(dev.log).not.toMatch(/unhandled rejection|promises all have an/i);
      expect(dev.log).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/); // no stack trace
      expect(dev.log).not.toMatch(/does not exist or is empty|no matching static path/i);
    }, 120_000);

    it('brings the open tab back once the files are fixed: the remaining error, then the page', async () => {
      const { dir, dev } = project;
      const browser = await sharedBrowser();
      try {
        const tab = await browser.newPage();
        await tab.goto(`${dev.url}/scenarios/birth-window/`);
        expect(await overlay(tab, (t) => staleTitle.test(t) && yamlError().test(t))).toMatch(yamlError());

        // The YAML fixed: the same tab now shows the one error left.
        writeFileSync(join(dir, YAML), originals.get(YAML)!);
        const left = await overlay(tab, (t) => staleTitle.test(t) && !t.includes('02-sent-re-add'));
        expect(left).toMatch(staleTitle);
        expect(left).not.toContain('02-sent-re-add');

        // Everything fixed: the tab reloads into the page.
        writeFileSync(join(dir, STALE), originals.get(STALE)!);
        await tab.locator('vite-error-overlay').waitFor({ state: 'detached', timeout: 30_000 });
        await tab.getByText('quick tour of the harbor repo').first().waitFor({ timeout: 30_000 });
        expect(await tab.locator('vite-error-overlay').count()).toBe(0);
        await expect.poll(() => dev.log, { timeout: 20_000 }).toContain('scenarios ok again');
      } finally {
        await closeContexts(browser);
      }
      for (const path of ['/', '/scenarios/sent-re-add/', '/scenarios/compaction/']) expect((await dev.fetchPage(path)).status, path).toBe(200);
      // Each wait above is bounded (30 + 30 + 30 + 30 + 20 s): the test's own limit is above their sum,
      // so a busy machine fails a wait with its message, never the whole test with a timeout.
    }, 180_000);
  });

  describe('on the corpus fixed', () => {
    // Whatever the block before left behind: the files as they were, and the page served again.
    beforeAll(async () => {
      for (const [f, text] of originals) if (readFileSync(join(project.dir, f), 'utf8') !== text) writeFileSync(join(project.dir, f), text);
      const page = await until((p) => p.status === 200);
      if (page.status !== 200) throw new Error(`the dev server did not serve the page again once the files were restored:\n${project.dev.log}`);
    }, 60_000);
    const until = (check: (p: { status: number; text: string }) => boolean): Promise<{ status: number; text: string }> => project.dev.until('/scenarios/birth-window/', check);

    it('re-renders a scenario page after its file changes, and shows errors without stopping', () => editBreakFix(project), 120_000);

    it('updates a tab left open: the project’s own error when the file breaks, the page once it is fixed', async () => {
      const { dir, dev } = project;
      const file = join(dir, 'scenarios/01-birth-window.yaml');
      const original = readFileSync(file, 'utf8');
      expect((await until((p) => p.status === 200)).status).toBe(200);
      const browser = await sharedBrowser();
      try {
        const tab = await browser.newPage();
        // Before each edit, wait until the document the tab shows has connected to the dev server
        // (Vite's client logs "[vite] connected." once its socket is open): a document still
        // loading, or reloading (a fix reloads it), could miss the message the edit causes. A person
        // saving a file looks at the result first, too. (Listening before the page loads.)
        let connected = false;
        tab.on('framenavigated', (frame) => {
          if (frame === tab.mainFrame()) connected = false;
        });
        tab.on('console', (m) => {
          if (m.text() === '[vite] connected.') connected = true;
        });
        const settled = async (): Promise<void> => {
          await expect.poll(() => connected, { timeout: 30_000, message: 'the tab’s dev-server client never connected' }).toBe(true);
        };
        await tab.goto(`${dev.url}/scenarios/birth-window/`);
        await tab.getByText('quick tour of the harbor repo').first().waitFor({ timeout: 20_000 });
        const overlay = tab.locator('vite-error-overlay #layout');
        let logStart = dev.log.length;
        const shown = async (want: RegExp): Promise<string> => {
          let text = '';
          for (let i = 0; i < 60 && !want.test(text); i++) {
            await new Promise((r) => setTimeout(r, 500));
            text = (await overlay.count()) ? ((await overlay.textContent()) ?? '') : '';
          }
          return text;
        };

        // Two stale anchors in one file: the open tab shows the first with its fix (the rest in the
        // hint), the terminal prints both — and nothing is an "unhandled rejection".
        const anchors = [...original.matchAll(/^(\s+find: )(['"])(.+)\2$/gm)].slice(0, 2);
        expect(anchors).toHaveLength(2);
        let broken = original;
        anchors.forEach((m, i) => {
          broken = broken.replace(m[0], `${m[1]}"gone from the prompt ${i + 1}"`);
        });
        logStart = dev.log.length;
        await settled();
        writeFileSync(file, broken);
        // Wait for the error this edit causes: on a busy machine the watcher can read the file half
        // written first and show that (malformed YAML) for a moment.
        const stale = await shown(/stale anchor: find "gone from the prompt 1"/);
        expect(stale).toMatch(/scenarios\/01-birth-window\.yaml:\d+:\d+ stale anchor: find "gone from the prompt 1" matches no line of request @21/);
        expect(stale).toMatch(/fix: change `?find:`? to text the rendered request contains/);
        expect(stale).toContain('gone from the prompt 2'); // the second error, in the hint
        expect(stale).not.toMatch(/unhandled rejection|promises all have an/i);
        expect(stale).not.toMatch(/&#\d+;|&quot;|&lt;|&amp;/); // escaped once, shown as text
        await expect.poll(() => dev.log.slice(logStart), { timeout: 20_000 }).toContain('gone from the prompt 2');
        const printed = dev.log.slice(logStart);
        expect(printed).toMatch(/01-birth-window\.yaml:\d+:\d+ error: stale anchor: find "gone from the prompt 1"/);
        expect(printed).toMatch(/01-birth-window\.yaml:\d+:\d+ error: stale anchor: find "gone from the prompt 2"/);
        expect(printed).not.toMatch(/unhandled rejection|promises all have an/i);
        expect(printed).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/); // no stack trace

        // Malformed YAML while the overlay is up: the tab moves on to the new error.
        await settled();
        writeFileSync(file, original.replace(/^title: .*$/m, 'title: "unclosed'));
        const titleLine = original.slice(0, original.search(/^title: /m)).split('\n').length;
        // (as above: wait for this edit's error, at the title's line, not a half-written read's)
        const yaml = await shown(new RegExp(`scenarios/01-birth-window\\.yaml:${titleLine}:\\d+ [^\\n]*(never closed|malformed YAML)`));
        expect(yaml).toMatch(new RegExp(`scenarios/01-birth-window\\.yaml:${titleLine}:\\d+ `));
        expect(yaml).not.toMatch(/unhandled rejection|promises all have an/i);

        // Fixed: the same tab drops the overlay and shows the page again.
        await settled();
        writeFileSync(file, original);
        // (the error was shown over the old page, so wait for the overlay to go, then for the page)
        await tab.locator('vite-error-overlay').waitFor({ state: 'detached', timeout: 30_000 });
        await tab.getByText('quick tour of the harbor repo').first().waitFor({ timeout: 30_000 });
        expect(await tab.locator('vite-error-overlay').count()).toBe(0);
      } finally {
        await closeContexts(browser);
      }
    }, 180_000);
  });
});
