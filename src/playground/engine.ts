/**
 * The playground's pipeline, as a pure function of texts: load and validate the edited scenario
 * with its base chain (the same loader, folds, printer, weave and page model as the build, so the
 * errors read exactly as `npm run check` prints them), then fold and build the pane of ONE event —
 * the selected one, diffed against the event before it. Folding every event and diffing every
 * pane, as a scenario page's build does, costs seconds for a long scenario; the playground needs
 * one pane per keystroke. (So cards' badges that the page model derives from other events' panes,
 * like `supersedes`, are missing here; the playground shows previews only.)
 * Runs in a Web Worker (worker.ts); no DOM, no node:.
 */
import type { AnyFold, Snapshot } from '../folds/types.ts';
import { printRequest } from '../prompt/print.ts';
import { phaseAt, renderScenario, type EventView, type Phase, type RenderedScenario } from '../prompt/render.ts';
import { scenarioView, type Card, type Pane } from '../prompt/view.ts';
import { formatError, sortErrors, type InputError } from '../scenarios/errors.ts';
import { loadTexts } from '../scenarios/load.ts';
import type { Scenario } from '../scenarios/model.ts';
import { abridgementsOf, snapshotsOf } from '../folds/hooks.ts';

export interface CorpusFile {
  file: string;
  id: string;
  text: string;
}

export interface EngineInput {
  /** The edited text and the file name it is checked as (errors name it). */
  file: string;
  text: string;
  /** The project's scenarios (bases are found here by id). The edited file replaces its namesake. */
  corpus: readonly CorpusFile[];
  folds: ReadonlyMap<string, AnyFold>;
  defaultFold: string;
  timeZero: string;
  /** The event to show; the default is the first own request (as on a scenario page). */
  selected?: number;
}

export interface PlaygroundError {
  file: string;
  line: number;
  col: number;
  message: string;
  fix: string;
  detail: string[];
  /** Exactly as the CLI prints it. */
  formatted: string;
}

export interface EngineResult {
  errors: PlaygroundError[];
  warnings: { file: string; line: number; col: number; message: string }[];
  /** Set when the edited scenario loaded and rendered. */
  view?: {
    id: string;
    title: string;
    fold: string;
    foldTitle: string;
    options: Record<string, unknown>;
    base?: string;
    cards: Card[];
    selected: number;
    pane: Pane;
  };
  timings: { load: number; fold: number };
}

const BASE_LINE = /^base:[ \t]*["']?([^"'\s#]+)/m;
/** `sharesCache:`'s scenario id, in block (`sharesCache:` then an indented `scenario: id`) or flow (`{scenario: id, …}`) style. */
const SHARES_LINE = /^sharesCache:[ \t]*(?:\{[^}\n]*?\bscenario:[ \t]*["']?([^"',}\s#]+)|(?:#.*)?\n(?:[ \t]+.*\n)*?[ \t]+scenario:[ \t]*["']?([^"'\s#]+))/m;

/** The scenario ids a file's text links to: its `base:` and its `sharesCache.scenario`. */
function linksOf(text: string): { base?: string; shared?: string } {
  const base = BASE_LINE.exec(text)?.[1];
  const shares = SHARES_LINE.exec(text);
  const shared = shares?.[1] ?? shares?.[2];
  return { ...(base !== undefined && { base }), ...(shared !== undefined && { shared }) };
}

/**
 * The edited file plus the corpus files its links need — its base chain, and every scenario a
 * `sharesCache:` link connects it to, either way (their economics are simulated together, and the
 * bases of those) — or all of them if a link names no corpus file (so the loader's did-you-mean
 * lists every id).
 */
function filesFor(input: EngineInput): { file: string; text: string }[] {
  const others = input.corpus.filter((c) => c.file !== input.file);
  const byId = new Map(others.map((c) => [c.id, c]));
  const out = [{ file: input.file, text: input.text }];
  const own = /^id:[ \t]*["']?([^"'\s#]+)/m.exec(input.text)?.[1];
  const seen = new Set<string>(own !== undefined ? [own] : []);
  const queue = Object.values(linksOf(input.text));
  // Scenarios that name one already included in their `sharesCache:` (the children of a parent).
  const children = (id: string): string[] => others.filter((c) => linksOf(c.text).shared === id).map((c) => c.id);
  if (own !== undefined) queue.push(...children(own));
  while (queue.length) {
    const id = queue.shift()!;
    if (seen.has(id)) continue; // a cycle: the loader reports it
    seen.add(id);
    const linked = byId.get(id);
    if (!linked) return [...others.map(({ file, text }) => ({ file, text })), out[0]!];
    out.unshift({ file: linked.file, text: linked.text });
    queue.push(...Object.values(linksOf(linked.text)), ...children(id));
  }
  return out;
}

/** A scenario error as the page shows it (the worker sends its own load errors the same way). */
export const toError = (e: InputError): PlaygroundError => ({
  file: e.pos.file,
  line: e.pos.line,
  col: e.pos.col,
  message: e.message,
  fix: e.fix,
  detail: e.detail ?? [],
  formatted: formatError(e),
});

const now = (): number => (typeof performance === 'undefined' ? Date.now() : performance.now());

/** Loads the scenario (texts → validated Scenario); separate so a caller can cache it by text. */
export async function load(input: EngineInput): Promise<{ scenario?: Scenario; linked: Scenario[]; errors: InputError[] }> {
  const { scenarios, errors } = await loadTexts(filesFor(input), { folds: input.folds, defaultFold: input.defaultFold, timeZero: input.timeZero });
  const scenario = scenarios.find((s) => s.file === input.file);
  // The scenarios it shares a provider cache with (`sharesCache:`, either way), for the economics.
  const linked = scenarios.some((s) => s.sharesCache) ? scenarios.filter((s) => s !== scenario) : [];
  return { ...(scenario && { scenario }), linked, errors: [...errors] };
}

/** A loaded scenario with its requests folded (the part every selected event shares). */
export interface Prepared {
  rendered: RenderedScenario;
  /** The scenarios it shares a provider cache with, rendered, by id (itself included; absent: none). */
  corpus?: ReadonlyMap<string, RenderedScenario>;
  /** The request events' views (cuts, anchors), by offset. */
  requests: Map<number, EventView>;
  cards: Card[];
  info: Omit<NonNullable<EngineResult['view']>, 'cards' | 'selected' | 'pane'>;
  warnings: EngineResult['warnings'];
}

/**
 * Folds every request of the scenario once — cuts compare with the previous request, anchors and
 * rejected requests are errors — and makes its cards. Errors are added to `errors`.
 */
export async function prepare(scenario: Scenario, folds: ReadonlyMap<string, AnyFold>, errors: InputError[], linked: readonly Scenario[] = []): Promise<Prepared> {
  const fold = folds.get(scenario.fold)!;
  // A `deploy:` hands the chain to its fold from its offset on, exactly as the build renders it.
  const deployed = scenario.deploy ? folds.get(scenario.deploy.fold) : undefined;
  // The render folds only the requests (and, where a request did not extend the one before, the
  // events between, for the economics to name the event that broke the cache); the cards are
  // described for every event, as on the page.
  const rendered = await renderScenario(scenario, fold, { everyEvent: false, describe: true, ...(deployed && { deployed }) }, errors);
  const requests = new Map<number, EventView>(rendered.chain.map((q) => [q.offset, { offset: q.offset, request: q, lines: q.lines }]));
  const v = scenarioView({ ...rendered, events: [] });
  // The page model marks a request card accepted by its pane; here, by the request's own render.
  const cards = v.cards.map((c) => (c.request ? { ...c, request: requests.get(c.offset)?.request ? ('accepted' as const) : ('rejected' as const) } : c));
  // Linked scenarios render only their requests, for the shared cache (economics/shared-cache.ts).
  const corpus = linked.length ? new Map([[scenario.id, rendered]]) : undefined;
  for (const l of linked) {
    const dep = l.deploy ? folds.get(l.deploy.fold) : undefined;
    corpus!.set(l.id, await renderScenario(l, folds.get(l.fold)!, { everyEvent: false, ...(dep && { deployed: dep }) }, errors));
  }
  return {
    rendered,
    ...(corpus && { corpus }),
    requests,
    cards,
    info: { id: v.id, title: v.title, fold: v.fold, foldTitle: v.foldTitle, options: v.options, ...(v.base !== undefined && { base: v.base }) },
    warnings: rendered.warnings.map((w) => ({ file: w.pos.file, line: w.pos.line, col: w.pos.col, message: w.message })),
  };
}

/**
 * The pane of one event (the default: the first own request), diffed as the page diffs it: a request
 * against the previous request, any other event against the event before it.
 */
export async function paneAt(p: Prepared, selected?: number): Promise<NonNullable<EngineResult['view']>> {
  const { scenario, fold, options } = p.rendered;
  const chain = scenario.chain;
  const known = new Set(chain.map((e) => e.offset));
  const at = selected !== undefined && known.has(selected) ? selected : (scenario.events.find((e) => fold.requestTypes.includes(e.type)) ?? scenario.events[0] ?? chain[0])!.offset;
  const index = chain.findIndex((e) => e.offset === at);
  const previous = p.requests.get(at)?.request ? p.requests.get(at)!.request!.previous : index > 0 ? chain[index - 1]!.offset : null;
  const wanted = previous !== null ? [previous, at] : [at];
  // Other events print the messages as of them, exactly as renderScenario does for a page.
  // Each under the rule in force at it (a `deploy:`'s from its offset on).
  const phases = p.rendered.phases?.length ? p.rendered.phases : [{ fold, options, abridgements: await abridgementsOf(fold, options), from: -Infinity }];
  const phaseOf = (offset: number): Phase => phaseAt(phases, offset);
  const missing = wanted.filter((o) => !p.requests.get(o)?.request);
  const snaps = new Map<number, Snapshot>();
  for (const ph of phases) {
    const at = new Set(missing.filter((o) => phaseOf(o) === ph));
    if (at.size) for (const s of await snapshotsOf(ph.fold, chain, ph.options, at)) snaps.set(s.offset, s);
  }
  const events: EventView[] = wanted.map((o) => {
    const done = p.requests.get(o);
    if (done?.request) return done;
    const snap = snaps.get(o)!;
    return { offset: o, lines: printRequest(null, snap.messages, phaseOf(o).abridgements), ...(snap.rejected && { rejected: snap.rejected.reason }) };
  });
  // Panes only: the cards were made once, in prepare().
  const v = scenarioView({ ...p.rendered, scenario: { ...scenario, chain: [] }, events });
  return { ...p.info, cards: p.cards, selected: at, pane: v.panes.at(-1)! };
}

/** The whole pipeline. Never throws: an unexpected failure becomes an error at line 1. */
export async function run(input: EngineInput): Promise<EngineResult> {
  const t0 = now();
  try {
    const loaded = await load(input);
    const t1 = now();
    if (!loaded.scenario) return { errors: sortErrors(loaded.errors).map(toError), warnings: [], timings: { load: t1 - t0, fold: 0 } };
    const errors = [...loaded.errors];
    const prepared = await prepare(loaded.scenario, input.folds, errors, loaded.linked);
    const view = errors.length === 0 ? await paneAt(prepared, input.selected) : undefined;
    const t2 = now();
    return { errors: sortErrors(errors).map(toError), warnings: prepared.warnings, ...(view && { view }), timings: { load: t1 - t0, fold: t2 - t1 } };
  } catch (err) {
    return { errors: [unexpected(input.file, err)], warnings: [], timings: { load: now() - t0, fold: 0 } };
  }
}

/** An exception from the pipeline (e.g. the yaml package's alias limit) as an input error. */
export function unexpected(file: string, err: unknown): PlaygroundError {
  const what = err instanceof Error ? err.message : String(err);
  return toError({
    pos: { file, line: 1, col: 1 },
    message: /alias/i.test(what) ? `YAML aliases expand too far (${what})` : `the scenario could not be processed: ${what}`,
    fix: /alias/i.test(what) ? 'write each value out instead of using anchors (&) and aliases (*)' : 'simplify the input; if it looks valid, report it with this file',
  });
}
