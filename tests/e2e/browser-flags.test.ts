/**
 * The tests' own Chromium (tests/support/browser.ts, CHROMIUM_ARGS) opens nothing but the pages a
 * test opens: no browser UI of its own per context. Debian's Chromium 156 starts a WebUI renderer
 * for the address bar's suggestion popup with every new window, headless or not — about as much CPU as the
 * page a test opens — and the flags that turn it off are feature names a later Chromium may rename.
 * Then this test fails, instead of the suite silently taking twice the browser time it needs.
 */
import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
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
});
