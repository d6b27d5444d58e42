/**
 * The playground's Web Worker: loads, validates and folds the edited scenario off the main thread,
 * so a pathological input (deep YAML, a huge line) can never freeze the page — the page stops and
 * restarts a worker that takes too long. The loaded scenario is kept for the last text, so picking
 * another event re-folds without re-loading.
 */
/// <reference lib="webworker" />
// @ts-expect-error — provided by the explainer integration's vite plugin (browser-safe folds)
import { folds as registered } from 'virtual:prompt-fold-explainer/folds';
import type { AnyFold } from '../folds/types.ts';
import { foldOne, load, unexpected, type CorpusFile, type EngineResult } from './engine.ts';
import { MAX_CHARS, type FromWorker, type ToWorker } from './protocol.ts';
import { sortErrors, formatError, type InputError } from '../scenarios/errors.ts';
import type { Scenario } from '../scenarios/model.ts';

const folds = registered as Map<string, AnyFold>;
let corpus: CorpusFile[] = [];
let defaultFold = '';
let timeZero = '';
let last: { key: string; scenario?: Scenario; errors: InputError[] } | undefined;

const post = (m: FromWorker): void => (self as unknown as DedicatedWorkerGlobalScope).postMessage(m);
const toError = (e: InputError): EngineResult['errors'][number] => ({
  file: e.pos.file, line: e.pos.line, col: e.pos.col, message: e.message, fix: e.fix, detail: e.detail ?? [], formatted: formatError(e),
});

self.onmessage = (ev: MessageEvent<ToWorker>): void => {
  const m = ev.data;
  if (m.kind === 'init') {
    ({ corpus, defaultFold, timeZero } = m);
    last = undefined;
    post({ kind: 'ready', folds: [...folds.values()].map((f) => ({ id: f.id, title: f.title })) });
    return;
  }
  const t0 = performance.now();
  if (m.text.length > MAX_CHARS) {
    const e: InputError = {
      pos: { file: m.file, line: 1, col: 1 },
      message: `the scenario is ${(m.text.length / 1e6).toFixed(1)} million characters; the playground loads at most ${MAX_CHARS / 1e6} million`,
      fix: 'shorten it (long texts belong in a file checked with `npm run check`)',
    };
    post({ kind: 'result', seq: m.seq, errors: [toError(e)], warnings: [], timings: { load: 0, fold: 0 } });
    return;
  }
  try {
    const key = `${m.file}\n${m.text}`;
    if (last?.key !== key) last = { key, ...load({ file: m.file, text: m.text, corpus, folds, defaultFold, timeZero }) };
    const t1 = performance.now();
    const errors = [...last.errors];
    if (!last.scenario) {
      post({ kind: 'result', seq: m.seq, errors: sortErrors(errors).map(toError), warnings: [], timings: { load: t1 - t0, fold: 0 } });
      return;
    }
    const out = foldOne(last.scenario, { folds, ...(m.selected !== undefined && { selected: m.selected }) }, errors);
    const t2 = performance.now();
    post({
      kind: 'result', seq: m.seq, errors: sortErrors(errors).map(toError), warnings: out.warnings,
      ...(errors.length === 0 && out.view && { view: out.view }), timings: { load: t1 - t0, fold: t2 - t1 },
    });
  } catch (err) {
    last = undefined;
    post({ kind: 'result', seq: m.seq, errors: [unexpected(m.file, err)], warnings: [], timings: { load: performance.now() - t0, fold: 0 } });
  }
};
