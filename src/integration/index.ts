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
 * environment is read in environment.ts). Messages name the project's own config file and commands
 * (src/project.ts, set here from the project root).
 *
 * Each hook is a list of calls into modules named by their job (as Starlight's index.ts delegates to
 * its integrations/): read-options.ts, host-config.ts, vite-plugin.ts, routes.ts, build-output.ts,
 * base-ref.ts, corpus-gate.ts; after the build page-files.ts, csp.ts, search-index.ts; in dev
 * dev-reload.ts, dev-watch.ts. A hook imports its modules when it runs: loading the config loads only
 * this file (the `prompt-fold` commands load the config just to read the options from it, through
 * options-record.ts, and each command's start-up would otherwise pay for every hook's modules).
 */
import type { AstroIntegration } from 'astro';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configFile } from '../project.ts';
import { optionsError } from './astro-error.ts';
import type { SiteSetup } from './host-config.ts';
import type { ExplainerOptions, ParsedOptions } from './options.ts';
import { INTEGRATION_NAME } from './options-record.ts';
import { EXT, ROUTES_DIR } from './own-files.ts';
import { useProject } from './project-facts.ts';
import type { CorpusConfig } from '../scenarios/load.ts';

export type ExplainerIntegration = AstroIntegration & { explainerOptions: ExplainerOptions };

/**
 * A hook's modules, imported when the hook runs. One case cannot: a config that Astro loads through
 * Vite (a `.ts` config) and that imports the explainer from its source files, not by its package name
 * — Vite has closed that loader once the config is read. A clear error instead of Vite's.
 */
async function load<T>(modules: () => Promise<T>): Promise<T> {
  try {
    return await modules();
  } catch (err) {
    if (!/module runner has been closed/.test((err as Error).message)) throw err;
    throw optionsError(
      `${configFile()} imports the explainer from its source files, and Astro loaded it through Vite, which cannot load the explainer's modules once the config is read.`,
      `Import it by its package name (import { explainer } from '${INTEGRATION_NAME}'), or name the config astro.config.mjs.`,
    );
  }
}

export function explainer(options: ExplainerOptions = {}, setup: SiteSetup = {}): ExplainerIntegration {
  let projectRoot: string | undefined;
  let page: ParsedOptions | undefined;
  /** The corpus as the options resolve it (config:setup), for the dev server's watcher. */
  let corpusConfig: CorpusConfig | undefined;
  /** Marks dist/ complete (build-output.ts): set when a build starts. */
  let finishBuild: (() => void) | undefined;
  /** The patterns of the routes this integration injected: their pages are the explainer's own. */
  let own = new Set<string>();
  return {
    name: INTEGRATION_NAME,
    explainerOptions: options,
    hooks: {
      'astro:server:setup': async ({ server, logger }) => {
        // Scenario edits re-render the corpus; the open tabs show its errors, and reload once it renders (dev-watch.ts).
        if (!projectRoot || !corpusConfig) return;
        const [{ registerDevServer }, { watchScenarios }] = await load(() => Promise.all([import('./dev-reload.ts'), import('./dev-watch.ts')]));
        registerDevServer(projectRoot, server.environments.client.hot);
        void watchScenarios(corpusConfig, server.watcher, logger);
      },
      'astro:config:setup': async ({ config, command, updateConfig, injectRoute, logger }) => {
        const root = fileURLToPath(config.root);
        projectRoot = root;
        const facts = useProject(root);
        const [{ readOptions }, { addPageSupport, applySiteBase }, { viteConfig }, { injectPages }] = await load(() =>
          Promise.all([import('./read-options.ts'), import('./host-config.ts'), import('./vite-plugin.ts'), import('./routes.ts')]),
        );
        const read = await readOptions(root, options);
        page = read.page;
        corpusConfig = read.corpus;
        applySiteBase(updateConfig);
        updateConfig({
          vite: viteConfig({ root, publicDir: fileURLToPath(config.publicDir), options, page, command, facts, logger, share: command === 'build' && !config.adapter }),
        });
        await addPageSupport(config, setup, updateConfig);
        own = injectPages(injectRoute, { dir: ROUTES_DIR, route: page.route, search: page.search, command, ext: EXT });
        if (command !== 'build') return;
        const [{ startBuild }, { checkBaseRef }, { checkCorpus }] = await load(() =>
          Promise.all([import('./build-output.ts'), import('./base-ref.ts'), import('./corpus-gate.ts')]),
        );
        finishBuild = startBuild(root, fileURLToPath(config.outDir));
        checkBaseRef(root, read.corpus.baseRef, logger);
        await checkCorpus(read.corpus, logger);
      },
      'astro:build:done': async ({ dir, assets, logger }) => {
        const [{ writePageFiles }, { applyPolicies, policyPages }, { buildSearchIndex }] = await load(() =>
          Promise.all([import('./page-files.ts'), import('./csp.ts'), import('./search-index.ts')]),
        );
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
        // Only now is dist/ complete: a sync may publish it (build-output.ts).
        finishBuild?.();
      },
    },
  };
}
