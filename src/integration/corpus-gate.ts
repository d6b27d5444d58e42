/**
 * The build's gate: the whole corpus is rendered before any page is, and any scenario error or
 * stale anchor stops `astro build` with the same file:line:column report as `npm run check` and the
 * tests — never a stack trace. Warnings are logged; a review build (EXPLAINER_REVIEW=1, a
 * pull-request preview) shows broken cache expectations on its pages instead of failing on them
 * (review/expectations.ts). The pages then reuse this render (shared-render.ts).
 */
import type { AstroIntegrationLogger } from 'astro';
import { UserError } from '../errors.ts';
import { blockingErrors } from '../review/expectations.ts';
import { CorpusError } from '../scenarios/errors.ts';
import { missingScenariosNotice } from '../scenarios/files.ts';
import type { CorpusConfig } from '../scenarios/load.ts';
import { buildError } from './astro-error.ts';
import { sharedRender } from './shared-render.ts';

export async function checkCorpus(config: CorpusConfig, logger: AstroIntegrationLogger): Promise<void> {
  let corpus;
  try {
    corpus = await sharedRender(config);
  } catch (err) {
    if (UserError.is(err)) throw buildError(err.message); // e.g. a scenario file linked from outside the project
    throw err;
  }
  const noFolder = missingScenariosNotice(config);
  if (noFolder) logger.warn(noFolder);
  for (const w of corpus.warnings) logger.warn(`${w.pos.file}:${w.pos.line}:${w.pos.col} warning: ${w.message}`);
  const blocking = blockingErrors(corpus);
  if (blocking.length) throw buildError(new CorpusError(blocking).message);
  logger.info(`corpus ok: ${corpus.scenarios.length} scenarios, ${corpus.scenarios.reduce((n, s) => n + s.requests.length, 0)} requests`);
}
