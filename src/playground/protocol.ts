/**
 * The messages between the playground page and its worker (worker.ts), and the limits both sides
 * enforce. Plain data only: they cross a postMessage boundary.
 */
import type { YamlRange } from '../render/yaml-tokens.ts';
import type { CorpusFile, EngineResult } from './engine.ts';
import type { EconomicsConfig } from '../economics/profiles.ts';
import type { PaneMarkup } from '../render/pane-markup.ts';

/** Longest text the playground loads (characters); longer input is refused with an error. */
export const MAX_CHARS = 1_000_000;
/** Longest line the editor takes (characters): drawing one enormous line is what stalls a page. */
export const MAX_LINE = 100_000;
/** Why a whole text is over the limits (a shared link), or undefined when it is within them. */
export function overLimits(text: string): string | undefined {
  if (text.length > MAX_CHARS) return `the text is ${text.length.toLocaleString('en')} characters; the playground takes at most ${MAX_CHARS.toLocaleString('en')}`;
  let start = 0;
  for (let end = text.indexOf('\n'); ; end = text.indexOf('\n', start)) {
    const len = (end < 0 ? text.length : end) - start;
    if (len > MAX_LINE) return `a line is ${len.toLocaleString('en')} characters long; the playground takes lines of at most ${MAX_LINE.toLocaleString('en')}`;
    if (end < 0) return undefined;
    start = end + 1;
  }
}

/** A worker that has not answered by then is stopped and restarted. The page never waits for it (it
 * stays responsive meanwhile); this only ends a worker that hangs, so it is generous for busy machines. */
export const WORKER_TIMEOUT_MS = 60_000;

export interface InitMessage {
  kind: 'init';
  corpus: CorpusFile[];
  defaultFold: string;
  timeZero: string;
  /** The site's provider profiles (corpus.json): the pane's tokens, cost and cache break, as on a scenario page. */
  economics?: EconomicsConfig;
}

export interface RunMessage {
  kind: 'run';
  seq: number;
  file: string;
  text: string;
  /** The event to show; undefined: the scenario's default. */
  selected?: number;
  /** Send the text's YAML token ranges too, after the result (for the source view, before the editor is loaded). */
  tokens?: boolean;
}

/** The page has shown its first pane: the economics (and the tokenizer's tables) may load now. */
export interface EconomicsMessage {
  kind: 'economics';
}

export type ToWorker = InitMessage | RunMessage | EconomicsMessage;

export interface FoldInfo {
  id: string;
  title: string;
}

type View = NonNullable<EngineResult['view']>;

/**
 * A result as the worker sends it: the view's cards are left out when they are those of the last
 * result the worker sent (the page keeps them). A long scenario has a thousand cards, and copying
 * them across the worker boundary on every selection cost more than the fold itself.
 */
export type WorkerResult = Omit<EngineResult, 'view'> & {
  /** `econPending`: the economics are still loading; the same run is answered again, with `econ`, when they arrive. */
  view?: Omit<View, 'cards'> & { cards?: View['cards']; econ?: PaneMarkup['econ']; econPending?: true };
};

export type FromWorker =
  | { kind: 'ready'; folds: FoldInfo[] }
  | ({ kind: 'result'; seq: number } & WorkerResult)
  /** Run `seq`'s pane again, with the figures that were still loading when it was answered (or without their places, if they failed). */
  | { kind: 'figures'; seq: number; view: NonNullable<WorkerResult['view']> }
  /** The YAML token ranges of the text of run `seq` (sent after its result when the run asked for them). */
  | { kind: 'tokens'; seq: number; ranges: YamlRange[] };
