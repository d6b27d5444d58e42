/**
 * The URL path the site is served under: `/` for production at a domain's root, a sub-path such as
 * `/previews/pr-123/` for a pull-request preview (or `/docs/` behind a shared domain). It becomes
 * Astro's `base`, so every link, asset, deep link and the search bundle carry it. Set it with
 * EXPLAINER_SITE_BASE (what `npm run preview:publish` does) or `astro build --base <path>`.
 * A value that could escape the site or break URLs (`..`, `//`, spaces, quotes) is refused.
 */
import { UserError } from '../errors.ts';
import { ENV } from './environment.ts';

export const SITE_BASE_ENV = ENV.siteBase;

export class SiteBaseError extends UserError {}

/** `/a/b/` form: leading and trailing slash, plain segments only. */
export function normalizeSiteBase(value: string, from: string = SITE_BASE_ENV): string {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed === '/') return '/';
  const segments = trimmed.replace(/^\/+|\/+$/g, '').split('/');
  const bad = segments.find((s) => !/^[A-Za-z0-9._~-]+$/.test(s) || s === '.' || s === '..');
  if (bad !== undefined) {
    throw new SiteBaseError(`${from}: "${value}" is not a site path: the segment "${bad}" is empty, "." or "..", or has characters other than letters, digits and . _ ~ `, {
      fix: 'use a plain path such as /previews/pr-123/ (or leave it unset for the domain root)',
    });
  }
  return `/${segments.join('/')}/`;
}

/** The site path a public URL serves (`https://x.example/docs` → `/docs/`). */
export function basePathOf(siteUrl: string, from = '--site-url'): string {
  let url: URL;
  try {
    url = new URL(siteUrl);
  } catch {
    throw new SiteBaseError(`${from}: "${siteUrl}" is not a URL`, { fix: `give the production site's address, e.g. https://explainer.example/` });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SiteBaseError(`${from}: "${siteUrl}" is not an http(s) URL`, { fix: `give the production site's address, e.g. https://explainer.example/` });
  }
  if (url.search || url.hash) {
    throw new SiteBaseError(`${from}: "${siteUrl}" has a query or fragment`, { fix: `give just the site's address, e.g. https://explainer.example/` });
  }
  return normalizeSiteBase(url.pathname, from);
}
