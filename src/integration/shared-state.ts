/**
 * State shared by every copy of the explainer's modules in one process — Vite loads the
 * integration once for the config and again inside the prerendered pages' bundle (in `astro dev`,
 * and in a build with an adapter; without one the pages import the integration's own modules,
 * shared-modules.ts), and those copies must see one page-file list, one render cache, one
 * dev-server line. It lives on globalThis under
 * a `Symbol.for` key that names the package AND its version: two different versions of
 * prompt-fold-explainer in one process (a host site and a nested tool, a monorepo) never read each
 * other's state, whose shape may differ. Each entry is further keyed by what it is about (a
 * project root, a render) by its owner.
 */

/** This package's version — a constant, not read from package.json: these modules are also bundled
 *  into the built pages, where no package.json sits beside them. shared-state.test.ts keeps it in
 *  step with package.json. */
export const PACKAGE_VERSION = '0.1.0';

/** The process-wide value named `name` for this package version, made by `init` the first time. */
export function sharedState<T>(name: string, init: () => T): T {
  const key = Symbol.for(`prompt-fold-explainer@${PACKAGE_VERSION}/${name}`);
  const g = globalThis as Record<symbol, unknown>;
  return (g[key] ??= init()) as T;
}
