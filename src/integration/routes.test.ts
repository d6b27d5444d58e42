/** The explainer's pages as injected routes: every page file below the route, MDX through its folder's `_mdx.astro`. */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { devDataRoute, devPartRoute, patternOf, routesOf } from './routes.ts';

const DIR = fileURLToPath(new URL('../routes/', import.meta.url));

describe('routes', () => {
  it('puts a page below the route, an index at the route itself', () => {
    expect(patternOf('/', 'index.astro')).toBe('/');
    expect(patternOf('/explainer/', 'index.astro')).toBe('/explainer');
    expect(patternOf('/explainer/', 'scenarios/[id].astro')).toBe('/explainer/scenarios/[id]');
    expect(patternOf('/a/b/', 'schemas/[name].json.ts')).toBe('/a/b/schemas/[name].json');
  });

  it('routes every page of src/routes, and no test, no `_` file except the MDX pages’ route', () => {
    const patterns = routesOf(DIR, '/explainer/').map((r) => r.pattern);
    expect(patterns).toContain('/explainer');
    expect(patterns).toContain('/explainer/scenarios/[id]');
    expect(patterns).toContain('/explainer/playground/corpus.json');
    expect(patterns).toContain('/explainer/reference/[mdx]');
    expect(patterns.every((p) => p.startsWith('/explainer'))).toBe(true);
    expect(patterns.some((p) => p.includes('_data'))).toBe(false);
    expect(devDataRoute(DIR, '/explainer/', '.ts').pattern).toBe('/explainer/scenarios/[id]/data.json');
    expect(devPartRoute(DIR, '/explainer/', '.ts').pattern).toBe('/explainer/scenarios/[id]/part-[first].json');
    expect(patterns.some((p) => p.includes('_part'))).toBe(false);
  });
});
