/**
 * The tests' own Chromium (tests/support/browser.ts, CHROMIUM_ARGS) opens nothing but the pages a
 * test opens: no browser UI of its own per context. Debian's Chromium 156 starts a WebUI renderer
 * for the address bar's suggestion popup with every new window, headless or not — about as much CPU as the
 * page a test opens — and the flags that turn it off are feature names a later Chromium may rename.
 * Then this test fails, instead of the suite silently taking twice the browser time it needs.
 *
 * And the features playwright-core disables stay disabled: Chromium reads only the last
 * `--disable-features`, so CHROMIUM_ARGS' list must hold Playwright's too. The browser's own command
 * line (Linux: /proc/<pid>/cmdline of the worker's Chromium, the child it launched) is the truth:
 * every feature of an earlier `--disable-features` must be in the last one.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { statCpu } from '../../tools/bench/thread-cpu.ts';
import { sharedBrowser } from '../support/browser.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await sharedBrowser();
}, 120_000);

describe('the tests’ Chromium', () => {
  it('starts no browser UI page (chrome://…) with a new context', async () => {
    const cdp = await browser.newBrowserCDPSession();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.setContent('<p>one page</p>');
      const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
      expect(targetInfos.filter((t) => t.url.startsWith('chrome://') || t.type === 'browser_ui').map((t) => `${t.type} ${t.url}`)).toEqual([]);
      // The target list is the real one: the page just opened is in it.
      expect(targetInfos.filter((t) => t.type === 'page').length).toBeGreaterThanOrEqual(1);
    } finally {
      await context.close();
      await cdp.detach();
    }
  });

  // /proc is Linux's (CI's); elsewhere the command line cannot be read this way.
  it.skipIf(!existsSync('/proc/self/cmdline'))('keeps the features Playwright disables disabled (Chromium reads only the last --disable-features)', () => {
    const argvOf = (pid: string): string[] => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      } catch {
        return []; // a process that ended meanwhile
      }
    };
    const parentOf = (pid: string): number | undefined => {
      try {
        return statCpu(readFileSync(`/proc/${pid}/stat`, 'utf8')).ppid;
      } catch {
        return undefined; // a process that ended meanwhile
      }
    };
    // The worker's browser: the child this process launched, the one Playwright talks to over a pipe.
    const browsers = readdirSync('/proc')
      .filter((pid) => /^\d+$/.test(pid) && parentOf(pid) === process.pid)
      .map(argvOf)
      .filter((argv) => argv.includes('--remote-debugging-pipe'));
    expect(browsers.length).toBeGreaterThanOrEqual(1);
    for (const argv of browsers) {
      const lists = argv.filter((a) => a.startsWith('--disable-features=')).map((a) => a.slice('--disable-features='.length).split(','));
      // Playwright's list, then ours (or one, should a later Playwright merge them).
      expect(lists.length).toBeGreaterThanOrEqual(1);
      const effective = new Set(lists.at(-1));
      const lost = lists
        .slice(0, -1)
        .flat()
        .filter((f) => f && !effective.has(f));
      expect(lost, 'switched back on by CHROMIUM_ARGS: add them to PLAYWRIGHT_DISABLED_FEATURES in tests/support/browser.ts').toEqual([]);
      // The command line read is the one CHROMIUM_ARGS made.
      expect(effective.has('WebUIOmniboxPopup')).toBe(true);
    }
  });
});
