/**
 * The Astro integration: `explainer(options)` in astro.config.mjs. It carries the explainer's one
 * options object (the CLIs read it from here too; checked by its zod schema, options.ts — a bad
 * option is an AstroError with a hint), injects its pages (src/routes/, under the `route` option),
 * adds @astrojs/mdx and the highlighting settings its reference pages need when the host has not,
 * hands the options to the site's modules through a virtual module, and — on `astro build` — checks the whole corpus before anything is built: any scenario
 * error or stale anchor fails the build with the same file:line:column message as the tests,
 * never a stack trace; after the build the explainer's own pages (and any host pages the host opted
 * in) get their Content Security Policy (csp.ts) — every other file of the host's dist/ is left as
 * the host built it — and, with its own chrome, their offline search index under the route
 * (search-index.ts; inside Starlight, Starlight's search indexes them). In
 * `astro dev` the integration watches scenarios/ (dev-watch.ts) and pages show errors in the dev
 * overlay instead of stopping the server. EXPLAINER_SITE_BASE sets the site's URL path
 * (Astro's `base`) for a build served under a sub-path, such as a pull-request preview (the
 * environment is read in options.ts). Messages name the project's own config file and commands
 * (src/project.ts, set here from the project root).
 */
import type { AstroIntegration } from 'astro';
import { existsSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '../errors.ts';
import { writeStamp } from '../sync/build-stamp.ts';
import { CorpusError } from '../scenarios/errors.ts';
import { missingScenariosNotice } from '../scenarios/files.ts';
import { buildError, optionsError } from './astro-error.ts';
import { registerDevServer } from './dev-reload.ts';
import { watchScenarios } from './dev-watch.ts';
import type { CorpusConfig } from '../scenarios/load.ts';
import { sharedRender } from './shared-render.ts';
import { resolveRef } from '../review/base.ts';
import { blockingErrors } from '../review/expectations.ts';
import { ENV, environment, parseOptions, resolveOptions, type ExplainerOptions, type ParsedOptions } from './options.ts';
import { configFile } from '../project.ts';
import { useProject } from './project-facts.ts';
import { browserFolds, browserFoldsModule } from './browser-folds.ts';
import { applyPolicies, policyPages } from './csp.ts';
import { writePageFiles } from './page-files.ts';
import { normalizeSiteBase } from './site-base.ts';
import { devDataRoute, devPartRoute, routesOf } from './routes.ts';
import { buildSearchIndex } from './search-index.ts';
import { sharedState } from './shared-state.ts';

export const INTEGRATION_NAME = 'prompt-fold-explainer';
export const CONFIG_MODULE = 'virtual:prompt-fold-explainer/config';
/** The browser-safe folds, bundled for the playground (see browser-folds.ts). */
export const FOLDS_MODULE = 'virtual:prompt-fold-explainer/folds';

export type ExplainerIntegration = AstroIntegration & { explainerOptions: ExplainerOptions };

/** What the host site must also get for the explainer's pages: set by the package entry (src/package/), which may import the site's modules. */
export interface SiteSetup {
  /** The reference pages' highlighting (markdown.shikiConfig), applied unless the host set its own themes. */
  shikiConfig?: Record<string, unknown>;
  /** @astrojs/mdx's integration, added when the host has none. */
  mdx?: () => AstroIntegration;
}

/** Options given to the Starlight plugin (src/package/starlight.ts), in call order: the CLIs find the options there when the explainer is inside Starlight's plugins, not the config's integrations. */
export const starlightOptions = (): ExplainerOptions[] => sharedState('starlight-options', () => [] as ExplainerOptions[]);

/** The module suffix of this copy: `.ts` from the sources, `.js` from the built package (lib/). */
const EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

export function explainer(options: ExplainerOptions = {}, setup: SiteSetup = {}): ExplainerIntegration {
  let projectRoot: string | undefined;
  let outDirOf: string | undefined;
  let startedAt: string | undefined;
  let page: ParsedOptions | undefined;
  /** The corpus as the options resolve it (config:setup), for the dev server's watcher. */
  let corpusConfig: CorpusConfig | undefined;
  /** The patterns of the routes this integration injected: their pages are the explainer's own. */
  const own = new Set<string>();
  return {
    name: INTEGRATION_NAME,
    explainerOptions: options,
    hooks: {
      'astro:server:setup': ({ server, logger }) => {
        // Scenario edits re-render the corpus; the open tabs show its errors, and reload once it renders (dev-watch.ts).
        if (!projectRoot || !corpusConfig) return;
        registerDevServer(projectRoot, server.environments.client.hot);
        void watchScenarios(corpusConfig, server.watcher, logger);
      },
      'astro:config:setup': async ({ config, command, updateConfig, injectRoute, logger }) => {
        const root = fileURLToPath(config.root);
        projectRoot = root;
        const facts = useProject(root);
        let resolved;
        try {
          page = parseOptions(options);
          resolved = await resolveOptions(root, options);
          corpusConfig = resolved;
        } catch (err) {
          if (UserError.is(err)) throw optionsError(err.message, err.hint ?? `Fix the option named above in ${configFile()} → explainer({…}).`);
          throw err;
        }
        const route = page.route;
        // The pages' own shell links the host's favicon only where the host has one (public/favicon.svg).
        const favicon = existsSync(join(fileURLToPath(config.publicDir), 'favicon.svg'));
        const resolvedId = `\0${CONFIG_MODULE}`;
        const env = environment();
        const siteBase = env.siteBase;
        if (siteBase) {
          try {
            updateConfig({ base: normalizeSiteBase(siteBase) });
          } catch (err) {
            throw buildError((err as Error).message, `Unset ${ENV.siteBase} for a build served at the domain root.`);
          }
        }
        const foldsId = `\0${FOLDS_MODULE}`;
        const forBrowser = browserFolds(root, options.folds);
        for (const f of forBrowser) if (f.unsafe) logger.warn(`fold ${f.spec} is not in the playground: ${f.unsafe}`);
        const builtinIndex = fileURLToPath(new URL(`../folds/index${EXT}`, import.meta.url));
        // Inside Starlight (the prompt-fold-explainer/starlight plugin) the pages' shell is
        // Starlight's: every import of layouts/Base.astro by the explainer's own files gets StarlightBase.astro.
        const ownDir = fileURLToPath(new URL('../', import.meta.url));
        const starlightShell = page.chrome === 'starlight' ? fileURLToPath(new URL('../layouts/StarlightBase.astro', import.meta.url)) : undefined;
        // Base.astro as the pages import it (`../layouts/Base.astro`) and as the reference pages' layout
        // does (layouts/Doc.astro: `./Base.astro`) — only from the explainer's own files.
        const isOwnShell = (id: string, importer?: string): boolean =>
          !!importer?.startsWith(ownDir) && /(^|\/)Base\.astro$/.test(id) && resolve(dirname(importer), id) === join(ownDir, 'layouts', basename(id));
        const plugin = {
          name: INTEGRATION_NAME,
          enforce: 'pre' as const,
          resolveId: (id: string, importer?: string) => {
            if (id === CONFIG_MODULE) return resolvedId;
            if (id === FOLDS_MODULE) return foldsId;
            if (starlightShell && isOwnShell(id, importer)) return starlightShell;
            return undefined;
          },
          load: (id: string) =>
            id === resolvedId
              ? `export const root = ${JSON.stringify(root)};\nexport const options = ${JSON.stringify(options)};\nexport const command = ${JSON.stringify(command)};\nexport const page = ${JSON.stringify({ ...page, favicon })};\nexport const project = ${JSON.stringify(facts)};\n`
              : id === foldsId
                ? browserFoldsModule(forBrowser, builtinIndex, facts)
                : undefined,
        };
        // The playground's worker is bundled separately: it needs the fold module too.
        updateConfig({ vite: { plugins: [plugin], worker: { format: 'es', plugins: () => [plugin] } } });
        // The reference pages are MDX with code blocks in the panes' themes: add what the host lacks.
        if (setup.mdx && !config.integrations.some((i) => i.name === '@astrojs/mdx')) updateConfig({ integrations: [setup.mdx()] });
        const hostShiki = config.markdown.shikiConfig;
        if (setup.shikiConfig && !Object.keys(hostShiki.themes ?? {}).length) updateConfig({ markdown: { shikiConfig: setup.shikiConfig } });
        // The pages: every file of src/routes/ under the route (routes.ts). A scenario page's data
        // file is written beside the page by a build (page-files.ts), served by a route in `astro dev`.
        const routesDir = new URL('../routes/', import.meta.url);
        // Without its own search (inside Starlight, whose search indexes these pages) there is no search page.
        for (const r of routesOf(fileURLToPath(routesDir), route)) {
          if (!page.search && r.pattern === `${route}search`) continue;
          own.add(r.pattern);
          injectRoute(r);
        }
        if (command === 'dev') injectRoute(devDataRoute(fileURLToPath(routesDir), route, EXT));
        if (command === 'dev') injectRoute(devPartRoute(fileURLToPath(routesDir), route, EXT)); // issue 41: a windowed page's parts
        if (command !== 'build') return;
        // A build that stops (here, on a scenario error, or later) must not leave the previous site
        // in dist/ for a sync to publish: clear it first, and stamp the attempt (the sync refuses
        // a dist/ whose last build did not finish; src/sync/build-stamp.ts).
        const outDir = fileURLToPath(config.outDir);
        const rel = relative(root, outDir);
        if (rel && !rel.startsWith('..') && !rel.startsWith(sep)) rmSync(outDir, { recursive: true, force: true });
        outDirOf = outDir;
        startedAt = new Date().toISOString();
        writeStamp(outDir, { started: startedAt, finished: null });
        const base = resolved.baseRef;
        if (base) {
          try {
            logger.info(`comparing with base ${base} (${resolveRef(root, base).slice(0, 7)})`);
          } catch (err) {
            const from = env.baseRef ? ENV.baseRef : 'baseRef';
            throw buildError(`${from}: ${(err as Error).message}`, `Pull-request builds compare with the base branch: fetch it, or unset ${from} for a plain build.`);
          }
        }
        let corpus;
        try {
          corpus = await sharedRender(resolved); // the pages reuse this render (shared-render.ts)
        } catch (err) {
          if (UserError.is(err)) throw buildError(err.message); // e.g. a scenario file linked from outside the project
          throw err;
        }
        const noFolder = missingScenariosNotice(resolved);
        if (noFolder) logger.warn(noFolder);
        for (const w of corpus.warnings) logger.warn(`${w.pos.file}:${w.pos.line}:${w.pos.col} warning: ${w.message}`);
        // A review build (EXPLAINER_REVIEW=1: a pull-request preview) shows broken cache expectations instead of failing on them.
        const blocking = blockingErrors(corpus);
        if (blocking.length) throw buildError(new CorpusError(blocking).message);
        logger.info(`corpus ok: ${corpus.scenarios.length} scenarios, ${corpus.scenarios.reduce((n, s) => n + s.requests.length, 0)} requests`);
      },
      'astro:build:done': async ({ dir, assets, logger }) => {
        const out = fileURLToPath(dir);
        const under = join(out, ...(page?.route ?? '/').split('/').filter(Boolean));
        // The files the pages handed over (a scenario page's data.json, page-files.ts), below the route.
        writePageFiles(under);
        // The explainer's pages (and the host's opted in) get their Content Security Policy, computed
        // from their own scripts (csp.ts); inside Starlight its search box runs on every page.
        const policies = applyPolicies(policyPages(out, assets, own, page?.policyPages ?? []), { wasm: page?.chrome === 'starlight' });
        logger.info(`content security policy: ${policies} pages`);
        // The search page's index: the explainer's pages, written under the route (search-index.ts).
        if (page?.search) logger.info(`search index: ${await buildSearchIndex(under)} pages`);
        // Only now is dist/ complete: a sync may publish it (src/sync/build-stamp.ts).
        if (outDirOf && startedAt) writeStamp(outDirOf, { started: startedAt, finished: new Date().toISOString() });
      },
    },
  };
}
