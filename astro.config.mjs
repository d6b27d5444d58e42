// The one config: Astro's static build plus the explainer integration and its options.
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import { explainer } from './src/integration/index.ts';
import { noTokenizeTimeLimit, THEMES } from './src/components/highlight.ts';

export default defineConfig({
  output: 'static',
  trailingSlash: 'always',
  // Code blocks in the reference pages: the prompt panes' two themes, and no tokenizer time limit,
  // so a page renders the same on every build however busy the machine (see highlight.ts).
  markdown: { shikiConfig: { themes: THEMES, defaultColor: false, transformers: [noTokenizeTimeLimit] } },
  integrations: [
    explainer({
      scenarios: 'scenarios',
      fixtures: 'fixtures',
      folds: ['context-protocol', 'layered', 'requests'],
      defaultFold: 'context-protocol',
    }),
    mdx(),
  ],
});
