/**
 * The package's main entry, `import explainer from 'prompt-fold-explainer'` (also the named export
 * `explainer`): the Astro integration (src/integration/) with what the explainer's own pages need
 * from the host site — @astrojs/mdx for the reference pages and the code blocks' highlighting in the
 * panes' two themes with no tokenizer time limit (see render/highlight.ts), the pages' own blocks
 * tokenized ahead of the build (render/markdown-code-blocks.ts) — so a host's
 * astro.config needs nothing but `explainer({…})`. It sits above the site's layers (it reads the
 * highlight settings of the render layer), which the integration itself may not import.
 */
import { explainer as integration, type ExplainerIntegration } from '../integration/index.ts';
import type { ExplainerOptions } from '../integration/options.ts';

export type { ExplainerOptions } from '../integration/options.ts';
export type { ExplainerIntegration } from '../integration/index.ts';

/** The explainer as an Astro integration: its pages under `options.route`, its checks in the build. */
export function explainer(options: ExplainerOptions = {}): ExplainerIntegration {
  // Both are loaded only when the host lacks them (integration/host-config.ts), so a config that is
  // only read (the `prompt-fold` commands read the options from it) loads neither mdx nor shiki.
  return integration(options, {
    mdx: async () => (await import('@astrojs/mdx')).default(),
    shikiConfig: async () => {
      const [{ noTokenizeTimeLimit, THEMES }, { cachedMarkdownBlocks }] = await Promise.all([import('../render/highlight.ts'), import('../render/markdown-code-blocks.ts')]);
      return { themes: THEMES, defaultColor: false, transformers: [noTokenizeTimeLimit, cachedMarkdownBlocks] };
    },
  });
}

export default explainer;
