// Where a preview lives and which URL path it is built for; bad PR numbers, site URLs and base paths
// are clear usage errors.
import { describe, expect, it } from 'vitest';
import { basePathOf, normalizeSiteBase } from '../integration/site-base.ts';
import { parsePr, previewBasePath, previewFolder, previewTarget, previewUrl } from './paths.ts';

describe('preview paths', () => {
  it('puts pull request N under previews/pr-N of the production target', () => {
    expect(previewFolder(7)).toBe('previews/pr-7');
    expect(previewTarget('s3://bucket/site', 7)).toBe('s3://bucket/site/previews/pr-7');
    expect(previewTarget('s3://bucket/site/', 7)).toBe('s3://bucket/site/previews/pr-7');
    expect(previewTarget('s3://bucket', 12)).toBe('s3://bucket/previews/pr-12');
    expect(previewTarget('dir:/srv/www/', 3)).toBe('dir:/srv/www/previews/pr-3');
    expect(() => previewTarget('ftp://x', 3)).toThrow(/is not a target/);
  });

  it('builds for the production path + previews/pr-N/ and links there', () => {
    expect(previewBasePath(7)).toBe('/previews/pr-7/');
    expect(previewBasePath(7, 'https://explainer.example')).toBe('/previews/pr-7/');
    expect(previewBasePath(7, 'https://org.github.io/explainer/')).toBe('/explainer/previews/pr-7/');
    expect(previewUrl(7, 'https://org.github.io/explainer')).toBe('https://org.github.io/explainer/previews/pr-7');
    expect(previewUrl(7, 'http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080/previews/pr-7');
  });

  it('accepts only plain pull-request numbers', () => {
    expect(parsePr('42')).toBe(42);
    expect(() => parsePr(undefined)).toThrow('missing --pr <number>');
    for (const bad of ['0', '-1', '1.5', '07', '12a', '../1', ' 3']) expect(() => parsePr(bad), bad).toThrow(/is not a pull-request number\n {2}fix: pass the number alone/);
  });

  it('normalizes a site base path and refuses one that could escape or break URLs', () => {
    expect(normalizeSiteBase('')).toBe('/');
    expect(normalizeSiteBase('/')).toBe('/');
    expect(normalizeSiteBase('previews/pr-1')).toBe('/previews/pr-1/');
    expect(normalizeSiteBase('/a/b/')).toBe('/a/b/');
    for (const bad of ['/a/../b/', '/a//b/', '/a b/', '/a"b/', '/./']) {
      expect(() => normalizeSiteBase(bad), bad).toThrow(/EXPLAINER_SITE_BASE: .* is not a site path[\s\S]*fix: use a plain path such as \/previews\/pr-123\//);
    }
    expect(() => basePathOf('explainer.example')).toThrow('--site-url: "explainer.example" is not a URL');
    expect(() => basePathOf('ftp://x.example/')).toThrow('is not an http(s) URL');
    expect(() => basePathOf('https://x.example/?a=1')).toThrow('has a query or fragment');
  });
});
