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
import type { AnyFold, Snapshot, StreamEvent } from '../folds/types.ts';
import { renderScenario } from '../prompt/render.ts';
import { scenarioView, type Card, type Pane } from '../prompt/view.ts';
import { formatError, sortErrors, type InputError } from '../scenarios/errors.ts';
import { loadTexts } from '../scenarios/load.ts';
import type { Scenario } from '../scenarios/model.ts';

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

/** The edited file plus the corpus files its base chain needs (all of them if a base is unknown). */
function filesFor(input: EngineInput): { file: string; text: string }[] {
  const byId = new Map(input.corpus.filter((c) => c.file !== input.file).map((c) => [c.id, c]));
  const out = [{ file: input.file, text: input.text }];
  const seen = new Set<string>();
  for (let m = BASE_LINE.exec(input.text); m; ) {
    const base = byId.get(m[1]!);
    if (!base) return [...input.corpus.filter((c) => c.file !== input.file).map(({ file, text }) => ({ file, text })), out[0]!];
    if (seen.has(base.id)) break; // a cycle: the loader reports it
    seen.add(base.id);
    out.unshift({ file: base.file, text: base.text });
    m = BASE_LINE.exec(base.text);
  }
  return out;
}

const toError = (e: InputError): PlaygroundError => ({
  file: e.pos.file, line: e.pos.line, col: e.pos.col, message: e.message, fix: e.fix, detail: e.detail ?? [], formatted: formatError(e),
});

/** A fold that snapshots only the given offsets (plus what the caller asks), otherwise the same fold. */
function restricted(fold: AnyFold, keep: ReadonlySet<number>): AnyFold {
  return Object.assign(Object.create(fold) as AnyFold, {
    snapshots: (events: readonly StreamEvent[], options: Record<string, unknown>, at: ReadonlySet<number>): Snapshot[] =>
      fold.snapshots(events, options, new Set([...at].filter((o) => keep.has(o)))),
  });
}

const now = (): number => (typeof performance === 'undefined' ? Date.now() : performance.now());

/** Loads the scenario (texts → validated Scenario); separate so a caller can cache it by text. */
export function load(input: EngineInput): { scenario?: Scenario; errors: InputError[] } {
  const { scenarios, errors } = loadTexts(filesFor(input), { folds: input.folds, defaultFold: input.defaultFold, timeZero: input.timeZero });
  const scenario = scenarios.find((s) => s.file === input.file);
  return { ...(scenario && { scenario }), errors: [...errors] };
}

/** Folds the loaded scenario and builds the pane of the selected event. */
export function foldOne(scenario: Scenario, input: Pick<EngineInput, 'folds' | 'selected'>, errors: InputError[]): { view?: EngineResult['view']; warnings: EngineResult['warnings'] } {
  const fold = input.folds.get(scenario.fold)!;
  const chain = scenario.chain;
  const own = scenario.events;
  const requestOffsets = chain.filter((e) => fold.requestTypes.includes(e.type)).map((e) => e.offset);
  const known = new Set(chain.map((e) => e.offset));
  const selected = input.selected !== undefined && known.has(input.selected)
    ? input.selected
    : (own.find((e) => fold.requestTypes.includes(e.type)) ?? own[0] ?? chain[0])!.offset;
  const index = chain.findIndex((e) => e.offset === selected);
  const previous = index > 0 ? chain[index - 1]!.offset : undefined;
  // Requests are always folded (cuts compare with the previous request; anchors and rejected
  // requests are errors), plus the selected event and the one before it (the pane's diff).
  const keep = new Set([...requestOffsets, selected, ...(previous !== undefined ? [previous] : [])]);
  const r = renderScenario(scenario, restricted(fold, keep), { everyEvent: true }, errors);
  const paneEvents = r.events.filter((e) => e.offset === selected || e.offset === previous);
  const v = scenarioView({ ...r, fold, events: paneEvents });
  const pane = v.panes.find((p) => p.offset === selected)!;
  // The page model marks a request card accepted by its pane; only two panes were built here.
  const accepted = new Set(r.events.filter((e) => e.request).map((e) => e.offset));
  const cards = v.cards.map((c) => (c.request ? { ...c, request: accepted.has(c.offset) ? ('accepted' as const) : ('rejected' as const) } : c));
  return {
    warnings: r.warnings.map((w) => ({ file: w.pos.file, line: w.pos.line, col: w.pos.col, message: w.message })),
    view: {
      id: v.id, title: v.title, fold: v.fold, foldTitle: v.foldTitle, options: v.options, cards, selected, pane,
      ...(v.base !== undefined && { base: v.base }),
    },
  };
}

/** The whole pipeline. Never throws: an unexpected failure becomes an error at line 1. */
export function run(input: EngineInput): EngineResult {
  const t0 = now();
  try {
    const loaded = load(input);
    const t1 = now();
    if (!loaded.scenario) return { errors: sortErrors(loaded.errors).map(toError), warnings: [], timings: { load: t1 - t0, fold: 0 } };
    const errors = [...loaded.errors];
    const out = foldOne(loaded.scenario, input, errors);
    const t2 = now();
    return { errors: sortErrors(errors).map(toError), warnings: out.warnings, ...(errors.length === 0 && out.view && { view: out.view }), timings: { load: t1 - t0, fold: t2 - t1 } };
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
