/**
 * The before/after reviews the site shows on a request's pane, from either source: a scenario's
 * `compare:` variant (the same events under another fold or option set) and the fixtures
 * committed at a base git ref (a pull request's merge-base). A base-ref change takes the request's
 * review slot: it is what a pull request is about. Each review carries the request's token and
 * cost delta (delta.ts), and each scenario its delta as a whole: against a base ref, the base
 * commit's own figures (base-report.ts: its own `npm run report`) against the head's — never the
 * base's printed fixtures re-priced with the head's code. With a base ref, every scenario's delta
 * is against the base (a scenario the change adds has none before, whatever its `compare:` says).
 */
import type { RenderedCorpus } from '../corpus/check.ts';
import { diffLines, type RequestDiff } from '../prompt/diff.ts';
import { renderScenario } from '../prompt/render.ts';
import { CorpusError, type InputError } from '../scenarios/errors.ts';
import type { CorpusConfig } from '../scenarios/load.ts';
import { scenarioEconomics } from '../economics/compute.ts';
import type { EconomicsConfig } from '../economics/profiles.ts';
import { reviewDelta, sideOf, type ScenarioDelta } from './delta.ts';
import type { ChangeSet, RequestChange } from './compare.ts';
import { refLabel } from './ref-label.ts';
import { changesAgainstBase } from './why.ts';
import { reviewDeltas, reviewOf, type ReviewData } from './review-data.ts';

/** A before/after of one request, whichever review it comes from. */
export interface Review {
  beforeLabel: string;
  afterLabel: string;
  status: RequestChange['status'];
  before: string[];
  /** Provenance of each before line, when the before side is a render (a `compare:` variant). */
  beforeFrom?: number[][];
  /** ✂ line index on the before side, when known. */
  beforeCut: number | null;
  diff: RequestDiff;
  dropped: { find: string; comment: string }[];
  /** Token and cost delta of this request, before → after (delta.ts). */
  tokens?: string;
}

export interface Reviews {
  /** Against the base ref; null when none is set. */
  changes: ChangeSet | null;
  /** Reviews per scenario id, then per request offset. */
  byScenario: Map<string, Map<number, Review>>;
  /** Token and cost deltas per scenario id: against the base ref, else against its `compare:` variant. */
  tokenDeltas: Map<string, ScenarioDelta>;
  /** The whole review against the base ref (verdict, root causes, broken expectations); null without one. */
  review: ReviewData | null;
}

/** What the reviews need of the project's config. */
export interface ReviewConfig extends Pick<CorpusConfig, 'root' | 'folds' | 'scenariosDir' | 'defaultFold'> {
  fixturesDir: string;
  baseRef?: string;
  economics: EconomicsConfig;
}

/** Each scenario with `compare:` rendered under its variant, request by request. */
async function compareReviews(c: ReviewConfig, corpus: RenderedCorpus, deltas: Map<string, ScenarioDelta>): Promise<Map<string, Map<number, Review>>> {
  const out = new Map<string, Map<number, Review>>();
  const errors: InputError[] = [];
  const byId = new Map(corpus.scenarios.filter((r) => !r.foldFailed).map((r) => [r.scenario.id, r]));
  for (const r of corpus.scenarios) {
    const cmp = r.scenario.compare;
    if (!cmp) continue;
    const variant = await renderScenario(r.scenario, r.fold, { everyEvent: false, variant: { fold: c.folds.get(cmp.fold)!, options: cmp.options } }, errors);
    const byOffset = new Map(variant.requests.map((q) => [q.offset, q]));
    const reviews = new Map<number, Review>();
    const own = corpus.economics.get(r.scenario.id);
    const delta = own && reviewDelta(r.scenario.id, sideOf(scenarioEconomics(variant, c.economics, { corpus: byId }).requests), sideOf(own.requests));
    if (delta) deltas.set(r.scenario.id, delta);
    for (const q of r.requests) {
      const v = byOffset.get(q.offset);
      const before = v?.lines.map((l) => l.text) ?? [];
      const diff = diffLines(
        before,
        q.lines.map((l) => l.text),
      );
      reviews.set(q.offset, {
        beforeLabel: cmp.label,
        afterLabel: 'this scenario’s render',
        status: !v ? 'added' : diff.added || diff.removed ? 'changed' : 'unchanged',
        before,
        ...(v && { beforeFrom: v.lines.map((l) => l.from) }),
        beforeCut: v?.cut ?? null,
        diff,
        dropped: [],
        ...(delta && { tokens: delta.requests.find((d) => d.offset === q.offset)?.text }),
      });
    }
    out.set(r.scenario.id, reviews);
  }
  if (errors.length) throw new CorpusError(errors);
  return out;
}

/** Every review of a rendered corpus: `compare:` variants, then the base ref's changes over them. */
export async function assembleReviews(c: ReviewConfig, corpus: RenderedCorpus): Promise<Reviews> {
  const tokenDeltas = new Map<string, ScenarioDelta>();
  const byScenario = await compareReviews(c, corpus, tokenDeltas);
  if (!c.baseRef) return { changes: null, byScenario, tokenDeltas, review: null };
  const { commit, changes, fixtures } = changesAgainstBase(c, c.baseRef, corpus.scenarios);
  const review = reviewOf(c.root, changes, fixtures, corpus);
  // A base ref is what a pull request is about: its deltas replace the compare: variants'.
  tokenDeltas.clear();
  for (const [id, d] of reviewDeltas(review)) tokenDeltas.set(id, d);
  for (const s of changes.scenarios) {
    for (const q of s.requests) {
      if (q.status === 'unchanged' || q.status === 'removed' || !q.diff) continue;
      const per = byScenario.get(s.id) ?? new Map<number, Review>();
      const tokens = tokenDeltas.get(s.id)?.requests.find((d) => d.offset === q.offset)?.text;
      per.set(q.offset, {
        // A scenario the change adds has no before: say so rather than show a variant as one.
        beforeLabel: `fixtures at ${refLabel(c.baseRef, commit)}${s.status === 'added' ? ', which do not have this scenario' : ''}`,
        afterLabel: 'this change',
        status: q.status,
        before: q.before ?? [],
        beforeCut: q.beforeCut ?? null,
        diff: q.diff,
        dropped: q.droppedAnnotations,
        ...(tokens && { tokens }),
      });
      byScenario.set(s.id, per);
    }
  }
  return { changes, byScenario, tokenDeltas, review };
}
