/**
 * `npm run check` — the corpus check without building the site: every scenario error, stale
 * anchor and stale fixture, plus ambiguous anchors as warnings. Exit 1 on any error.
 */
import { join } from 'node:path';
import { assertClean, renderCorpus } from '../prompt/corpus.ts';
import { planFixtures, staleMessage } from '../fixture-format/store.ts';
import { loadConfig, runMain } from './config.ts';

runMain(async () => {
  const config = await loadConfig();
  const corpus = renderCorpus(config, { everyEvent: false });
  for (const w of corpus.warnings) console.warn(`${w.pos.file}:${w.pos.line}:${w.pos.col} warning: ${w.message}`);
  assertClean(corpus);
  const stale = staleMessage(config.fixturesDir, planFixtures(join(config.root, config.fixturesDir), corpus.scenarios));
  if (stale) {
    console.error(stale);
    return 1;
  }
  const requests = corpus.scenarios.reduce((n, s) => n + s.requests.length, 0);
  console.log(`ok: ${corpus.scenarios.length} scenarios, ${requests} requests, fixtures fresh${corpus.warnings.length ? `, ${corpus.warnings.length} warning(s)` : ''}`);
});
