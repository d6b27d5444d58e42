/**
 * A lazily loaded chunk (the playground's editor, a page's wire view, …) that loads again after a
 * failed fetch. Browsers keep a module's failed fetch in their module map (the HTML standard's
 * "fetch a single module script" stores the failure, whatwg/html#6768), and Chromium does so for
 * the page's life: a second `import()` of the same URL fails at once without a request, so one
 * network hiccup would break the chunk until a reload. Firefox fetches again.
 *
 * So a retry first asks for the chunk under a new URL (the failed one, from the error, with a
 * `retry` query: a new module-map entry, a real fetch); where the error names no URL it calls the
 * loader again (Firefox's behaviour). One attempt per call — the caller retries on the reader's
 * next intent, not on a timer; a loaded chunk is kept.
 */

/** Imports a module by URL (the browser's `import()`; a test passes its own). */
export type ImportUrl = (url: string) => Promise<unknown>;

// Vite leaves a computed specifier alone (@vite-ignore): it is the URL of a chunk it already emitted.
const importUrl: ImportUrl = (url) => import(/* @vite-ignore */ url);

/** The module URL a failed dynamic import names (Chromium: "Failed to fetch dynamically imported module: URL"; Firefox: "error loading dynamically imported module: URL"). */
export function failedUrl(err: unknown): string | undefined {
  const m = /\b(https?:\/\/\S+?\.m?[jt]sx?)(?:\?\S*)?\s*$/.exec(err instanceof Error ? err.message : String(err));
  return m?.[1];
}

/**
 * `load` (a `() => import('./x.ts')` that Vite can see and bundle) as a function that returns the
 * module, loading it on the first call and again on each call after a failure.
 */
export function lazyChunk<T>(load: () => Promise<T>, byUrl: ImportUrl = importUrl): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  let url: string | undefined;
  let attempt = 0;
  return () => {
    loaded ??= (attempt++ === 0 || !url ? load() : (byUrl(`${url}?retry=${attempt - 1}`) as Promise<T>)).catch((err: unknown) => {
      loaded = undefined;
      url ??= failedUrl(err);
      throw err;
    });
    return loaded;
  };
}
