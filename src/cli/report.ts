/**
 * `npm run report [-- --json]` — the cache economics of every scenario: per request the input,
 * prefix, cached and new tokens, output tokens, cost and the cache break (cause, events, tokens
 * lost). `--json` prints one JSON document for CI jobs and scripts; without it, a readable table.
 * Checks the corpus first (errors fail, nothing printed).
 */
import { parseArgs } from 'node:util';
import { assertClean, renderCorpus } from '../prompt/corpus.ts';
import { buildReport, reportTable } from '../economics/report.ts';
import { loadConfig, runMain, UsageError } from './config.ts';

runMain(async () => {
  let values;
  try {
    ({ values } = parseArgs({ options: { json: { type: 'boolean' } }, strict: true }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n  usage: npm run report [-- --json]`);
  }
  const config = await loadConfig();
  const corpus = assertClean(renderCorpus(config, { everyEvent: false }));
  process.stdout.write(values.json ? `${JSON.stringify(buildReport(corpus), null, 2)}\n` : reportTable(corpus));
});
