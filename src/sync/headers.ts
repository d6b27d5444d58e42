/**
 * Content-Type and Cache-Control for every file the site publishes, decided from the path alone
 * (a small explicit map, no guessing from content): what a static Astro + pagefind build emits.
 *
 * Cache policy: `_astro/*` is content-hashed by Astro, so it is immutable for a year; HTML must be
 * revalidated on every load (`no-cache`) so a new deploy is seen at once; everything else (favicon,
 * pagefind's index, robots.txt) gets a short max-age; the sync's own bookkeeping files are no-cache.
 */

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json',
  map: 'application/json',
  webmanifest: 'application/manifest+json',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  txt: 'text/plain; charset=utf-8',
  xml: 'application/xml',
  woff: 'font/woff',
  woff2: 'font/woff2',
  wasm: 'application/wasm',
  // pagefind's binary index files
  pf_meta: 'application/octet-stream',
  pf_index: 'application/octet-stream',
  pf_fragment: 'application/octet-stream',
  pagefind: 'application/octet-stream',
};

export const FALLBACK_CONTENT_TYPE = 'application/octet-stream';

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_NONE = 'no-cache';
export const CACHE_SHORT = 'public, max-age=300';

/** The extension of a posix path's last segment, lower-cased, without the dot ('' if none). */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The Content-Type for a site path, or undefined when the extension is not in the map. */
export function knownContentType(path: string): string | undefined {
  return CONTENT_TYPES[extensionOf(path)];
}

export function contentTypeFor(path: string): string {
  return knownContentType(path) ?? FALLBACK_CONTENT_TYPE;
}

export function isHtml(path: string): boolean {
  const ext = extensionOf(path);
  return ext === 'html' || ext === 'htm';
}

/** Astro's content-hashed build output (`build.assets`, default `_astro`). */
export function isHashedAsset(path: string): boolean {
  return path.startsWith('_astro/');
}

export function cacheControlFor(path: string): string {
  if (isHashedAsset(path)) return CACHE_IMMUTABLE;
  if (isHtml(path)) return CACHE_NONE;
  return CACHE_SHORT;
}
