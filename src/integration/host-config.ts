/**
 * What the explainer changes in the host's Astro config besides its own Vite plugin: the site's
 * URL path from EXPLAINER_SITE_BASE (site-base.ts; a preview served under a sub-path), and what its
 * reference pages need when the host has not set it — @astrojs/mdx, and code blocks highlighted in
 * the panes' two themes. Both of the latter come from the package entry (src/package/), which may
 * import the site's modules; the integration may not.
 */
import type { AstroConfig, AstroIntegration } from 'astro';
import { buildError } from './astro-error.ts';
import { ENV, environment } from './environment.ts';
import { normalizeSiteBase } from './site-base.ts';

/** What the host site must also get for the explainer's pages: set by the package entry (src/package/). */
export interface SiteSetup {
  /** The reference pages' highlighting (markdown.shikiConfig), applied unless the host set its own themes (loaded only then). */
  shikiConfig?: () => Promise<Record<string, unknown>>;
  /** @astrojs/mdx's integration, added when the host has none (loaded only then). */
  mdx?: () => Promise<AstroIntegration>;
}

type UpdateConfig = (update: Record<string, unknown>) => unknown;

/** Astro's `base` from EXPLAINER_SITE_BASE, when it is set; a value that is not a plain path stops the build. */
export function applySiteBase(updateConfig: UpdateConfig): void {
  const siteBase = environment().siteBase;
  if (!siteBase) return;
  try {
    updateConfig({ base: normalizeSiteBase(siteBase) });
  } catch (err) {
    throw buildError((err as Error).message, `Unset ${ENV.siteBase} for a build served at the domain root.`);
  }
}

/** The reference pages are MDX with code blocks in the panes' themes: adds what the host lacks. */
export async function addPageSupport(config: AstroConfig, setup: SiteSetup, updateConfig: UpdateConfig): Promise<void> {
  if (setup.mdx && !config.integrations.some((i) => i.name === '@astrojs/mdx')) updateConfig({ integrations: [await setup.mdx()] });
  if (setup.shikiConfig && !Object.keys(config.markdown.shikiConfig.themes ?? {}).length) updateConfig({ markdown: { shikiConfig: await setup.shikiConfig() } });
}
