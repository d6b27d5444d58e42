/**
 * The public shapes of a cache check's result (the test API's `Failure`, `Rule`,
 * `ConversationSummary`): plain data, free of the engine's types, so the package's declarations
 * name nothing of its internals.
 */
import type { SourcePos } from '../scenarios/errors.ts';
import type { At } from './expectations.ts';

export type PromiseKind = 'busts' | 'cached' | 'minCached' | 'maxCostPerConversation' | 'maxMeasuredDiff' | 'maxInputTokens' | 'api' | 'deterministic';

/** The provider's documented rule a failure follows. */
export interface Rule {
  text: string;
  url: string;
  read: string;
}

export interface Failure {
  /** Which promise broke (`api`: a request the provider's API would reject, whatever was promised). */
  expectation: PromiseKind;
  /** The conversation (capture file, and its key when the file holds several). */
  conversation: string;
  /** The request (its number, as `@N`), or null for a promise about the whole conversation. */
  request: number | null;
  /** Where the request is in the capture (or the capture's first line). */
  at: SourcePos;
  /** Where the promise is written (null: a test's object). */
  expectedAt: At;
  /** One line: what broke. */
  message: string;
  /** The explanation, line by line: the first differing text, the cause, what it cost, the rule. */
  details: string[];
  rule: Rule | null;
  fix: string;
}

export interface ConversationSummary {
  conversation: string;
  capture: string;
  requests: number;
  inputTokens: number;
  cachedTokens: number;
  /** Dollars, as billed where every request carries the bill, else as modelled; null: no price configured. */
  costUsd: number | null;
  billed: boolean;
}
