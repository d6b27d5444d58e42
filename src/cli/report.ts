/**
 * `npm run report [-- --json]` — the cache economics of every scenario: per request the input,
 * prefix, cached and new tokens, output tokens, cost and the cache break (cause, events, tokens
 * lost). `--json` prints one JSON document for CI jobs and scripts; without it, a readable table.
 * `--all-profiles` adds each scenario's requests under every configured provider profile.
 * Imported logs (their `<prefix>.traffic.json` manifests) add a traffic summary each: `traffic` in
 * `--json`, a section after the table. The JSON also carries each scenario's `whatIf`
 * (economics/what-if.ts): the other retention choices its provider offers, re-priced, with 1,000
 * conversations and the idle gap from which they pay; and `prices`: every price of the profiles
 * it uses (every configured one with `--all-profiles`) with where it came from — the catalog's
 * sourced figure with its page and date, or the project's own — and the pinned price dataset's
 * word on it (economics/price-origin.ts). In `--json` each request carries its `lint` findings
 * (src/request-lint/report.ts). Checks the corpus first (errors fail, nothing printed).
 */
import { parseArgs } from 'node:util';
import { loadConfig, runMain, UsageError } from './config.ts';
import { project, runCommand } from '../project.ts';

/** What a report needs, loaded once the arguments are good (a usage error loads none of it). */
const reportModules = () =>
  Promise.all([
    import('../corpus/check.ts'),
    import('../economics/price-origin.ts'),
    import('../economics/report.ts'),
    import('../economics/profiles.ts'),
    import('../economics/traffic.ts'),
    import('../economics/what-if.ts'),
    import('../request-lint/report.ts'),
    import('../integration/traffic.ts'),
    import('../scenarios/errors.ts'),
  ]);

runMain(async () => {
  let values;
  try {
    ({ values } = parseArgs({ options: { json: { type: 'boolean' }, 'all-profiles': { type: 'boolean' } }, strict: true }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n  usage: ${runCommand('report')} [${project().host ? '' : '-- '}--json] [--all-profiles]`);
  }
  const config = await loadConfig();
  const [
    { assertClean, renderCorpus },
    { priceOrigins },
    { buildReport, reportTable },
    { DEFAULT_ECONOMICS },
    { trafficLines, trafficSummary },
    { whatIf },
    { lintedScenarios },
    { readTrafficManifests },
    { CorpusError },
  ] = await reportModules();
  const corpus = assertClean(await renderCorpus(config, { everyEvent: false }));
  const economics = config.economics ?? DEFAULT_ECONOMICS;
  const all = values['all-profiles'] ? { allProfiles: economics } : {};
  const logs = readTrafficManifests(config);
  if (logs.errors.length) throw new CorpusError(logs.errors);
  const traffic = logs.manifests.map((m) => trafficSummary(corpus, m));
  if (!values.json) {
    process.stdout.write(reportTable(corpus, all) + traffic.map((t) => `\n${trafficLines(t).join('\n')}\n`).join(''));
    return;
  }
  const report = buildReport(corpus, all);
  const byId = new Map(corpus.scenarios.map((r) => [r.scenario.id, r]));
  const scenarios = lintedScenarios(report, corpus.lint).map((s, i) => ({ ...s, whatIf: whatIf(corpus.scenarios[i]!, economics, byId) }));
  const used = values['all-profiles'] ? Object.keys(economics.profiles) : [...corpus.economics.values()].flatMap((e) => e.profiles.map((p) => p.id));
  process.stdout.write(`${JSON.stringify({ ...report, scenarios, traffic, prices: priceOrigins(economics, used) }, null, 2)}\n`);
});
