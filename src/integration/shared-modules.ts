/**
 * The explainer's modules the prerendered pages import from Node instead of from their bundle, so
 * a build loads, compiles and warms each of them once. The integration's corpus check (corpus-gate.ts)
 * runs in the build's own process, loading the loader, the folds, the printer and the economics
 * through Node; the pages are then bundled by Vite and, before this, carried a second copy of every
 * one of those modules — parsed, compiled and optimized again, its caches kept apart (the shared
 * state on globalThis, shared-state.ts, was how the two copies met). Left out of the pages' bundle,
 * an import of an own module resolves to the very file the integration loaded, and Node hands back
 * the module it already has (measured on `npm run bench` at N = 100: about 0.35 CPU-s less of a
 * 10 CPU-s build, the bundler's share most of it; the pages are byte for byte the same).
 *
 * Only where it holds: `astro build` with no adapter, whose pages are prerendered by Node in this
 * process (an adapter may prerender in another runtime, or ship the bundle to a server) — the
 * integration passes that as `share`; and only the modules Node can load as they are: files of
 * this copy of the explainer (OWN_DIR, with its module suffix), not the page routes (`routes/`),
 * and not VITE_ONLY — the modules that use what only Vite provides (a virtual module,
 * `import.meta.env`), which stay in the bundle. shared-modules.test.ts fails when a module uses such
 * a thing without being listed, or when another module imports one of them (Node would then load
 * it); the pages' other imports (.astro components, styles, `?raw` files) are not modules with the
 * suffix and stay Vite's.
 */
import { sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EXT, OWN_DIR } from './own-files.ts';

/** The prerendering environment of Astro's build (astro's ASTRO_VITE_ENVIRONMENT_NAMES.prerender). */
export const PRERENDER_ENVIRONMENT = 'prerender';

/** Own modules that only work inside Vite's bundle (relative to OWN_DIR, without the suffix). */
export const VITE_ONLY = ['integration/site', 'integration/route-base', 'playground/worker', 'playground/economics'] as const;

const viteOnly = new Set<string>(VITE_ONLY.map((m) => `${OWN_DIR}${m.split('/').join(sep)}${EXT}`));
const routes = `${OWN_DIR}routes${sep}`;

/** Whether the pages import the module at `path` (an absolute file path) from Node, as the integration does. */
export function sharedModule(path: string): boolean {
  return path.startsWith(OWN_DIR) && path.endsWith(EXT) && !path.startsWith(routes) && !viteOnly.has(path);
}

/** What the plugin's resolveId returns for a shared module: its file URL, left out of the bundle. */
export function sharedModuleId(path: string): { id: string; external: true } {
  return { id: pathToFileURL(path).href, external: true };
}
