// The one config: Astro's static build plus the explainer integration and its options. The
// integration brings its pages, mdx, the code blocks' highlighting and the search index itself
// (src/package/index.ts) — this site uses it exactly as a host site uses the installed package.
import { defineConfig } from 'astro/config';
import { explainer } from './src/package/index.ts';

export default defineConfig({
  output: 'static',
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
});
