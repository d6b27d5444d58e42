/**
 * `npm run pr-summary -- --base <ref> --site-url <url> [--pr <N>]` — prints the Markdown of the
 * pull-request comment, exactly as CI posts it (the same review data and renderer:
 * review/review-data.ts, review/summary.ts): the verdict, the totals, the root cause, the broken
 * expectations, a row per scenario and the per-request detail against the fixtures committed at
 * <ref>, with deep links into the preview site. With --pr, <url> is the production site and the
 * links go to its preview of that pull request (<url>/previews/pr-<N>/…#@offset). Token and cost
 * deltas put the base commit's own figures (its `npm run report`, run on a temporary export:
 * review/base-report.ts) beside this checkout's, or say why the base's are not known. Broken cache
 * expectations are part of the summary, as in the preview; any other corpus error fails (nothing
 * printed), as it stops the preview build.
 */
import { parseArgs } from 'node:util';
import { parsePr, previewUrl } from '../preview/paths.ts';
import { basePathOf } from '../integration/site-base.ts';
import { loadConfig, runMain, UsageError } from './config.ts';
import { runCommandWithArgs } from '../project.ts';

runMain(async () => {
  let values;
  try {
    ({ values } = parseArgs({ options: { base: { type: 'string' }, 'site-url': { type: 'string' }, pr: { type: 'string' } }, strict: true }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n  usage: ${runCommandWithArgs('pr-summary')} --base <git ref> --site-url <url> [--pr <N>]`);
  }
  const config = await loadConfig();
  const base = values.base ?? config.baseRef;
  if (!base)
    throw new UsageError(
      `missing --base <git ref> (or EXPLAINER_BASE, or the \`baseRef\` option)\n  usage: ${runCommandWithArgs('pr-summary')} --base origin/main --site-url https://preview.example`,
    );
  if (!values['site-url'])
    throw new UsageError(
      `missing --site-url <url> — the preview site the links point at\n  usage: ${runCommandWithArgs('pr-summary')} --base origin/main --site-url https://preview.example`,
    );
  basePathOf(values['site-url']); // a bad URL is a usage error, not a broken link
  const site = values.pr ? previewUrl(parsePr(values.pr), values['site-url']) : values['site-url'];
  // Loaded once the arguments are good: a usage error loads no corpus machinery.
  const [{ renderCorpus }, { blockingErrors }, { buildReview }, { prSummary }, { CorpusError }] = await Promise.all([
    import('../corpus/check.ts'),
    import('../review/expectations.ts'),
    import('../review/review-data.ts'),
    import('../review/summary.ts'),
    import('../scenarios/errors.ts'),
  ]);
  const corpus = await renderCorpus(config, { everyEvent: false });
  const blocking = blockingErrors(corpus, true);
  if (blocking.length) throw new CorpusError(blocking);
  // The base's figures are its own: its `npm run report`, run on a temporary export of the base commit.
  process.stdout.write(prSummary(buildReview(config, corpus, base), site));
});
