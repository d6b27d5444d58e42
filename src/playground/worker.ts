/**
 * The playground's Web Worker: loads, validates and folds the edited scenario off the main thread,
 * so a pathological input (deep YAML, a huge line) can never freeze the page — the page stops and
 * restarts a worker that takes too long. The loaded scenario and its folded requests are kept for
 * the last text, so picking another event folds only that event (and the one before it).
 */
/// <reference lib="webworker" />
// @ts-expect-error — provided by the explainer integration's vite plugin (browser-safe folds)
import { folds as registered, project } from 'virtual:prompt-fold-explainer/folds';
import { type YamlRange, yamlRanges } from '../render/yaml-tokens.ts';
import type { AnyFold } from '../folds/types.ts';
import { load, paneAt, prepare, toError, unexpected, type CorpusFile, type Prepared } from './engine.ts';
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
 * The economics (and the tokenizers' tables, megabytes) are their own chunk, asked for at init, so
 * they load while the page starts. The first answer waits for them — its pane shows its tokens and
 * cost in the same render, so nothing moves later — and every later answer has them at once. A
 * failed fetch is tried again with the next run (lazy-chunk.ts); until then panes show no figures.
 */
const econChunk = lazyChunk(() => import('./economics.ts'));
let econModule: typeof import('./economics.ts') | undefined;
let econLoading: Promise<typeof import('./economics.ts') | undefined> | undefined;

function loadEconomics(config: EconomicsConfig): Promise<typeof import('./economics.ts') | undefined> {
  return econChunk()
    .then(async (module) => {
      await module.loadEncodings(Object.values(config.profiles)); // the rank tables are files of their own (economics.ts)
      return module;
    })
    .catch(() => {
      econLoading = undefined;
      return undefined;
    });
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
    if (economics) econLoading ??= loadEconomics(economics);
    last = undefined;
    cardsSent = undefined;
    post({ kind: 'ready', folds: [...folds.values()].map((f) => ({ id: f.id, title: f.title })) });
    return;
  }
  // The pane shows its tokens and cost in the same answer (one render, nothing moves later).
  if (economics && !econModule) econModule = await (econLoading ??= loadEconomics(economics));
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
    let sent: WorkerResult['view'] = view && (econ ? { ...view, econ } : view);
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
    // The source view's colours (asked for until the page's editor is loaded), after the answer so
    // they never delay the pane: once per text.
    if (m.tokens) post({ kind: 'tokens', seq: m.seq, ranges: (last.tokens ??= safeRanges(m.text)) });
  } catch (err) {
    last = undefined;
    post({ kind: 'result', seq: m.seq, errors: [unexpected(m.file, err)], warnings: [], timings: { load: performance.now() - t0, fold: 0 } });
  }
};
