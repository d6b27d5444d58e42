import { describe, expect, it } from 'vitest';
import { failedUrl, lazyChunk } from './lazy-chunk.ts';

const CHROMIUM = (url: string) => new TypeError(`Failed to fetch dynamically imported module: ${url}`);
const FIREFOX = (url: string) => new TypeError(`error loading dynamically imported module: ${url}`);

/** A browser's module map: a URL fetched once keeps its outcome (Chromium keeps failures too). */
function moduleMap(opts: { keepsFailures: boolean; error: (url: string) => Error }) {
  const map = new Map<string, Promise<unknown>>();
  const fetched: string[] = [];
  let online = false;
  const importUrl = (url: string): Promise<unknown> => {
    const known = map.get(url);
    if (known) return known;
    fetched.push(url);
    const result = online ? Promise.resolve({ url }) : Promise.reject(opts.error(url));
    if (online || opts.keepsFailures) map.set(url, result);
    return result;
  };
  return { importUrl, fetched, goOnline: () => (online = true) };
}

describe('lazyChunk', () => {
  const CHUNK = 'https://docs.example/_astro/editor.C5G6j0aU.js';

  it('in Chromium (a failed fetch stays in the module map), fetches the chunk again under a new URL on the next call', async () => {
    const b = moduleMap({ keepsFailures: true, error: CHROMIUM });
    const chunk = lazyChunk(() => b.importUrl(CHUNK), b.importUrl);
    await expect(chunk()).rejects.toThrow(CHUNK);
    // Still offline: the retry is a real fetch of a new URL, and fails.
    await expect(chunk()).rejects.toThrow(`${CHUNK}?retry=1`);
    b.goOnline();
    await expect(chunk()).resolves.toEqual({ url: `${CHUNK}?retry=2` });
    expect(b.fetched).toEqual([CHUNK, `${CHUNK}?retry=1`, `${CHUNK}?retry=2`]);
    // Loaded: kept, not fetched again.
    await chunk();
    expect(b.fetched).toHaveLength(3);
  });

  it("where the error names no URL (Safari's message), calls the loader again, as Firefox's module map allows", async () => {
    const b = moduleMap({ keepsFailures: false, error: () => new TypeError('Importing a module script failed.') });
    let calls = 0;
    const chunk = lazyChunk(() => {
      calls++;
      return b.importUrl(CHUNK);
    }, b.importUrl);
    await expect(chunk()).rejects.toThrow('Importing a module script failed.');
    b.goOnline();
    await expect(chunk()).resolves.toEqual({ url: CHUNK });
    expect(calls).toBe(2);
  });

  it('loads once when called twice while loading', async () => {
    const b = moduleMap({ keepsFailures: true, error: CHROMIUM });
    b.goOnline();
    const chunk = lazyChunk(() => b.importUrl(CHUNK), b.importUrl);
    const [a, c] = await Promise.all([chunk(), chunk()]);
    expect(a).toBe(c);
    expect(b.fetched).toEqual([CHUNK]);
  });
});

describe('failedUrl', () => {
  it("reads the module URL from Chromium's and Firefox's messages, and from a dev server's TypeScript URL", () => {
    expect(failedUrl(CHROMIUM('http://127.0.0.1:4321/_astro/wire-view.qiOf6YyP.js'))).toBe('http://127.0.0.1:4321/_astro/wire-view.qiOf6YyP.js');
    expect(failedUrl(FIREFOX('https://x.example/a/b.mjs'))).toBe('https://x.example/a/b.mjs');
    expect(failedUrl(CHROMIUM('http://localhost:4321/src/playground/editor.ts?t=1'))).toBe('http://localhost:4321/src/playground/editor.ts');
    expect(failedUrl(new TypeError('Importing a module script failed.'))).toBeUndefined();
    expect(failedUrl('not an error')).toBeUndefined();
  });
});
