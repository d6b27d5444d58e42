/**
 * `npm run report [-- --json]` — the cache economics of every scenario: per request the input,
 * prefix, cached and new tokens, output tokens, cost and the cache break (cause, events, tokens
 * lost). `--json` prints one JSON document for CI jobs and scripts; without it, a readable table.
 * `--all-profiles` adds each scenario's requests under every configured provider profile.
 * Imported logs (their `<prefix>.traffic.json` manifests) add a traffic summary each: `traffic` in
 * `--json`, a section after the table. Checks the corpus first (errors fail, nothing printed).
 */
import { parseArgs } from 'node:util';
import { assertClean, renderCorpus } from '../corpus/check.ts';
import { buildReport, reportTable } from '../economics/report.ts';
import { DEFAULT_ECONOMICS } from '../economics/profiles.ts';
import { trafficLines, trafficSummary } from '../economics/traffic.ts';
import { readTrafficManifests } from '../integration/traffic.ts';
import { CorpusError } from '../scenarios/errors.ts';
import { loadConfig, runMain, UsageError } from './config.ts';
import { project, runCommand } from '../project.ts';

runMain(async () => {
  let values;
  try {
    ({ values } = parseArgs({ options: { json: { type: 'boolean' }, 'all-profiles': { type: 'boolean' } }, strict: true }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n  usage: ${runCommand('report')} [${project().host ? '' : '-- '}--json] [--all-profiles]`);
  }
  const config = await loadConfig();
  const corpus = assertClean(await renderCorpus(config, { everyEvent: false }));
  const economics = config.economics ?? DEFAULT_ECONOMICS;
  const all = values['all-profiles'] ? { allProfiles: economics } : {};
  const logs = readTrafficManifests(config);
  if (logs.errors.length) throw new CorpusError(logs.errors);
  const traffic = logs.manifests.map((m) => trafficSummary(corpus, m));
  process.stdout.write(
    values.json
      ? `${JSON.stringify({ ...buildReport(corpus, all), traffic }, null, 2)}\n`
      : reportTable(corpus, all) + traffic.map((t) => `\n${trafficLines(t).join('\n')}\n`).join(''),
  );
});
