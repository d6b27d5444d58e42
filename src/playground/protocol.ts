/**
 * The messages between the playground page and its worker (worker.ts), and the limits both sides
 * enforce. Plain data only: they cross a postMessage boundary.
 */
import type { CorpusFile, EngineResult } from './engine.ts';

/** Longest text the playground loads (characters); longer input is refused with an error. */
export const MAX_CHARS = 1_000_000;
/** A worker that has not answered by then is stopped and restarted (the page stays responsive). */
export const WORKER_TIMEOUT_MS = 15_000;

export interface InitMessage {
  kind: 'init';
  corpus: CorpusFile[];
  defaultFold: string;
  timeZero: string;
}

export interface RunMessage {
  kind: 'run';
  seq: number;
  file: string;
  text: string;
  /** The event to show; undefined: the scenario's default. */
  selected?: number;
}

export type ToWorker = InitMessage | RunMessage;

export interface FoldInfo {
  id: string;
  title: string;
}

export type FromWorker =
  | { kind: 'ready'; folds: FoldInfo[] }
  | ({ kind: 'result'; seq: number } & EngineResult);
