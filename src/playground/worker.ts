/**
 * The playground's Web Worker: loads, validates and folds the edited scenario off the main thread,
 * so a pathological input (deep YAML, a huge line) can never freeze the page — the page stops and
 * restarts a worker that takes too long. The loaded scenario and its folded requests are kept for
 * the last text, so picking another event folds only that event (and the one before it).
 */
/// <reference lib="webworker" />
// @ts-expect-error — provided by the explainer integration's vite plugin (browser-safe folds)
import { folds as registered, project } from 'virtual:prompt-fold-explainer/folds';
// @ts-expect-error — provided by the explainer integration's vite plugin (src/integration/js-yaml-later.ts)
import { loadJsYaml } from 'virtual:prompt-fold-explainer/js-yaml-later';
import { type YamlRange, yamlRanges } from '../render/yaml-tokens.ts';
import type { AnyFold } from '../folds/types.ts';
import { load, paneAt, prepare, toError, unexpected, type CorpusFile, type EngineResult, type Prepared } from './engine.ts';
import { MAX_CHARS, type FromWorker, type ToWorker, type WorkerResult } from './protocol.ts';
import { sortErrors, type InputError } from '../scenarios/errors.ts';
import type { Scenario } from '../scenarios/model.ts';
import type { ScenarioEconomics } from '../economics/compute.ts';
import type { EconomicsConfig } from '../economics/profiles.ts';
import { type ProjectFacts, runCommand, setProject } from '../project.ts';
import { lazyChunk } from '../client/lazy-chunk.ts';

// Messages name the project's commands (`npx prompt-fold check` in a host site).
setProject(project as ProjectFacts);

const folds = registered as Map<string, AnyFold>;
let corpus: CorpusFile[] = [];
let defaultFold = '';
let timeZero = '';
let last: { key: string; scenario?: Scenario; linked: Scenario[]; errors: InputError[]; prepared?: Prepared; tokens?: YamlRange[]; econ?: ScenarioEconomics } | undefined;
let economics: EconomicsConfig | undefined;
/**
 * The economics (and the tokenizers' tables: a megabyte gzipped) are their own chunk, loaded when
 * the page says its first pane is shown (an `economics` message). No answer waits for them: the
 * first pane is shown at once with its figures' places kept ("counting tokens…", pane-markup.ts
 * `econPending`), and the run it answered is answered again, with the figures, when they arrive —
 * so the prompt is readable after the fold engine's own script, and nothing moves. A failed fetch
 * is tried again with the next run (lazy-chunk.ts); until then panes show no figures.
 */
const econChunk = lazyChunk(() => import('./economics.ts'));
let econModule: typeof import('./economics.ts') | undefined;
/** The economics are on their way (cleared when the fetch failed, so the next run asks again). */
let econLoading = false;
/** The page has shown its first pane and asked for the economics. */
let econAsked = false;
/** The latest run answered while the economics were loading: answered again when they arrive. */
let awaiting: { seq: number; view: NonNullable<EngineResult['view']>; prepared: Prepared } | undefined;

/** Loads the economics, unless they are here or on their way; then answers the waiting run again. */
function startEconomics(): void {
  const config = economics;
  if (!config || econModule || econLoading) return;
  econLoading = true;
  econChunk()
    .then(async (module) => {
      await module.loadEncodings(Object.values(config.profiles)); // the rank tables are files of their own (economics.ts)
      econModule = module;
      answerAgain();
    })
    .catch(() => {
      econLoading = false;
      // The places kept for the figures are given back: the pane is answered again without them.
      answerAgain();
    });
}

/** The run answered without its figures, answered again now that they are here (or will not come). */
function answerAgain(): void {
  const a = awaiting;
  awaiting = undefined;
  if (!a || !last || last.prepared !== a.prepared) return;
  const econ = economics && econModule ? econModule.paneEconomics((last.econ ??= econModule.economicsOf(a.prepared, economics)), a.view) : undefined;
  const { cards: _same, ...view } = a.view;
  post({ kind: 'figures', seq: a.seq, view: econ ? { ...view, econ } : view });
}
/** Whose cards the page last received (a result for the same fold of the same text leaves them out). */
let cardsSent: Prepared | undefined;

const post = (m: FromWorker): void => (self as unknown as DedicatedWorkerGlobalScope).postMessage(m);

/** The text's YAML token ranges; none (plain text) if the parse of a broken text throws. */
function safeRanges(text: string): YamlRange[] {
  try {
    return yamlRanges(text);
  } catch {
    return [];
  }
}

self.onmessage = async (ev: MessageEvent<ToWorker>): Promise<void> => {
  const m = ev.data;
  if (m.kind === 'init') {
    ({ corpus, defaultFold, timeZero, economics } = m);
    last = undefined;
    cardsSent = undefined;
    post({ kind: 'ready', folds: [...folds.values()].map((f) => ({ id: f.id, title: f.title })) });
    return;
  }
  if (m.kind === 'economics') {
    econAsked = true;
    startEconomics();
    // The fast YAML reader too: until it is here the loader reads with the yaml package (js-yaml-later.ts).
    void (loadJsYaml as () => Promise<void>)();
    return;
  }
  awaiting = undefined;
  const t0 = performance.now();
  if (m.text.length > MAX_CHARS) {
    const e: InputError = {
      pos: { file: m.file, line: 1, col: 1 },
      message: `the scenario is ${(m.text.length / 1e6).toFixed(1)} million characters; the playground loads at most ${MAX_CHARS / 1e6} million`,
      fix: `shorten it (long texts belong in a file checked with \`${runCommand('check')}\`)`,
    };
    post({ kind: 'result', seq: m.seq, errors: [toError(e)], warnings: [], timings: { load: 0, fold: 0 } });
    return;
  }
  try {
    const key = `${m.file}\n${m.text}`;
    // One load and one fold of the requests per text; picking another event reuses both.
    let loadMs = 0;
    let foldMs = 0;
    if (last?.key !== key) {
      last = { key, ...(await load({ file: m.file, text: m.text, corpus, folds, defaultFold, timeZero })) };
      loadMs = performance.now() - t0;
      if (last.scenario) last.prepared = await prepare(last.scenario, folds, last.errors, last.linked);
      foldMs = performance.now() - t0 - loadMs;
    }
    const t1 = performance.now();
    const errors = last.errors;
    const view = last.prepared && errors.length === 0 ? await paneAt(last.prepared, m.selected) : undefined;
    const econ = view && economics && econModule && last.prepared ? econModule.paneEconomics((last.econ ??= econModule.economicsOf(last.prepared, economics)), view) : undefined;
    foldMs += performance.now() - t1;
    // A request's figures still loading: its places are kept, and this run is answered again when they arrive.
    const pending = !!view && !econ && !!economics && !econModule && view.pane.kind === 'request';
    if (pending) awaiting = { seq: m.seq, view, prepared: last.prepared! };
    let sent: WorkerResult['view'] = view && (econ ? { ...view, econ } : pending ? { ...view, econPending: true as const } : view);
    if (sent && last.prepared === cardsSent) {
      const { cards: _same, ...rest } = sent;
      sent = rest;
    } else if (view) cardsSent = last.prepared;
    post({
      kind: 'result',
      seq: m.seq,
      errors: sortErrors(errors).map(toError),
      warnings: last.prepared?.warnings ?? [],
      ...(sent && { view: sent }),
      timings: { load: loadMs, fold: foldMs },
    });
    // After a failed fetch, each run tries again (the page asked for them once its first pane was shown).
    if (econAsked) startEconomics();
    // The source view's colours (asked for until the page's editor is loaded), after the answer so
    // they never delay the pane: once per text.
    if (m.tokens) post({ kind: 'tokens', seq: m.seq, ranges: (last.tokens ??= safeRanges(m.text)) });
  } catch (err) {
    last = undefined;
    post({ kind: 'result', seq: m.seq, errors: [unexpected(m.file, err)], warnings: [], timings: { load: performance.now() - t0, fold: 0 } });
  }
};
