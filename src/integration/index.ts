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
 *
 * Each hook is a list of calls into modules named by their job (as Starlight's index.ts delegates to
 * its integrations/): read-options.ts, host-config.ts, vite-plugin.ts, routes.ts, build-output.ts,
 * base-ref.ts, corpus-gate.ts; after the build page-files.ts, csp.ts, search-index.ts.
 */
import type { AstroIntegration } from 'astro';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkBaseRef } from './base-ref.ts';
import { startBuild } from './build-output.ts';
import { checkCorpus } from './corpus-gate.ts';
import { registerDevServer } from './dev-reload.ts';
import { watchScenarios } from './dev-watch.ts';
import { addPageSupport, applySiteBase, type SiteSetup } from './host-config.ts';
import type { ExplainerOptions, ParsedOptions } from './options.ts';
import { EXT, ROUTES_DIR } from './own-files.ts';
import { applyPolicies, policyPages } from './csp.ts';
import { writePageFiles } from './page-files.ts';
import { PACKAGE_NAME, useProject } from './project-facts.ts';
import { readOptions } from './read-options.ts';
import { injectPages } from './routes.ts';
import type { CorpusConfig } from '../scenarios/load.ts';
import { buildSearchIndex } from './search-index.ts';
import { sharedState } from './shared-state.ts';
import { viteConfig } from './vite-plugin.ts';

export const INTEGRATION_NAME = PACKAGE_NAME;

export type ExplainerIntegration = AstroIntegration & { explainerOptions: ExplainerOptions };

/** Options given to the Starlight plugin (src/package/starlight.ts), in call order: the CLIs find the options there when the explainer is inside Starlight's plugins, not the config's integrations. */
export const starlightOptions = (): ExplainerOptions[] => sharedState('starlight-options', () => [] as ExplainerOptions[]);

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
        const read = await readOptions(root, options);
        page = read.page;
        corpusConfig = read.corpus;
        applySiteBase(updateConfig);
        updateConfig({ vite: viteConfig({ root, publicDir: fileURLToPath(config.publicDir), options, page, command, facts, logger }) });
        addPageSupport(config, setup, updateConfig);
        own = injectPages(injectRoute, { dir: ROUTES_DIR, route: page.route, search: page.search, command, ext: EXT });
        if (command !== 'build') return;
        finishBuild = startBuild(root, fileURLToPath(config.outDir));
        checkBaseRef(root, read.corpus.baseRef, logger);
        await checkCorpus(read.corpus, logger);
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
        // Only now is dist/ complete: a sync may publish it (build-output.ts).
        finishBuild?.();
      },
    },
  };
}
