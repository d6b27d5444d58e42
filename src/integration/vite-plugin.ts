/**
 * The explainer's Vite plugin, which the setup hook adds to the host's config (and to the
 * playground worker's bundle, which needs the fold module too). It serves two virtual modules — the
 * options and project facts the pages read (`virtual:prompt-fold-explainer/config`) and the
 * browser-safe folds the playground bundles (`virtual:prompt-fold-explainer/folds`,
 * browser-folds.ts) — and, inside Starlight, hands the explainer's own pages Starlight's shell:
 * every import of layouts/Base.astro by the explainer's own files gets StarlightBase.astro. In a
 * build whose pages Node prerenders in this process (`share`), the pages import the explainer's
 * modules from Node, as the integration did, instead of bundling a second copy (shared-modules.ts).
 */
import type { AstroIntegrationLogger } from 'astro';
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { ProjectFacts } from '../project.ts';
import { browserFolds, browserFoldsModule } from './browser-folds.ts';
import { JS_YAML_LATER_MODULE, JS_YAML_NOW, jsYamlLater } from './js-yaml-later.ts';
import type { ExplainerOptions, ParsedOptions } from './options.ts';
import { BUILTIN_FOLDS_INDEX, OWN_DIR, STARLIGHT_SHELL } from './own-files.ts';
import { PACKAGE_NAME } from './project-facts.ts';
import { PRERENDER_ENVIRONMENT, sharedModule, sharedModuleId } from './shared-modules.ts';

export const CONFIG_MODULE = 'virtual:prompt-fold-explainer/config';
/** The browser-safe folds, bundled for the playground (see browser-folds.ts). */
export const FOLDS_MODULE = 'virtual:prompt-fold-explainer/folds';

export interface PluginInput {
  root: string;
  /** The host's public/ folder: the pages' own shell links its favicon.svg only where there is one. */
  publicDir: string;
  options: ExplainerOptions;
  page: ParsedOptions;
  command: string;
  facts: ProjectFacts;
  logger: AstroIntegrationLogger;
  /** The prerendered pages import the explainer's modules from Node (shared-modules.ts): `astro build` without an adapter. */
  share: boolean;
}

/** What resolveId uses of Vite's plugin context. */
interface ResolveContext {
  environment?: { name: string };
  resolve(id: string, importer: string | undefined, options: { skipSelf: boolean }): Promise<{ id: string; external?: unknown } | null>;
}

/** Base.astro as the pages import it (`../layouts/Base.astro`) and as the reference pages' layout (layouts/Doc.astro) does, from beside it — only from the explainer's own files. */
function isOwnShell(id: string, importer?: string): boolean {
  return !!importer?.startsWith(OWN_DIR) && /(^|\/)Base\.astro$/.test(id) && resolve(dirname(importer), id) === join(OWN_DIR, 'layouts', basename(id));
}

/** The host config's `vite` part: the plugin for the pages and for the playground's worker, which is bundled separately (with js-yaml loaded after its first pane: js-yaml-later.ts). */
export function viteConfig(input: PluginInput): Record<string, unknown> {
  const plugin = vitePlugin(input);
  return { plugins: [plugin], worker: { format: 'es', plugins: () => [jsYamlLater(), plugin] } };
}

function vitePlugin({ root, publicDir, options, page, command, facts, logger, share }: PluginInput) {
  const favicon = existsSync(join(publicDir, 'favicon.svg'));
  const resolvedId = `\0${CONFIG_MODULE}`;
  const foldsId = `\0${FOLDS_MODULE}`;
  const jsYamlNowId = `\0${JS_YAML_LATER_MODULE}`;
  const forBrowser = browserFolds(root, options.folds);
  for (const f of forBrowser) if (f.unsafe) logger.warn(`fold ${f.spec} is not in the playground: ${f.unsafe}`);
  const starlightShell = page.chrome === 'starlight' ? STARLIGHT_SHELL : undefined;
  return {
    name: PACKAGE_NAME,
    enforce: 'pre' as const,
    async resolveId(this: ResolveContext, id: string, importer?: string, opts?: object) {
      if (id === CONFIG_MODULE) return resolvedId;
      if (id === FOLDS_MODULE) return foldsId;
      if (id === JS_YAML_LATER_MODULE) return jsYamlNowId;
      if (starlightShell && isOwnShell(id, importer)) return starlightShell;
      // A page's import of an own module: the module the integration loaded, from Node (shared-modules.ts).
      if (share && importer && !id.startsWith('\0') && this.environment?.name === PRERENDER_ENVIRONMENT) {
        const r = await this.resolve(id, importer, { ...opts, skipSelf: true });
        if (r && !r.external && sharedModule(r.id)) return sharedModuleId(r.id);
      }
      return undefined;
    },
    load: (id: string) =>
      id === jsYamlNowId
        ? JS_YAML_NOW
        : id === resolvedId
          ? `export const root = ${JSON.stringify(root)};\nexport const options = ${JSON.stringify(options)};\nexport const command = ${JSON.stringify(command)};\nexport const page = ${JSON.stringify({ ...page, favicon })};\nexport const project = ${JSON.stringify(facts)};\n`
          : id === foldsId
            ? browserFoldsModule(forBrowser, BUILTIN_FOLDS_INDEX, facts)
            : undefined,
  };
}
