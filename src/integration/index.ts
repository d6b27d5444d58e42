/**
 * The Astro integration: `explainer(options)` in astro.config.mjs. It carries the explainer's one
 * options object (the CLIs read it from here too), hands it to the site's modules through a virtual
 * module, and — on `astro build` — checks the whole corpus before anything is built: any scenario
 * error or stale anchor fails the build with the same file:line:column message as the tests,
 * never a stack trace; after the build every page gets its Content Security Policy (csp.ts). In `astro dev` the content loader watches scenarios/ and pages show errors
 * in the dev overlay instead of stopping the server.
 */
import type { AstroIntegration } from 'astro';
import { AstroError } from 'astro/errors';
import { fileURLToPath } from 'node:url';
import { UserError } from '../errors.ts';
import { CorpusError } from '../scenarios/errors.ts';
import { sharedRender } from './shared-render.ts';
import { resolveRef } from '../review/base.ts';
import { resolveOptions, type ExplainerOptions } from './options.ts';
import { browserFolds, browserFoldsModule } from './browser-folds.ts';
import { applyPolicies } from './csp.ts';

export const INTEGRATION_NAME = 'prompt-fold-explainer';
export const CONFIG_MODULE = 'virtual:prompt-fold-explainer/config';
/** The browser-safe folds, bundled for the playground (see browser-folds.ts). */
export const FOLDS_MODULE = 'virtual:prompt-fold-explainer/folds';

export type ExplainerIntegration = AstroIntegration & { explainerOptions: ExplainerOptions };

/**
 * An error whose message is the whole report. No stack (Astro then prints none), and a toString
 * without the report: Astro's hint heuristics scan it for words like "window", which scenario
 * file names may contain, and would print an unrelated hint.
 */
/**
 * A build-stopping input error as Astro's own user error (its hint is printed under the message),
 * with no stack: where our code noticed the problem says nothing about the scenario.
 */
function buildInputError(message: string, hint = 'Fix the scenario files named above; `npm run check` prints the same report without building.'): AstroError {
  const err = new AstroError(message, hint);
  err.stack = '';
  return err;
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
        const foldsId = `\0${FOLDS_MODULE}`;
        const forBrowser = browserFolds(root, options.folds);
        for (const f of forBrowser) if (f.unsafe) logger.warn(`fold ${f.spec} is not in the playground: ${f.unsafe}`);
        const builtinIndex = fileURLToPath(new URL('../folds/index.ts', import.meta.url));
        const plugin = {
          name: INTEGRATION_NAME,
          resolveId: (id: string) => (id === CONFIG_MODULE ? resolvedId : id === FOLDS_MODULE ? foldsId : undefined),
          load: (id: string) =>
            id === resolvedId
              ? `export const root = ${JSON.stringify(root)};\nexport const options = ${JSON.stringify(options)};\nexport const command = ${JSON.stringify(command)};\n`
              : id === foldsId
                ? browserFoldsModule(forBrowser, builtinIndex)
                : undefined,
        };
        // The playground's worker is bundled separately: it needs the fold module too.
        updateConfig({ vite: { plugins: [plugin], worker: { format: 'es', plugins: () => [plugin] } } });
        if (command !== 'build') return;
        const base = resolved.baseRef;
        if (base) {
          try {
            logger.info(`comparing with base ${base} (${resolveRef(root, base).slice(0, 7)})`);
          } catch (err) {
            const from = process.env.EXPLAINER_BASE ? 'EXPLAINER_BASE' : 'baseRef';
            throw buildInputError(`${from}: ${(err as Error).message}`, `Pull-request builds compare with the base branch: fetch it, or unset ${from} for a plain build.`);
          }
        }
        let corpus;
        try {
          corpus = sharedRender(resolved); // the pages reuse this render (shared-render.ts)
        } catch (err) {
          if (UserError.is(err)) throw buildInputError(err.message); // e.g. a scenario file linked from outside the project
          throw err;
        }
        for (const w of corpus.warnings) logger.warn(`${w.pos.file}:${w.pos.line}:${w.pos.col} warning: ${w.message}`);
        if (corpus.errors.length) throw buildInputError(new CorpusError(corpus.errors).message);
        logger.info(`corpus ok: ${corpus.scenarios.length} scenarios, ${corpus.scenarios.reduce((n, s) => n + s.requests.length, 0)} requests`);
      },
      // Every published page gets its Content Security Policy, computed from its own scripts (csp.ts).
      'astro:build:done': ({ dir, logger }) => {
        logger.info(`content security policy: ${applyPolicies(fileURLToPath(dir))} pages`);
      },
    },
  };
}
