/**
 * `npm run report [-- --json]` — the cache economics of every scenario: per request the input,
 * prefix, cached and new tokens, output tokens, cost and the cache break (cause, events, tokens
 * lost). `--json` prints one JSON document for CI jobs and scripts; without it, a readable table.
 * `--all-profiles` adds each scenario's requests under every configured provider profile. The JSON
 * also carries each scenario's `whatIf` (economics/what-if.ts): the other retention choices its
 * provider offers, re-priced, with 1,000 conversations and the idle gap from which they pay.
 * Checks the corpus first (errors fail, nothing printed).
 */
import { parseArgs } from 'node:util';
import { assertClean, renderCorpus } from '../corpus/check.ts';
import { buildReport, reportTable } from '../economics/report.ts';
import { DEFAULT_ECONOMICS } from '../economics/profiles.ts';
import { whatIf } from '../economics/what-if.ts';
import { loadConfig, runMain, UsageError } from './config.ts';

runMain(async () => {
  let values;
  try {
    ({ values } = parseArgs({ options: { json: { type: 'boolean' }, 'all-profiles': { type: 'boolean' } }, strict: true }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n  usage: npm run report [-- --json] [--all-profiles]`);
  }
  const config = await loadConfig();
  const corpus = assertClean(await renderCorpus(config, { everyEvent: false }));
  const economics = config.economics ?? DEFAULT_ECONOMICS;
  const all = values['all-profiles'] ? { allProfiles: economics } : {};
  if (!values.json) {
    process.stdout.write(reportTable(corpus, all));
    return;
  }
  const report = buildReport(corpus, all);
  const scenarios = report.scenarios.map((s, i) => ({ ...s, whatIf: whatIf(corpus.scenarios[i]!, economics) }));
  process.stdout.write(`${JSON.stringify({ ...report, scenarios }, null, 2)}\n`);
});
