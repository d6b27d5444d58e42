// The one config: Astro's static build plus the explainer integration and its options. The
// integration brings its pages, mdx, the code blocks' highlighting and the search index itself
// (src/package/index.ts) — this site uses it exactly as a host site uses the installed package.
// The config is a plain object with its type in a comment, not wrapped in `defineConfig` (which only
// types it): importing `astro/config` costs every command-line run about 0.3 CPU-s, since the
// commands load this file to read the explainer's options (src/cli/config.ts). A host may write
// either; the package's tests build hosts that use `defineConfig`.
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { explainer } from './src/package/index.ts';

const SOURCE = 'prompt-fold-explainer-source';

/** @type {import('astro').AstroUserConfig} */
export default {
  output: 'static',
  // A fold module of this repository (examples/folds/) imports `prompt-fold-explainer/kit` as a
  // host's fold would; here that resolves to the source, by the package.json exports condition
  // SOURCE (.npmrc sets it for Node). A host's config has none of this.
  vite: {
    resolve: { conditions: [SOURCE, ...defaultClientConditions] },
    ssr: { resolve: { conditions: [SOURCE, ...defaultServerConditions], externalConditions: [SOURCE] } },
  },
  trailingSlash: 'always',
  integrations: [
    explainer({
      scenarios: 'scenarios',
      fixtures: 'fixtures',
      folds: ['context-protocol', 'layered', 'requests'],
      defaultFold: 'context-protocol',
      // This site's own guides (src/pages/reference/), linked from every page's header.
      nav: [
        { label: 'How the fold works', href: 'reference/context-protocol/' },
        { label: 'Writing a scenario', href: 'reference/writing-scenarios/' },
      ],
      // This site's own pages (src/pages/) get the Content Security Policy too; a host's are left alone.
      policyPages: ['/'],
    }),
  ],
};
