/**
 * The rendered corpus as the site's pages see it: the integration's options (from its virtual
 * module) resolved once, the corpus loaded, rendered with every event's pane, a listing summary
 * per scenario, and page models made when a page asks for one — plus the two before/after reviews:
 * against the fixtures at a base git ref (EXPLAINER_BASE) and between a scenario and its
 * `compare:` variant. Bad input throws an error shaped for Astro's dev overlay (see overlayError).
 *
 * Costs, so a build stays linear in the corpus (see `npm run bench`):
 * - Memoised by the scenario files' contents, so `astro dev` re-renders after an edit. In a build
 *   the files cannot change, so their digest is taken once, not once per page (that re-read and
 *   re-hashed the whole corpus for every page: quadratic).
 * - The memo is shared by every copy of this module in the process: a build loads one copy for the
 *   content loader (Vite's module runner) and another in the prerendered pages' chunk; without
 *   sharing each rendered the whole corpus.
 * - A page model holds every pane of its scenario (the bulk of a build's memory): it is made for
 *   the page that renders it and only the last few are kept, never the whole corpus at once.
 */
import { join } from 'node:path';
// @ts-expect-error — provided by the explainer integration's vite plugin
import { command, options, root } from 'virtual:prompt-fold-explainer/config';
import type { RenderedCorpus } from '../prompt/corpus.ts';
import { corpusDigest, sharedRender } from './shared-render.ts';
import { diffLines, type RequestDiff } from '../prompt/diff.ts';
import { renderScenario, type RenderedScenario } from '../prompt/render.ts';
import { cachedShare, scenarioView, type ScenarioView } from '../prompt/view.ts';
import { readBaseFixtures } from '../fixtures/base.ts';
import { compareWithBase, type ChangeSet, type RequestChange } from '../fixtures/compare.ts';
import { CorpusError, formatError, type InputError } from '../scenarios/errors.ts';
import { resolveOptions, type ExplainerConfig, type ExplainerOptions } from './options.ts';
import { scenarioEconomics } from '../economics/compute.ts';
import { deltasAgainstBase, scenarioDelta, type ScenarioDelta } from '../economics/delta.ts';

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
  /** Token and cost delta of this request, before → after (economics/delta.ts). */
  tokens?: string;
}

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
  /** Against EXPLAINER_BASE; null when no base is set. */
  changes: ChangeSet | null;
  /** Reviews per scenario id, then per request offset. */
  reviews: Map<string, Map<number, Review>>;
  /** Token and cost deltas per scenario id: against the base ref, else against its `compare:` variant. */
  tokenDeltas: Map<string, ScenarioDelta>;
}

let config: Promise<ExplainerConfig> | undefined;

/** The memo, shared by every copy of this module in the process (keyed by project root). */
const MEMO = Symbol.for('prompt-fold-explainer/site-corpus');
type Memo = Map<string, { digest: string; site: SiteCorpus }>;
const memos = ((globalThis as Record<symbol, unknown>)[MEMO] ??= new Map()) as Memo;

export function siteConfig(): Promise<ExplainerConfig> {
  return (config ??= resolveOptions(root as string, options as ExplainerOptions));
}

/** The base ref to compare with, from the environment (set by CI for pull requests). */
export const baseRef = (): string | undefined => process.env.EXPLAINER_BASE || undefined;

function compareReviews(c: ExplainerConfig, corpus: RenderedCorpus, deltas: Map<string, ScenarioDelta>): Map<string, Map<number, Review>> {
  const out = new Map<string, Map<number, Review>>();
  const errors: InputError[] = [];
  for (const r of corpus.scenarios) {
    const cmp = r.scenario.compare;
    if (!cmp) continue;
    const variant = renderScenario(r.scenario, r.fold, { everyEvent: false, variant: { fold: c.folds.get(cmp.fold)!, options: cmp.options } }, errors);
    const byOffset = new Map(variant.requests.map((q) => [q.offset, q]));
    const reviews = new Map<number, Review>();
    const own = corpus.economics.get(r.scenario.id);
    const delta = own && scenarioDelta(scenarioEconomics(variant, c.economics), own);
    if (delta) deltas.set(r.scenario.id, delta);
    for (const q of r.requests) {
      const v = byOffset.get(q.offset);
      const before = v?.lines.map((l) => l.text) ?? [];
      const after = q.lines.map((l) => l.text);
      const diff = diffLines(before, after);
      reviews.set(q.offset, {
        beforeLabel: cmp.label, afterLabel: 'this scenario’s render', status: !v ? 'added' : diff.added || diff.removed ? 'changed' : 'unchanged',
        before, beforeCut: v?.cut ?? null, diff, dropped: [],
        ...(delta && { tokens: delta.requests.find((d) => d.offset === q.offset)?.text }),
      });
    }
    out.set(r.scenario.id, reviews);
  }
  if (errors.length) throw new CorpusError(errors);
  return out;
}

/**
 * The corpus's errors as Astro's dev overlay shows them best: the first error's file:line:column
 * as the location (the overlay shows that line of the scenario file), its message as the title,
 * and the closest lines, the fix and every further error as the hint.
 */
function overlayError(root: string, e: CorpusError): Error {
  const [first, ...rest] = e.errors;
  const err = new Error(`${first!.pos.file}:${first!.pos.line}:${first!.pos.col} ${first!.message}`);
  err.name = 'ScenarioError';
  const hint = [...(first!.detail ?? []), `fix: ${first!.fix}`];
  if (rest.length) hint.push('', `…and ${rest.length} more:`, ...rest.map(formatError));
  err.stack = err.message; // where our code noticed the error says nothing about the scenario
  // Astro's hint heuristics scan toString() for words like "window" (a scenario file name may
  // contain one) and would replace our hint with an unrelated one.
  err.toString = () => 'ScenarioError: the scenario corpus has errors';
  return Object.assign(err, { loc: { file: join(root, first!.pos.file), line: first!.pos.line, column: first!.pos.col }, hint: hint.join('\n') });
}

/** How many page models to keep: a reference page embeds views of a few scenarios. */
const KEEP_VIEWS = 8;

/** Page models by id, made from the rendered scenarios on demand; the last few are kept. */
export class PageModels {
  private readonly rendered: Map<string, RenderedScenario>;
  private readonly kept = new Map<string, ScenarioView>();

  constructor(corpus: RenderedCorpus) {
    this.rendered = new Map(corpus.scenarios.map((r) => [r.scenario.id, r]));
  }

  /** Scenario ids, in the site's order. */
  keys(): IterableIterator<string> {
    return this.rendered.keys();
  }

  get(id: string): ScenarioView | undefined {
    let view = this.kept.get(id);
    if (view) this.kept.delete(id); // re-inserted below: most recently used last
    else {
      const r = this.rendered.get(id);
      if (!r) return undefined;
      view = scenarioView(r);
    }
    this.kept.set(id, view);
    if (this.kept.size > KEEP_VIEWS) this.kept.delete(this.kept.keys().next().value!);
    return view;
  }
}

function summaryOf(r: RenderedScenario, corpus: RenderedCorpus): ScenarioSummary {
  const s = r.scenario;
  const t = corpus.economics.get(s.id)?.totals;
  return {
    id: s.id, title: s.title, fold: r.fold.id, file: s.file, ...(s.base !== undefined && { base: s.base }),
    events: s.events.length, requests: r.requests.length, cachedShare: cachedShare(r),
    inputTokens: t?.inputTokens ?? 0, cachedTokenShare: t?.cachedShare ?? null, exactTokens: t?.exact ?? true,
  };
}

export async function siteCorpus(): Promise<SiteCorpus> {
  const c = await siteConfig();
  const memo = memos.get(c.root);
  // A build's files do not change while it runs: one digest per build, not one per page.
  if (memo && command === 'build') return memo.site;
  const files = corpusDigest(c);
  const digest = `${files}:${baseRef() ?? ''}`;
  if (memo?.digest === digest) return memo.site;
  const rendered = sharedRender(c, files);
  if (rendered.errors.length) throw overlayError(c.root, new CorpusError(rendered.errors));
  const corpus = rendered;
  const tokenDeltas = new Map<string, ScenarioDelta>();
  const reviews = compareReviews(c, corpus, tokenDeltas);
  let changes: ChangeSet | null = null;
  const ref = baseRef();
  if (ref) {
    const { commit, fixtures } = readBaseFixtures(c.root, ref, c.fixturesDir, c.scenariosDir);
    changes = compareWithBase(ref, commit, corpus.scenarios, fixtures);
    // A base ref is what a pull request is about: its deltas replace the compare: variants'.
    for (const [id, d] of deltasAgainstBase(corpus.scenarios, corpus.economics, fixtures, c.economics)) tokenDeltas.set(id, d);
    for (const s of changes.scenarios) {
      for (const q of s.requests) {
        if (q.status === 'unchanged' || q.status === 'removed' || !q.diff) continue;
        const per = reviews.get(s.id) ?? new Map<number, Review>();
        // A base-ref change takes the request's review slot: it is what a pull request is about.
        const tokens = tokenDeltas.get(s.id)?.requests.find((d) => d.offset === q.offset)?.text;
        per.set(q.offset, { beforeLabel: `fixtures at ${ref}`, afterLabel: 'this change', status: q.status, before: q.before ?? [], beforeCut: q.beforeCut ?? null, diff: q.diff, dropped: q.droppedAnnotations, ...(tokens && { tokens }) });
        reviews.set(s.id, per);
      }
    }
  }
  const site: SiteCorpus = { config: c, corpus, summaries: corpus.scenarios.map((r) => summaryOf(r, corpus)), byId: new PageModels(corpus), changes, reviews, tokenDeltas };
  memos.set(c.root, { digest, site });
  return site;
}
