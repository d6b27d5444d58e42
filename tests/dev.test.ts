/**
 * `astro dev` watches the scenarios: editing one re-renders its page, and a scenario error shows
 * in the dev overlay (file:line:column, what is wrong, the fix) instead of stopping the server;
 * fixing it brings the page back. A tab left open on the page follows along (the hot-update path):
 * it shows the project's own error as soon as the file breaks, not Astro's generic "Unhandled
 * rejection", and the page again once it is fixed; the terminal prints every error of the file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject } from './support/project.ts';

let dir: string;
let server: ChildProcess;
let url: string;
/** Everything the dev server printed (stdout and stderr). */
let log = '';

beforeAll(async () => {
  dir = makeProject();
  const port = 4400 + Math.floor(Math.random() * 500);
  server = spawn('npx', ['astro', 'dev', '--host', '127.0.0.1', '--port', String(port)], {
    // A clean environment: vitest's own variables (NODE_ENV=test, VITEST…) would leak into Vite.
    cwd: dir,
    env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|NODE_ENV$|TEST$)/.test(k))), ASTRO_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0' },
    detached: true,
  });
  url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`astro dev did not start:\n${log}`)), 60_000);
    const onData = (b: Buffer): void => {
      log += b.toString();
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(log);
      if (m) {
        clearTimeout(timer);
        ok(`http://127.0.0.1:${m[1]}`);
      }
    };
    server.stdout!.on('data', onData);
    server.stderr!.on('data', onData);
  });
}, 90_000);

afterAll(() => {
  if (server?.pid) process.kill(-server.pid, 'SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const page = async (): Promise<{ status: number; text: string }> => {
  const r = await fetch(`${url}/scenarios/birth-window/`);
  return { status: r.status, text: await r.text() };
};

async function until(check: (p: { status: number; text: string }) => boolean): Promise<{ status: number; text: string }> {
  let last = await page();
  for (let i = 0; i < 40 && !check(last); i++) {
    await new Promise((r) => setTimeout(r, 500));
    last = await page();
  }
  return last;
}

describe('astro dev', () => {
  it('re-renders a scenario page after its file changes, and shows errors without stopping', async () => {
    const file = join(dir, 'scenarios/01-birth-window.yaml');
    const original = readFileSync(file, 'utf8');
    const first = await until((p) => p.status === 200);
    expect(first.text, first.text.slice(0, 2000)).toContain('quick tour of the harbor repo');

    writeFileSync(file, original.replace('quick tour of the harbor repo', 'quick tour of the EDITED repo'));
    expect((await until((p) => p.text.includes('EDITED repo'))).text).toContain('quick tour of the EDITED repo');

    const m = /^(\s+find: )(['"])(.+)\2$/m.exec(original)!;
    writeFileSync(file, original.replace(m[0], `${m[1]}"gone from the prompt"`));
    const broken = await until((p) => p.status >= 500);
    expect(broken.status).toBe(500);
    expect(broken.text).toContain('/@vite/client'); // the overlay client, which shows the error:
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });
    try {
      const tab = await browser.newPage();
      await tab.goto(`${url}/scenarios/birth-window/`);
      const overlay = tab.locator('vite-error-overlay #message');
      await overlay.waitFor({ timeout: 20_000 });
      const shown = await tab.locator('vite-error-overlay #layout').textContent();
      expect(shown).toMatch(/scenarios\/01-birth-window\.yaml:\d+:\d+ stale anchor: find "gone from the prompt" matches no line of request @21/);
      expect(shown).toContain('closest rendered lines:');
      expect(shown).toMatch(/fix: change `?find:`? to text the rendered request contains/); // the overlay renders the hint's Markdown
    } finally {
      await browser.close();
    }

    writeFileSync(file, original);
    const fixed = await until((p) => p.status === 200);
    expect(fixed.status).toBe(200);
    expect(fixed.text).toContain('quick tour of the harbor repo');
  }, 120_000);

  it('updates a tab left open: the project’s own error when the file breaks, the page once it is fixed', async () => {
    const file = join(dir, 'scenarios/01-birth-window.yaml');
    const original = readFileSync(file, 'utf8');
    expect((await until((p) => p.status === 200)).status).toBe(200);
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });
    try {
      const tab = await browser.newPage();
      await tab.goto(`${url}/scenarios/birth-window/`);
      await tab.getByText('quick tour of the harbor repo').first().waitFor({ timeout: 20_000 });
      const overlay = tab.locator('vite-error-overlay #layout');
      let logStart = log.length;
      // Before each edit, wait until the tab has stopped navigating (a fix reloads it): a person
      // saving a file looks at the result first, too.
      let lastNavigation = Date.now();
      tab.on('framenavigated', () => (lastNavigation = Date.now()));

      const settled = async (): Promise<void> => {
        while (Date.now() - lastNavigation < 3000) await new Promise((r) => setTimeout(r, 250));
      };
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
      logStart = log.length;
      await settled();
      writeFileSync(file, broken);
      const stale = await shown(/gone from the prompt 1/);
      expect(stale).toMatch(/scenarios\/01-birth-window\.yaml:\d+:\d+ stale anchor: find "gone from the prompt 1" matches no line of request @21/);
      expect(stale).toMatch(/fix: change `?find:`? to text the rendered request contains/);
      expect(stale).toContain('gone from the prompt 2'); // the second error, in the hint
      expect(stale).not.toMatch(/unhandled rejection|promises all have an/i);
      expect(stale).not.toMatch(/&#\d+;|&quot;|&lt;|&amp;/); // escaped once, shown as text
      await expect.poll(() => log.slice(logStart), { timeout: 20_000 }).toContain('gone from the prompt 2');
      const printed = log.slice(logStart);
      expect(printed).toMatch(/01-birth-window\.yaml:\d+:\d+ error: stale anchor: find "gone from the prompt 1"/);
      expect(printed).toMatch(/01-birth-window\.yaml:\d+:\d+ error: stale anchor: find "gone from the prompt 2"/);
      expect(printed).not.toMatch(/unhandled rejection|promises all have an/i);
      expect(printed).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/); // no stack trace

      // Malformed YAML while the overlay is up: the tab moves on to the new error.
      await settled();
      writeFileSync(file, original.replace(/^title: .*$/m, 'title: "unclosed'));
      const yaml = await shown(/never closed|malformed YAML/);
      const titleLine = original.slice(0, original.search(/^title: /m)).split('\n').length;
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
      await browser.close();
    }
  }, 180_000);
});
