/**
 * The Astro integration: `explainer(options)` in astro.config.mjs. It carries the explainer's one
 * options object (the CLIs read it from here too) and checks the whole corpus when a build starts —
 * any scenario error or stale anchor fails `astro build` with the same file:line:column message as
 * the tests, never a stack trace.
 */
import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';
import { CorpusError } from '../scenarios/errors.ts';
import { renderCorpus } from '../prompt/corpus.ts';
import { resolveOptions, type ExplainerOptions } from './options.ts';

export const INTEGRATION_NAME = 'prompt-fold-explainer';

export type ExplainerIntegration = AstroIntegration & { explainerOptions: ExplainerOptions };

export function explainer(options: ExplainerOptions = {}): ExplainerIntegration {
  return {
    name: INTEGRATION_NAME,
    explainerOptions: options,
    hooks: {
      'astro:config:setup': async ({ config, logger }) => {
        const root = fileURLToPath(config.root);
        const resolved = await resolveOptions(root, options);
        const corpus = renderCorpus(resolved, { everyEvent: false });
        for (const w of corpus.warnings) logger.warn(`${w.pos.file}:${w.pos.line}:${w.pos.col} ${w.message}`);
        if (corpus.errors.length) {
          const err = new CorpusError(corpus.errors);
          logger.error(err.message);
          throw Object.assign(new Error(`the scenario corpus has ${corpus.errors.length} error(s) — see above`), { stack: '' });
        }
      },
    },
  };
}
