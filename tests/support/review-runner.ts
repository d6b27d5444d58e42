/**
 * Test support, run as a child process by review-in-process.ts (`node review-runner.ts <copy>`):
 * `npm run fixtures`, `npm run pr-summary` and `npm run report -- --json` for one project copy
 * whose code a test has edited (a fold, package.json), served one request after another over the
 * IPC channel — the copy's own modules, loaded once, instead of a CLI process per command, each of
 * which loads the config and the integration again (~2 CPU-seconds) before a render of ~0.3 s.
 *
 * review-in-process.ts starts one per code state (the copy's code as a diff against its first
 * commit) and sends it requests only while the copy is checked out in that state, so every module
 * this process loads, early or late, is that state's code. Each request does what the command's
 * main does (src/cli/fixtures.ts, pr-summary.ts, report.ts) with the same library calls.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { scenariosHash } from './scenarios-hash.ts';

const dir = process.argv[2]!;
process.chdir(dir);

/** A module of the copy's own src/. */
// biome-ignore lint/suspicious/noExplicitAny: the copy's modules, typed as this checkout's would be misleading
const load = (path: string): Promise<any> => import(pathToFileURL(join(dir, 'src', path)).href);

type Request = { id: number; op: 'fixtures' } | { id: number; op: 'summary'; base: string; site: string } | { id: number; op: 'report' };

/** Renders of the copy, one per scenario folder (scenarios-hash.ts): this process serves one code state, so the folder decides the render. */
const renders = new Map<string, Promise<{ errors: unknown[]; scenarios: unknown[] }>>();

async function corpusOf(): Promise<{ config: { root: string; fixturesDir: string }; corpus: { errors: unknown[]; scenarios: unknown[] } }> {
  const [{ loadConfig }, { renderCorpus }] = await Promise.all([load('cli/config.ts'), load('corpus/check.ts')]);
  const config = await loadConfig(dir);
  const key = scenariosHash(join(config.root, config.scenariosDir));
  let corpus = renders.get(key);
  if (!corpus) {
    corpus = renderCorpus(config, { everyEvent: false }) as Promise<{ errors: unknown[]; scenarios: unknown[] }>;
    renders.set(key, corpus);
  }
  return { config, corpus: await corpus };
}

async function serve(req: Request): Promise<string> {
  const { config, corpus } = await corpusOf();
  const { CorpusError } = await load('scenarios/errors.ts');
  if (req.op === 'fixtures') {
    if (corpus.errors.length) throw new CorpusError(corpus.errors);
    const { applyPlan, planFixtures } = await load('fixture-format/store.ts');
    const fixtures = join(config.root, config.fixturesDir);
    applyPlan(fixtures, planFixtures(fixtures, corpus.scenarios));
    return '';
  }
  if (req.op === 'report') {
    if (corpus.errors.length) throw new CorpusError(corpus.errors);
    const { buildReport } = await load('economics/report.ts');
    return JSON.stringify(buildReport(corpus));
  }
  const [{ blockingErrors }, { buildReview }, { prSummary }] = await Promise.all([load('review/expectations.ts'), load('review/review-data.ts'), load('review/summary.ts')]);
  const blocking = blockingErrors(corpus, true);
  if (blocking.length) throw new CorpusError(blocking);
  return prSummary(buildReview(config, corpus, req.base), req.site);
}

// The test's process ended (or closed the channel): so does this one.
process.on('disconnect', () => process.exit(0));
process.on('message', (req: Request) => {
  serve(req).then(
    (result) => process.send!({ id: req.id, result }),
    (err: Error) => process.send!({ id: req.id, error: err?.message ?? String(err) }),
  );
});
