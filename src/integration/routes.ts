/**
 * The explainer's pages as injected routes: every page file under src/routes/ (lib/routes/ in the
 * installed package) becomes a route below the `route` option — `index.astro` → the route itself,
 * `scenarios/[id].astro` → `<route>scenarios/[id]`, `schemas/[name].json.ts` →
 * `<route>schemas/[name].json`. The pages live outside the host's src/pages, so a host's own pages
 * stay its own and the explainer can sit under any path. Files whose name starts with `_` (the dev
 * server's data route) and tests are not pages. Astro injects only `.astro` files as pages, so a
 * folder's MDX pages are served by its `_mdx.astro` (routed as `<folder>/[mdx]`).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface PageRoute {
  pattern: string;
  entrypoint: string;
  prerender: boolean;
}

const PAGE = /\.(astro|ts|js)$/;

/** `/` + route segments + the page's path, without a trailing slash (Astro's pattern form); the route's own index is `/route`. */
export function patternOf(route: string, rel: string): string {
  const page = rel
    .replace(PAGE, '')
    .split('/')
    .filter((s, i, all) => !(s === 'index' && i === all.length - 1));
  const segments = [...route.split('/').filter(Boolean), ...page];
  return `/${segments.join('/')}`;
}

/** Every page file under `dir`, as injected routes below `route` (sorted, so the order never depends on the file system). */
export function routesOf(dir: string, route: string): PageRoute[] {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split('\\').join('/'))
    .filter((f) => PAGE.test(f) && !/\.test\.ts$|\.d\.ts$/.test(f) && !f.split('/').some((s) => s.startsWith('_')))
    .sort();
  const mdx = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split('\\').join('/'))
    .filter((f) => /(^|\/)_mdx\.astro$/.test(f))
    .sort();
  return [
    ...files.map((f) => ({ pattern: patternOf(route, f), entrypoint: pathToFileURL(join(dir, f)).href, prerender: true })),
    ...mdx.map((f) => ({ pattern: patternOf(route, f.replace(/_mdx\.astro$/, '[mdx]')), entrypoint: pathToFileURL(join(dir, f)).href, prerender: true })),
  ];
}

/** The dev server's route for a scenario page's data file (a build writes the file instead, page-files.ts). */
export function devDataRoute(dir: string, route: string, ext: string): PageRoute {
  return { pattern: `${patternOf(route, 'scenarios/[id]')}/data.json`, entrypoint: pathToFileURL(join(dir, `scenarios/_data.json${ext}`)).href, prerender: true };
}

/** The dev server's route for a windowed scenario page's data parts (render/page-window.ts; a build writes the files instead). */
export function devPartRoute(dir: string, route: string, ext: string): PageRoute {
  return { pattern: `${patternOf(route, 'scenarios/[id]')}/part-[first].json`, entrypoint: pathToFileURL(join(dir, `scenarios/_part.json${ext}`)).href, prerender: true };
}

/**
 * Injects the explainer's pages below `route` and returns their patterns (the explainer's own pages,
 * which get its Content Security Policy). Without its own search (inside Starlight, whose search
 * indexes these pages) there is no search page. In `astro dev` a scenario page's data file and parts
 * are served by routes; a build writes them beside the page instead (page-files.ts).
 */
export function injectPages(
  inject: (route: PageRoute) => void,
  { dir, route, search, command, ext }: { dir: string; route: string; search: boolean; command: string; ext: string },
): Set<string> {
  const own = new Set<string>();
  for (const r of routesOf(dir, route)) {
    if (!search && r.pattern === `${route}search`) continue;
    own.add(r.pattern);
    inject(r);
  }
  if (command === 'dev') {
    inject(devDataRoute(dir, route, ext));
    inject(devPartRoute(dir, route, ext));
  }
  return own;
}
