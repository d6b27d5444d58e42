/**
 * The rendered corpus as the site's pages see it: the integration's options (from its virtual
 * module) resolved once, the corpus loaded, rendered with every event's pane, a listing summary
 * per scenario, page models made when a page asks for one, and the before/after reviews
 * (src/review/reviews.ts). Bad input throws Astro's own error type, shaped for the dev overlay (astro-error.ts).
 *
 * Costs, so a build stays linear in the corpus (see `npm run bench`):
 * - Memoised by the scenario files' contents, so `astro dev` re-renders after an edit. In a build
 *   the files cannot change, so they are read and digested once, not once per page (that re-read and
 *   re-hashed the whole corpus for every page: quadratic).
 * - One cache: the render is shared by every copy of this module in the process (shared-render.ts;
 *   the integration's copy checks the corpus before a build (and re-renders it in `astro dev`), the prerendered pages' chunk is another),
 *   and what the site derives from it hangs off that render, not a second cache.
 * - A page model holds every pane of its scenario (the bulk of a build's memory): it is made for
 *   the page that renders it and only the last few are kept, never the whole corpus at once.
 */
import { LRUCache } from 'lru-cache';
// @ts-expect-error — provided by the explainer integration's vite plugin
import { command, options, root } from 'virtual:prompt-fold-explainer/config';
import { uncachedWhy } from '../economics/view.ts';
import { billedOf, withBilledMisses } from '../economics/billed.ts';
import type { RenderedCorpus } from '../corpus/check.ts';
import { readSnapshot, sharedRender, type ScenarioSnapshot } from './shared-render.ts';
import type { RenderedScenario } from '../prompt/render.ts';
import { cachedShare, scenarioView, type ScenarioView } from '../prompt/view.ts';
import type { ChangeSet } from '../review/compare.ts';
import { assembleReviews, type Review } from '../review/reviews.ts';
import type { ScenarioDelta } from '../review/delta.ts';
import { blockingErrors } from '../review/expectations.ts';
import type { ReviewData } from '../review/review-data.ts';

export type { Review } from '../review/reviews.ts';
import { CorpusError } from '../scenarios/errors.ts';
import { corpusAstroError } from './astro-error.ts';
import { resolveOptions, type ExplainerConfig, type ExplainerOptions } from './options.ts';
import { sharedState } from './shared-state.ts';

/** What a listing needs of a scenario, without its page model. */
export interface ScenarioSummary {
  id: string;
  title: string;
  fold: string;
  file: string;
  base?: string;
  /** The scenario's own events. */
  events: number;
  /** Own accepted requests. */
  requests: number;
  /** Mean share of each own request (after the first of the chain) that was a cached prefix. */
  cachedShare: number | null;
  /** Input tokens of the own requests, and the share of them the provider would bill as cached. */
  inputTokens: number;
  cachedTokenShare: number | null;
  /** Why nothing is cached when the share is 0 % (`below the 1,024-token minimum`, …); null otherwise. */
  uncachedWhy: string | null;
  /** What the provider's usage reports, when every own request carries it (an imported capture): the index leads with it. */
  billed: { inputTokens: number; cachedTokenShare: number | null } | null;
  /** The token counts are exact (not ≈). */
  exactTokens: boolean;
}

export interface SiteCorpus {
  config: ExplainerConfig;
  corpus: RenderedCorpus;
  /** One per scenario, in the site's order. */
  summaries: ScenarioSummary[];
  /** Page models by scenario id, made on first `get` (a few are kept; see the header). */
  byId: PageModels;
  /** Against the base ref (`baseRef` option or EXPLAINER_BASE); null when none is set. */
  changes: ChangeSet | null;
  /** Reviews per scenario id, then per request offset. */
  reviews: Map<string, Map<number, Review>>;
  /** Token and cost deltas per scenario id: against the base ref, else against its `compare:` variant. */
  tokenDeltas: Map<string, ScenarioDelta>;
  /** The review against the base ref (its verdict leads /changes/); null without one. */
  review: ReviewData | null;
}

let config: Promise<ExplainerConfig> | undefined;
let buildSnapshot: ScenarioSnapshot | undefined;

/** The site made from a render, shared by every copy of this module in the process. */
const sites = sharedState('site-corpus', () => new WeakMap<RenderedCorpus, SiteCorpus>());

export function siteConfig(): Promise<ExplainerConfig> {
  return (config ??= resolveOptions(root as string, options as ExplainerOptions));
}

/** How many page models to keep: a reference page embeds views of a few scenarios. */
const KEEP_VIEWS = 8;

/** Page models by id, made from the rendered scenarios on demand; the last few are kept (LRU). */
export class PageModels {
  private readonly rendered: Map<string, RenderedScenario>;
  private readonly kept = new LRUCache<string, ScenarioView>({ max: KEEP_VIEWS });

  private readonly corpus: RenderedCorpus;

  constructor(corpus: RenderedCorpus) {
    this.corpus = corpus;
    this.rendered = new Map(corpus.scenarios.map((r) => [r.scenario.id, r]));
  }

  /** Scenario ids, in the site's order. */
  keys(): IterableIterator<string> {
    return this.rendered.keys();
  }

  get(id: string): ScenarioView | undefined {
    const kept = this.kept.get(id);
    if (kept) return kept;
    const r = this.rendered.get(id);
    if (!r) return undefined;
    // A capture with a bill: its misses marked on the timeline, the page opening on the largest (economics/billed.ts).
    const econ = this.corpus.economics.get(id);
    const view = withBilledMisses(scenarioView(r), econ ? billedOf(r, econ) : null, r.scenario.opens !== undefined);
    this.kept.set(id, view);
    return view;
  }
}

function summaryOf(r: RenderedScenario, corpus: RenderedCorpus): ScenarioSummary {
  const s = r.scenario;
  const econ = corpus.economics.get(s.id);
  const t = econ?.totals;
  const b = econ ? billedOf(r, econ) : null;
  const whole = b !== null && b.requests.length === b.ownRequests;
  return {
    id: s.id,
    title: s.title,
    fold: r.fold.id,
    file: s.file,
    ...(s.base !== undefined && { base: s.base }),
    events: s.events.length,
    requests: r.requests.length,
    cachedShare: cachedShare(r),
    inputTokens: t?.inputTokens ?? 0,
    cachedTokenShare: t?.cachedShare ?? null,
    uncachedWhy: uncachedWhy(econ),
    billed: whole ? { inputTokens: b.inputTokens, cachedTokenShare: b.cachedTokens === null || b.inputTokens === 0 ? null : b.cachedTokens / b.inputTokens } : null,
    exactTokens: t?.exact ?? true,
  };
}

/** The site from the scenario files as they are now, or as read in `snapshot` (the dev loader's, which remembers what it showed). */
export async function siteCorpus(given?: ScenarioSnapshot): Promise<SiteCorpus> {
  const c = await siteConfig();
  // A build's files do not change while it runs: read once per build, not once per page.
  const snapshot = given ?? (command === 'build' ? (buildSnapshot ??= readSnapshot(c)) : readSnapshot(c));
  const rendered = await sharedRender(c, snapshot);
  // A review build (a pull-request preview) shows broken cache expectations instead of failing on them.
  const blocking = blockingErrors(rendered);
  if (blocking.length) throw corpusAstroError(c.root, new CorpusError(blocking));
  // Derived from the one cached render, so it lives exactly as long as that cache entry.
  let site = sites.get(rendered);
  if (!site) {
    const { changes, byScenario, tokenDeltas, review } = await assembleReviews(c, rendered);
    site = {
      config: c,
      corpus: rendered,
      summaries: rendered.scenarios.map((r) => summaryOf(r, rendered)),
      byId: new PageModels(rendered),
      changes,
      reviews: byScenario,
      tokenDeltas,
      review,
    };
    sites.set(rendered, site);
  }
  return site;
}
