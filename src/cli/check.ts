/**
 * `npm run check` — the corpus check without building the site: every scenario error, stale
 * anchor and stale fixture, plus warnings: ambiguous anchors, and anchors on protocol metadata (an
 * `@N …` first line; see src/prompt/metadata-anchor.ts). Exit 1 on any error; warnings never fail.
 * Each error is followed by a short code frame of the scenario file (src/scenarios/frame.ts), as in
 * the dev overlay.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { renderCorpus } from '../prompt/corpus.ts';
import { reportWithFrames } from '../scenarios/frame.ts';
import { planFixtures, staleMessage } from '../fixture-format/store.ts';
import { loadConfig, runMain } from './config.ts';

const readText = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

runMain(async () => {
  const config = await loadConfig();
  const corpus = renderCorpus(config, { everyEvent: false });
  for (const w of corpus.warnings) console.warn(`${w.pos.file}:${w.pos.line}:${w.pos.col} warning: ${w.message}`);
  if (corpus.errors.length) {
    console.error(reportWithFrames(corpus.errors, (f) => readText(join(config.root, f))));
    return 1;
  }
  const stale = staleMessage(config.fixturesDir, planFixtures(join(config.root, config.fixturesDir), corpus.scenarios));
  if (stale) {
    console.error(stale);
    return 1;
  }
  const requests = corpus.scenarios.reduce((n, s) => n + s.requests.length, 0);
  console.log(`ok: ${corpus.scenarios.length} scenarios, ${requests} requests, fixtures fresh${corpus.warnings.length ? `, ${corpus.warnings.length} warning(s)` : ''}`);
});
