/**
 * Writes each built page's Content Security Policy (csp.ts) while Astro renders it, as the page's
 * response passes through this middleware — instead of reading every page back from dist/ and
 * writing it a second time after the build (a second pass over all the site's HTML: about a
 * second per hundred scenarios). Registered by the integration (index.ts) for `astro build` only:
 * in `astro dev` the overlay and hot reload inject scripts of their own, so no policy is applied.
 */
import { defineMiddleware } from 'astro:middleware';
import { withPolicy } from './csp.ts';

export const onRequest = defineMiddleware(async (_context, next) => {
  const response = await next();
  if (!response.headers.get('content-type')?.startsWith('text/html')) return response;
  return new Response(withPolicy(await response.text()), { status: response.status, statusText: response.statusText, headers: response.headers });
});
