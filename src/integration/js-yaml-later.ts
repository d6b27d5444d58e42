/**
 * js-yaml, behind the playground's first pane. The scenario loader reads a well-formed file with
 * js-yaml's event stream (scenarios/outline.ts: five times faster than the `yaml` package's tree)
 * and falls back to the `yaml` package for any text js-yaml does not read. In the playground's
 * worker that speed matters only for editing a long scenario, while js-yaml's 13 KB (gzip) would be
 * part of what the first pane waits for (its budget: 150 KB). So, in the worker's bundle only,
 * `js-yaml` is this module: until `loadJsYaml()` — which the worker calls once the page has shown
 * its first pane — every read takes the `yaml` package's path, and after it the fast one.
 *
 * `viteConfig` (vite-plugin.ts) adds `jsYamlLater()` to the worker's plugins only; the pages, the
 * build in Node and `astro dev` (whose worker runs through the pages' plugins) import js-yaml itself,
 * and there `virtual:prompt-fold-explainer/js-yaml-later` is a no-op (`JS_YAML_NOW`).
 */

/** What the worker imports to load js-yaml once its first pane is shown. */
export const JS_YAML_LATER_MODULE = 'virtual:prompt-fold-explainer/js-yaml-later';
const LATER = '\0pfe-js-yaml-later';

/** The module outside the worker's bundle: js-yaml is there from the start. */
export const JS_YAML_NOW = 'export function loadJsYaml() { return Promise.resolve(); }\n';

/** js-yaml's exports outline.ts reads, each a stand-in until the real module is loaded (ES live bindings). */
const LATER_SOURCE = `let m;
let loading;
export let EVENT_ID = {};
export let SCALAR_STYLE = {};
export function loadJsYaml() {
  return (loading ??= import('js-yaml').then((x) => { EVENT_ID = x.EVENT_ID; SCALAR_STYLE = x.SCALAR_STYLE; m = x; }, () => { loading = undefined; }));
}
export function parseEvents(text, options) {
  if (!m) throw new Error('js-yaml is not loaded yet: the yaml package reads this text');
  return m.parseEvents(text, options);
}
export function constructFromEvents(events, options) { return m.constructFromEvents(events, options); }
export function getScalarValue(...args) { return m.getScalarValue(...args); }
`;

/** The worker's plugin: `js-yaml` (but from this module itself) and the loader resolve to the stand-in. */
export function jsYamlLater() {
  return {
    name: 'prompt-fold-explainer:js-yaml-later',
    enforce: 'pre' as const,
    resolveId: (id: string, importer?: string) => ((id === 'js-yaml' && importer !== LATER) || id === JS_YAML_LATER_MODULE ? LATER : undefined),
    load: (id: string) => (id === LATER ? LATER_SOURCE : undefined),
  };
}
