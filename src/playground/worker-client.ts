/**
 * The playground's worker, from the page's side: it starts the worker (worker.ts) with the site's
 * corpus, sends each run, keeps the cards the worker sends only when they change, and drops
 * answers to runs that have been superseded. Its watchdog restarts a worker that takes longer than
 * WORKER_TIMEOUT_MS (an input that would hang the page) or fails, and says so as an error. The
 * state is this class's fields: the worker, the run counter, the watchdog, the last cards.
 */
import type { YamlRange } from '../render/yaml-tokens.ts';
import type { EngineResult } from './engine.ts';
import { WORKER_TIMEOUT_MS, type EconomicsMessage, type FoldInfo, type FromWorker, type InitMessage, type RunMessage } from './protocol.ts';

export interface WorkerHooks {
  /** The folds the worker knows (its first message). */
  ready(folds: FoldInfo[]): void;
  /** The YAML token ranges of the text of the latest run (when it asked for them). */
  tokens(ranges: YamlRange[]): void;
  /** The answer to the latest run, with the view's cards filled in. */
  answer(result: EngineResult): void;
  /** The latest run's pane again, now with its figures (they were still loading when it was answered). */
  figures(view: NonNullable<EngineResult['view']>): void;
  /** The worker failed or took too long: it has been restarted. */
  failed(message: string): void;
}

type Cards = NonNullable<EngineResult['view']>['cards'];

export class WorkerClient {
  private worker: Worker | undefined;
  private readonly init: InitMessage;
  private readonly hooks: WorkerHooks;
  private seq = 0;
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  /** The cards of the worker's last view (it sends them only when they change). */
  private cards: Cards = [];
  /** When the latest run was sent (playground:answer spans from here to the rendered pane). */
  private sentAt = 0;
  /** The text of the run last sent (its answer's ranges and error lines are for it). */
  sentText: string | undefined;
  /** This worker has been told the first answer is shown (it then loads the economics). */
  private economicsAsked = false;

  constructor(init: InitMessage, hooks: WorkerHooks) {
    this.init = init;
    this.hooks = hooks;
    this.start();
  }

  private start(): void {
    // No extension: Vite finds worker.ts here and the compiled worker.js in the installed package.
    const w = new Worker(new URL('./worker', import.meta.url), { type: 'module' });
    w.onmessage = (ev: MessageEvent<FromWorker>) => this.receive(ev.data);
    this.economicsAsked = false;
    w.onerror = (ev) => {
      ev.preventDefault();
      this.fail(`The playground's worker failed (${ev.message || 'unknown error'}); it was restarted.`);
    };
    this.worker = w;
    w.postMessage(this.init);
  }

  /** Sends a run; the watchdog restarts the worker if its answer does not come in time. */
  run(r: Omit<RunMessage, 'kind' | 'seq'>): void {
    clearTimeout(this.watchdog);
    this.seq++;
    this.sentAt = performance.now();
    this.sentText = r.text;
    this.worker!.postMessage({ kind: 'run', seq: this.seq, ...r } satisfies RunMessage);
    this.watchdog = setTimeout(() => this.fail(`processing stopped after ${WORKER_TIMEOUT_MS / 1000} s`), WORKER_TIMEOUT_MS);
  }

  private fail(message: string): void {
    clearTimeout(this.watchdog);
    this.worker?.terminate();
    this.start();
    this.hooks.failed(message);
  }

  private receive(m: FromWorker): void {
    if (m.kind === 'ready') {
      this.hooks.ready(m.folds);
      return;
    }
    if (m.kind === 'tokens') {
      if (m.seq === this.seq) this.hooks.tokens(m.ranges);
      return;
    }
    if (m.kind === 'figures') {
      if (m.seq === this.seq) this.hooks.figures({ ...m.view, cards: this.cards });
      return;
    }
    // Cards come only when they change (protocol.ts); keep them even from a superseded answer.
    if (m.view?.cards) this.cards = m.view.cards;
    if (m.seq !== this.seq) return; // an answer to an edit that has been superseded
    clearTimeout(this.watchdog);
    const { view, kind: _kind, seq: _seq, ...rest } = m;
    this.hooks.answer(view ? { ...rest, view: { ...view, cards: this.cards } } : rest);
    // The first answer is on the page: the economics load now, behind it rather than before it.
    if (!this.economicsAsked) {
      this.economicsAsked = true;
      this.worker!.postMessage({ kind: 'economics' } satisfies EconomicsMessage);
    }
    // The whole round trip: the worker's queue, load, fold, the message both ways, and the render.
    performance.measure('playground:answer', { start: this.sentAt, duration: performance.now() - this.sentAt });
  }
}
