// The one config: Astro's static build plus the explainer integration and its options.
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import { explainer } from './src/integration/index.ts';

export default defineConfig({
  output: 'static',
  trailingSlash: 'always',
  integrations: [
    explainer({
      scenarios: 'scenarios',
      fixtures: 'fixtures',
      folds: ['context-protocol', 'layered'],
      defaultFold: 'context-protocol',
    }),
    mdx(),
  ],
});
