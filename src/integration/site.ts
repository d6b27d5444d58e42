/**
 * The rendered corpus as the site's pages see it: the integration's options (from its virtual
 * module) resolved once, the corpus loaded, rendered with every event's pane and turned into page
 * models. Memoised by the scenario files' contents, so `astro dev` re-renders after an edit and a
 * build renders each scenario once. Throws a CorpusError (the dev overlay shows it) on bad input.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error — provided by the explainer integration's vite plugin
import { options, root } from 'virtual:prompt-fold-explainer/config';
import { assertClean, renderCorpus, type RenderedCorpus } from '../prompt/corpus.ts';
import { scenarioView, type ScenarioView } from '../prompt/view.ts';
import { listScenarioFiles } from '../scenarios/load.ts';
import { resolveOptions, type ExplainerConfig, type ExplainerOptions } from './options.ts';

export interface SiteCorpus {
  config: ExplainerConfig;
  corpus: RenderedCorpus;
  views: ScenarioView[];
  byId: Map<string, ScenarioView>;
}

let config: Promise<ExplainerConfig> | undefined;
let memo: { digest: string; site: SiteCorpus } | undefined;

export function siteConfig(): Promise<ExplainerConfig> {
  return (config ??= resolveOptions(root as string, options as ExplainerOptions));
}

function digestOf(c: ExplainerConfig): string {
  const h = createHash('sha256');
  for (const f of listScenarioFiles(c)) h.update(f).update('\0').update(readFileSync(join(c.root, f))).update('\0');
  return h.digest('hex');
}

export async function siteCorpus(): Promise<SiteCorpus> {
  const c = await siteConfig();
  const digest = digestOf(c);
  if (memo?.digest === digest) return memo.site;
  const corpus = assertClean(renderCorpus(c, { everyEvent: true }));
  const views = corpus.scenarios.map(scenarioView);
  const site = { config: c, corpus, views, byId: new Map(views.map((v) => [v.id, v])) };
  memo = { digest, site };
  return site;
}
