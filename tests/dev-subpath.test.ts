/**
 * `astro dev` under a sub-path (EXPLAINER_SITE_BASE, as a pull-request preview is built): editing a
 * scenario re-renders its page, a scenario error shows in the dev overlay (file:line:column, what
 * is wrong, the fix), and fixing it brings the page back — as at the domain root (tests/dev.test.ts,
 * which also covers a tab left open through the error).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, makeProject } from './support/project.ts';

for (const base of ['/previews/pr-7/'])
  describe(`astro dev at ${base}`, () => {
    let dir: string;
    let server: ChildProcess;
    let url: string;

    beforeAll(async () => {
      dir = makeProject();
      const port = 4400 + Math.floor(Math.random() * 500);
      server = spawn('npx', ['astro', 'dev', '--host', '127.0.0.1', '--port', String(port)], {
        // A clean environment: vitest's own variables (NODE_ENV=test, VITEST…) would leak into Vite.
        cwd: dir,
        env: childEnv(base === '/' ? {} : { EXPLAINER_SITE_BASE: base }),
        detached: true,
      });
      let log = '';
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

    const page = async (): Promise<{ status: number; text: string }> => {
      const r = await fetch(`${url}${base}scenarios/birth-window/`);
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
        const browser = await chromium.launch({
          executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
          args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
        });
        try {
          const tab = await browser.newPage();
          await tab.goto(`${url}${base}scenarios/birth-window/`);
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
    });
  });
