/**
 * `npm run pr-summary -- --base <ref> --site-url <url>` — prints the Markdown of the pull-request
 * comment: which prompts changed against the fixtures committed at <ref>, with deep links into the
 * preview site, and each change's token and cost deltas. Checks the corpus first (errors fail,
 * nothing printed).
 */
import { parseArgs } from 'node:util';
import { assertClean, renderCorpus } from '../prompt/corpus.ts';
import { readBaseFixtures } from '../fixtures/base.ts';
import { compareWithBase } from '../fixtures/compare.ts';
import { prSummary } from '../fixtures/summary.ts';
import { deltasAgainstBase } from '../economics/delta.ts';
import { loadConfig, runMain, UsageError } from './config.ts';

runMain(async () => {
  let values;
  try {
    ({ values } = parseArgs({ options: { base: { type: 'string' }, 'site-url': { type: 'string' } }, strict: true }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n  usage: npm run pr-summary -- --base <git ref> --site-url <url>`);
  }
  const base = values.base ?? process.env.EXPLAINER_BASE;
  if (!base) throw new UsageError('missing --base <git ref> (or EXPLAINER_BASE)\n  usage: npm run pr-summary -- --base origin/main --site-url https://preview.example');
  if (!values['site-url']) throw new UsageError('missing --site-url <url> — the preview site the links point at\n  usage: npm run pr-summary -- --base origin/main --site-url https://preview.example');
  const config = await loadConfig();
  const corpus = assertClean(renderCorpus(config, { everyEvent: false }));
  const { commit, fixtures } = readBaseFixtures(config.root, base, config.fixturesDir, config.scenariosDir);
  const deltas = deltasAgainstBase(corpus.scenarios, corpus.economics, fixtures, config.economics);
  process.stdout.write(prSummary(compareWithBase(base, commit, corpus.scenarios, fixtures), values['site-url'], deltas));
});
