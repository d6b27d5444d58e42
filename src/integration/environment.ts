/**
 * The environment variables that override an explainer option (EXPLAINER_BASE, over `baseRef`) or
 * set the site's URL path (EXPLAINER_SITE_BASE, site-base.ts), read here only. Its own module, apart
 * from the options' schema (options.ts): the commands that only need these names (sync, preview,
 * pr-comment, through site-base.ts) then start without loading zod and the fold registry.
 */

/** The variables' names. */
export const ENV = { baseRef: 'EXPLAINER_BASE', siteBase: 'EXPLAINER_SITE_BASE' } as const;

/** The overrides set in the environment (an empty variable is unset). */
export function environment(): { baseRef?: string; siteBase?: string } {
  const read = (name: string): string | undefined => process.env[name] || undefined;
  const baseRef = read(ENV.baseRef);
  const siteBase = read(ENV.siteBase);
  return { ...(baseRef && { baseRef }), ...(siteBase && { siteBase }) };
}
