/**
 * The scenario model both syntaxes load into: a scenario's own events (batches expanded, times
 * resolved), its base chain, its annotations — each with the source positions errors point at.
 */
import type { StreamEvent } from '../folds/types.ts';
import type { SourcePos } from './errors.ts';

export interface ScenarioEvent extends StreamEvent {
  /** The elapsed-time label as written. */
  t: string;
  elapsedMs: number;
  note?: string;
  /**
   * Set when the event came from a batch (the fold's `expand` hook): its first offset, size, index,
   * and the payload fields each item writes itself (every other field is shared by the batch).
   */
  batch?: { first: number; size: number; index: number; ownFields: string[] };
  /** Id of the scenario that wrote this event (a base's id for shared-start events). */
  scenarioId: string;
  /** The event entry in its file. */
  pos: SourcePos;
  /** Its `off:` value. */
  offPos: SourcePos;
  /** Its `t:` value. */
  tPos: SourcePos;
  /** Its `type:` value. */
  typePos: SourcePos;
  /** The event as written in the file (a batch: the whole batch), dedented YAML. */
  source: string;
}

export interface Annotation {
  /** The request's offset. */
  request: number;
  find: string;
  comment: string;
  /** 1-based: which matching line to anchor (default: the first). */
  occurrence?: number;
  pos: SourcePos;
  findPos: SourcePos;
}

/** A second render of the same events, for before/after between fold variants. */
export interface Comparison {
  label: string;
  fold: string;
  options: Record<string, unknown>;
  pos: SourcePos;
}

/**
 * What a scenario promises about the provider's prompt cache (docs/cache-economics.md, "Expectations a scenario states"), checked
 * like anchors: `busts` lists exactly the own requests whose ✂ falls above the end of the previous
 * request; `maxInputTokens` caps every own request's input tokens; `cached` lists exactly the own
 * requests that read tokens from the provider cache (so prose that says "cached" agrees with the
 * numbers on the page).
 */
export interface Expectation {
  busts: number[];
  /** Where each `busts` entry is written (same order). */
  bustPos: SourcePos[];
  /** The `busts:` value (the list itself). */
  bustsPos: SourcePos;
  maxInputTokens?: number;
  maxInputTokensPos?: SourcePos;
  /** Exactly the own requests that read from the provider cache (absent: not stated). */
  cached?: number[];
  /** Where each `cached` entry is written (same order). */
  cachedPos?: SourcePos[];
  /** The `cached:` value (the list itself). */
  cachedListPos?: SourcePos;
  /** `maxMeasuredDiff`: per measured figure, the largest allowed difference from the model (src/economics/measured.ts). */
  maxMeasuredDiff?: MeasuredDiffLimit[];
  maxMeasuredDiffPos?: SourcePos;
  pos: SourcePos;
}

/** One `maxMeasuredDiff` entry: a token count, or a percentage of the measured figure. */
export interface MeasuredDiffLimit {
  field: 'inputTokens' | 'cachedTokens' | 'cacheWriteTokens';
  tokens?: number;
  percent?: number;
  /** As written (`"2%"`, `120`). */
  text: string;
  pos: SourcePos;
}

/**
 * A fold change that lands mid-stream: from the event at `at` on, requests render under `fold`
 * with `options` (shallow-merged over the scenario's own); before it, under the scenario's own.
 */
export interface Deployment {
  at: number;
  /** The fold deployed (the scenario's own when the entry names none). */
  fold: string;
  /** As written: merged over the scenario's options. */
  options: Record<string, unknown>;
  pos: SourcePos;
}

/**
 * `sharesCache:` — this scenario's requests go to the same provider cache as another scenario's
 * (a subagent and its parent, two sessions of one workspace), starting at one of its events: this
 * scenario's time zero is that event's time. The economics simulate both streams over one cache
 * (src/economics/shared-cache.ts).
 */
export interface SharedCache {
  scenario: string;
  /** Offset of the event of `scenario`'s chain this scenario starts at. */
  at: number;
  pos: SourcePos;
  scenarioPos: SourcePos;
  atPos: SourcePos;
}

export interface Scenario {
  id: string;
  title: string;
  /** Markdown prose (untrusted; sanitised when rendered). */
  intro: string;
  /** Path relative to the project root, forward slashes. */
  file: string;
  /** File name without extension: names the fixture. */
  stem: string;
  fold: string;
  /** Fold options as written (defaults not merged). */
  options: Record<string, unknown>;
  base?: string;
  /** This scenario's own events. */
  events: ScenarioEvent[];
  /** The base chain's events followed by the own events. */
  chain: ScenarioEvent[];
  annotations: Annotation[];
  compare?: Comparison;
  expect?: Expectation;
  deploy?: Deployment;
  sharesCache?: SharedCache;
  /**
   * `startedAt:` the real instant the time labels count from (an imported capture's): the events'
   * `createdAt` are real, and each request is priced at the prices in force then. Absent: the
   * site's time zero, an illustrative clock (today's prices apply).
   */
  startedAt?: string;
  /** `opens: "@N"`: the own request the scenario's page opens on (default: the first with a ✂ line). */
  opens?: number;
  opensPos?: SourcePos;
  pos: SourcePos;
}
