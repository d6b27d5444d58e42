// The one config: Astro's static build plus the explainer integration and its options.
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import { explainer } from './src/integration/index.ts';

export default defineConfig({
  output: 'static',
  trailingSlash: 'always',
  // Code blocks in the reference pages use the same two themes as the prompt panes.
  markdown: { shikiConfig: { themes: { light: 'github-light', dark: 'github-dark' }, defaultColor: false } },
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
