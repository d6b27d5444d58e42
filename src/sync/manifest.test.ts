// Tests for reading dist/ into a manifest, the header policy, and the stored manifest/journal formats.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SyncError } from './errors.ts';
import { CACHE_IMMUTABLE, CACHE_NONE, CACHE_SHORT, cacheControlFor, contentTypeFor } from './headers.ts';
import { parseManifest, parsePending, readLocalSite, serializeManifest, serializePending, sha256 } from './manifest.ts';
import { removeTempDirs, siteV1, tempDir, writeSite } from '../../tests/support/sync-sites.ts';

const temp = tempDir;
afterEach(removeTempDirs);

describe('content types and cache policy', () => {
  it.each([
    ['index.html', 'text/html; charset=utf-8'],
    ['_astro/app.abc123.css', 'text/css; charset=utf-8'],
    ['_astro/app.abc123.js', 'text/javascript; charset=utf-8'],
    ['_astro/chunk.abc.mjs', 'text/javascript; charset=utf-8'],
    ['pagefind/pagefind-entry.json', 'application/json'],
    ['favicon.svg', 'image/svg+xml'],
    ['a.png', 'image/png'],
    ['a.JPG', 'image/jpeg'],
    ['a.webp', 'image/webp'],
    ['favicon.ico', 'image/x-icon'],
    ['robots.txt', 'text/plain; charset=utf-8'],
    ['sitemap-index.xml', 'application/xml'],
    ['_astro/font.abc.woff2', 'font/woff2'],
    ['pagefind/wasm.unknown.pagefind', 'application/octet-stream'],
    ['pagefind/pagefind.en_abc.pf_meta', 'application/octet-stream'],
    ['pagefind/index/en_abc.pf_index', 'application/octet-stream'],
    ['pagefind/fragment/en_abc.pf_fragment', 'application/octet-stream'],
    ['pagefind/x.wasm', 'application/wasm'],
    ['LICENSE', 'application/octet-stream'],
    ['.hidden', 'application/octet-stream'],
  ])('%s → %s', (path, type) => {
    expect(contentTypeFor(path)).toBe(type);
  });

  it('makes _astro immutable, HTML no-cache, the rest short-lived', () => {
    expect(cacheControlFor('_astro/app.abc123.js')).toBe(CACHE_IMMUTABLE);
    expect(CACHE_IMMUTABLE).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('index.html')).toBe(CACHE_NONE);
    expect(cacheControlFor('docs/guide/index.html')).toBe('no-cache');
    expect(cacheControlFor('style.css')).toBe(CACHE_SHORT);
    expect(cacheControlFor('pagefind/pagefind-entry.json')).toMatch(/^public, max-age=\d{1,4}$/);
    expect(cacheControlFor('docs/_astro/x.js')).toBe(CACHE_SHORT); // only the root _astro/ is Astro's hashed output
  });
});

describe('readLocalSite', () => {
  it('hashes every file with its headers, paths posix and sorted', () => {
    const dist = writeSite(join(temp('dist'), 'dist'), siteV1());
    const site = readLocalSite(dist);
    expect(Object.keys(site.manifest.files)).toEqual([
      '_astro/app.abc123.js',
      'docs/guide/index.html',
      'favicon.svg',
      'index.html',
      'pagefind/fragment/en_1.pf_fragment',
      'pagefind/pagefind-entry.json',
      'style.css',
    ]);
    expect(site.manifest.files['index.html']).toEqual({
      sha256: sha256(siteV1()['index.html']!),
      size: Buffer.byteLength(siteV1()['index.html']!),
      contentType: 'text/html; charset=utf-8',
      cacheControl: 'no-cache',
    });
    expect(site.unknownTypes).toEqual([]);
  });

  it('reports files with an unknown extension', () => {
    const dist = writeSite(join(temp('dist'), 'dist'), { ...siteV1(), 'notes.md': '# x' });
    expect(readLocalSite(dist).unknownTypes).toEqual(['notes.md']);
  });

  it('fails clearly on a missing dist', () => {
    expect(() => readLocalSite(join(temp('dist'), 'nope'))).toThrow(SyncError);
    expect(() => readLocalSite(join(temp('dist'), 'nope'))).toThrow(/not found .*run `npm run build` first/);
  });

  it('fails clearly on an empty dist (empty folders count as empty)', () => {
    const dist = join(temp('dist'), 'dist');
    mkdirSync(join(dist, '_astro'), { recursive: true });
    expect(() => readLocalSite(dist)).toThrow(/is empty .*refusing to publish an empty site/);
  });

  it('fails clearly on a dist without index.html', () => {
    const dist = writeSite(join(temp('dist'), 'dist'), { 'docs/index.html': '<p>x</p>', '_astro/a.js': '' });
    expect(() => readLocalSite(dist)).toThrow(/has no index\.html/);
  });

  it('fails on a dist that is a file, holds a reserved name, or a symlink', () => {
    const root = temp('dist');
    writeFileSync(join(root, 'file'), 'x');
    expect(() => readLocalSite(join(root, 'file'))).toThrow(/is not a directory/);
    const dist = writeSite(join(root, 'dist'), { ...siteV1(), '.sync-manifest.json': '{}' });
    expect(() => readLocalSite(dist)).toThrow(/reserves/);
    const dist2 = writeSite(join(root, 'dist2'), siteV1());
    symlinkSync('/etc/hostname', join(dist2, 'link.txt'));
    expect(() => readLocalSite(dist2)).toThrow(/symlink/);
  });
});

describe('stored formats', () => {
  it('serializes manifests stably and parses them back', () => {
    const dist = writeSite(join(temp('dist'), 'dist'), siteV1());
    const m = readLocalSite(dist).manifest;
    const reversed = { version: 1 as const, files: Object.fromEntries(Object.entries(m.files).reverse()) };
    expect(serializeManifest(reversed)).toBe(serializeManifest(m));
    expect(parseManifest(serializeManifest(m))).toEqual(m);
  });

  it('treats a corrupt or foreign manifest as absent', () => {
    expect(parseManifest('not json')).toBeUndefined();
    expect(parseManifest('{"version":2,"files":{}}')).toBeUndefined();
    expect(parseManifest('{"version":1,"files":{"a":{"sha256":1}}}')).toBeUndefined();
    expect(parseManifest('[]')).toBeUndefined();
  });

  it('round-trips the pending journal, deduplicated and sorted', () => {
    expect(parsePending(serializePending(['b', 'a', 'b']))).toEqual(['a', 'b']);
    expect(parsePending('garbage')).toBeUndefined();
  });
});
