/**
 * The Astro integration: `explainer(options)` in astro.config.mjs. It carries the explainer's one
 * options object (the CLIs read it from here too), hands it to the site's modules through a virtual
 * module, and — on `astro build` — checks the whole corpus before anything is built: any scenario
 * error or stale anchor fails the build with the same file:line:column message as the tests,
 * never a stack trace. In `astro dev` the content loader watches scenarios/ and pages show errors
 * in the dev overlay instead of stopping the server. EXPLAINER_SITE_BASE sets the site's URL path
 * (Astro's `base`) for a build served under a sub-path, such as a pull-request preview.
 */
import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';
import { CorpusError } from '../scenarios/errors.ts';
import { sharedRender } from './shared-render.ts';
import { resolveRef } from '../fixtures/base.ts';
import { resolveOptions, type ExplainerOptions } from './options.ts';
import { normalizeSiteBase, SITE_BASE_ENV } from './site-base.ts';

export const INTEGRATION_NAME = 'prompt-fold-explainer';
export const CONFIG_MODULE = 'virtual:prompt-fold-explainer/config';

export type ExplainerIntegration = AstroIntegration & { explainerOptions: ExplainerOptions };

/**
 * An error whose message is the whole report. No stack (Astro then prints none), and a toString
 * without the report: Astro's hint heuristics scan it for words like "window", which scenario
 * file names may contain, and would print an unrelated hint.
 */
class BuildInputError extends Error {
  override name = 'ScenarioError';
  readonly hint: string;
  constructor(message: string, hint = 'Fix the scenario files named above; `npm run check` prints the same report without building.') {
    super(message);
    this.hint = hint;
    this.stack = '';
  }
  override toString(): string {
    return 'ScenarioError: the scenario corpus has errors';
  }
}

export function explainer(options: ExplainerOptions = {}): ExplainerIntegration {
  return {
    name: INTEGRATION_NAME,
    explainerOptions: options,
    hooks: {
      'astro:config:setup': async ({ config, command, updateConfig, logger }) => {
        const root = fileURLToPath(config.root);
        const resolved = await resolveOptions(root, options);
        const resolvedId = `\0${CONFIG_MODULE}`;
        const siteBase = process.env[SITE_BASE_ENV];
        if (siteBase) {
          try {
            updateConfig({ base: normalizeSiteBase(siteBase) });
          } catch (err) {
            throw new BuildInputError((err as Error).message, 'Unset EXPLAINER_SITE_BASE for a build served at the domain root.');
          }
        }
        updateConfig({
          vite: {
            plugins: [
              {
                name: INTEGRATION_NAME,
                resolveId: (id: string) => (id === CONFIG_MODULE ? resolvedId : undefined),
                load: (id: string) =>
                  id === resolvedId
                    ? `export const root = ${JSON.stringify(root)};\nexport const options = ${JSON.stringify(options)};\nexport const command = ${JSON.stringify(command)};\n`
                    : undefined,
              },
            ],
          },
        });
        if (command !== 'build') return;
        const base = process.env.EXPLAINER_BASE;
        if (base) {
          try {
            logger.info(`comparing with base ${base} (${resolveRef(root, base).slice(0, 7)})`);
          } catch (err) {
            throw new BuildInputError(`EXPLAINER_BASE: ${(err as Error).message}`, 'Pull-request builds compare with the base branch: fetch it, or unset EXPLAINER_BASE for a plain build.');
          }
        }
        const corpus = sharedRender(resolved); // the pages reuse this render (shared-render.ts)
        for (const w of corpus.warnings) logger.warn(`${w.pos.file}:${w.pos.line}:${w.pos.col} warning: ${w.message}`);
        if (corpus.errors.length) throw new BuildInputError(new CorpusError(corpus.errors).message);
        logger.info(`corpus ok: ${corpus.scenarios.length} scenarios, ${corpus.scenarios.reduce((n, s) => n + s.requests.length, 0)} requests`);
      },
    },
  };
}
