// Content collections: the scenarios, loaded by the explainer's own loader (src/integration/loader.ts).
import { defineCollection } from 'astro:content';
import { scenarioLoader } from './integration/loader.ts';

export const collections = {
  scenarios: defineCollection({ loader: scenarioLoader() }),
};
