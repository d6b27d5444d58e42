/**
 * The rendered corpus as the site's pages see it: the integration's options (from its virtual
 * module) resolved once, the corpus loaded, rendered with every event's pane and turned into page
 * models — plus the two before/after reviews: against the fixtures at a base git ref
 * (EXPLAINER_BASE) and between a scenario and its `compare:` variant. Memoised by the scenario
 * files' contents, so `astro dev` re-renders after an edit and a build renders each scenario once.
 * Throws a CorpusError (the dev overlay shows it) on bad input.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error — provided by the explainer integration's vite plugin
import { options, root } from 'virtual:prompt-fold-explainer/config';
import { assertClean, renderCorpus, type RenderedCorpus } from '../prompt/corpus.ts';
import { diffLines, type RequestDiff } from '../prompt/diff.ts';
import { renderScenario } from '../prompt/render.ts';
import { scenarioView, type ScenarioView } from '../prompt/view.ts';
import { readBaseFixtures } from '../fixtures/base.ts';
import { compareWithBase, type ChangeSet, type RequestChange } from '../fixtures/compare.ts';
import { CorpusError, type InputError } from '../scenarios/errors.ts';
import { listScenarioFiles } from '../scenarios/load.ts';
import { resolveOptions, type ExplainerConfig, type ExplainerOptions } from './options.ts';

/** A before/after of one request, whichever review it comes from. */
export interface Review {
  beforeLabel: string;
  afterLabel: string;
  status: RequestChange['status'];
  before: string[];
  /** ✂ line index on the before side, when known. */
  beforeCut: number | null;
  diff: RequestDiff;
  dropped: { find: string; comment: string }[];
}

export interface SiteCorpus {
  config: ExplainerConfig;
  corpus: RenderedCorpus;
  views: ScenarioView[];
  byId: Map<string, ScenarioView>;
  /** Against EXPLAINER_BASE; null when no base is set. */
  changes: ChangeSet | null;
  /** Reviews per scenario id, then per request offset. */
  reviews: Map<string, Map<number, Review>>;
}

let config: Promise<ExplainerConfig> | undefined;
let memo: { digest: string; site: SiteCorpus } | undefined;

export function siteConfig(): Promise<ExplainerConfig> {
  return (config ??= resolveOptions(root as string, options as ExplainerOptions));
}

/** The base ref to compare with, from the environment (set by CI for pull requests). */
export const baseRef = (): string | undefined => process.env.EXPLAINER_BASE || undefined;

function digestOf(c: ExplainerConfig): string {
  const h = createHash('sha256');
  h.update(baseRef() ?? '');
  for (const f of listScenarioFiles(c)) h.update(f).update('\0').update(readFileSync(join(c.root, f))).update('\0');
  return h.digest('hex');
}

function compareReviews(c: ExplainerConfig, corpus: RenderedCorpus): Map<string, Map<number, Review>> {
  const out = new Map<string, Map<number, Review>>();
  const errors: InputError[] = [];
  for (const r of corpus.scenarios) {
    const cmp = r.scenario.compare;
    if (!cmp) continue;
    const variant = renderScenario(r.scenario, r.fold, { everyEvent: false, variant: { fold: c.folds.get(cmp.fold)!, options: cmp.options } }, errors);
    const byOffset = new Map(variant.requests.map((q) => [q.offset, q]));
    const reviews = new Map<number, Review>();
    for (const q of r.requests) {
      const v = byOffset.get(q.offset);
      const before = v?.lines.map((l) => l.text) ?? [];
      const after = q.lines.map((l) => l.text);
      const diff = diffLines(before, after);
      reviews.set(q.offset, {
        beforeLabel: cmp.label, afterLabel: 'this scenario’s render', status: !v ? 'added' : diff.added || diff.removed ? 'changed' : 'unchanged',
        before, beforeCut: v?.cut ?? null, diff, dropped: [],
      });
    }
    out.set(r.scenario.id, reviews);
  }
  if (errors.length) throw new CorpusError(errors);
  return out;
}

export async function siteCorpus(): Promise<SiteCorpus> {
  const c = await siteConfig();
  const digest = digestOf(c);
  if (memo?.digest === digest) return memo.site;
  const corpus = assertClean(renderCorpus(c, { everyEvent: true }));
  const views = corpus.scenarios.map(scenarioView);
  const reviews = compareReviews(c, corpus);
  let changes: ChangeSet | null = null;
  const ref = baseRef();
  if (ref) {
    const { commit, fixtures } = readBaseFixtures(c.root, ref, c.fixturesDir, c.scenariosDir);
    changes = compareWithBase(ref, commit, corpus.scenarios, fixtures);
    for (const s of changes.scenarios) {
      for (const q of s.requests) {
        if (q.status === 'unchanged' || q.status === 'removed' || !q.diff) continue;
        const per = reviews.get(s.id) ?? new Map<number, Review>();
        // A base-ref change takes the request's review slot: it is what a pull request is about.
        per.set(q.offset, { beforeLabel: `fixtures at ${ref}`, afterLabel: 'this change', status: q.status, before: q.before ?? [], beforeCut: q.beforeCut ?? null, diff: q.diff, dropped: q.droppedAnnotations });
        reviews.set(s.id, per);
      }
    }
  }
  const site = { config: c, corpus, views, byId: new Map(views.map((v) => [v.id, v])), changes, reviews };
  memo = { digest, site };
  return site;
}
