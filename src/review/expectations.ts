/**
 * A review build keeps going past broken cache expectations: a pull request whose change
 * breaks the cache is the one a reviewer most needs to see, so the preview build (EXPLAINER_REVIEW=1,
 * set by `npm run preview:build`) shows its pages and lists the broken expectations instead of
 * failing on them. `npm run check` and `npm test` still fail on them, so merging stays gated.
 *
 * What still stops a review build: every other corpus error — a scenario that does not load or
 * validate, a stale anchor, an output collision, a fold that throws. Those leave no trustworthy page
 * to show (a request that could not be rendered, an annotation that points nowhere).
 *
 * The expectation errors are found by running the economics' own checks (`checkExpectations`,
 * `checkMeasured`: `expect.busts`, `expect.cached`, `expect.maxInputTokens`, `maxMeasuredDiff`, and
 * requests the provider's API would reject) again on the rendered corpus, so this module needs no
 * flag inside the corpus check and says exactly what `npm run check` says.
 */
import type { RenderedCorpus } from '../corpus/check.ts';
import { checkExpectations } from '../economics/expect.ts';
import { checkMeasured } from '../economics/measured.ts';
import { sortErrors, type InputError } from '../scenarios/errors.ts';

/** The environment variable that makes a build a review build. */
export const REVIEW_ENV = 'EXPLAINER_REVIEW';

/** True in a review build (`EXPLAINER_REVIEW=1`). */
export const isReviewBuild = (env: NodeJS.ProcessEnv = process.env): boolean => env[REVIEW_ENV] === '1';

/** One broken expectation, as `npm run check` prints it (file:line:col, message). */
export interface ExpectationFailure {
  file: string;
  line: number;
  col: number;
  message: string;
}

const key = (e: InputError): string => `${e.pos.file}\0${e.pos.line}\0${e.pos.col}\0${e.message}`;

/** The corpus errors that are broken cache expectations, sorted by file and position. */
export function expectationErrors(corpus: RenderedCorpus): InputError[] {
  const found: InputError[] = [];
  for (const r of corpus.scenarios) {
    const econ = corpus.economics.get(r.scenario.id);
    if (!econ) continue;
    checkExpectations(r, econ, found);
    checkMeasured(r, econ, found);
  }
  // Only those the corpus check reported (the same text, the same place).
  const reported = new Set(corpus.errors.map(key));
  return sortErrors(found.filter((e) => reported.has(key(e))));
}

/** The broken expectations as a review carries them. */
export const expectationFailures = (corpus: RenderedCorpus): ExpectationFailure[] =>
  expectationErrors(corpus).map((e) => ({ file: e.pos.file, line: e.pos.line, col: e.pos.col, message: e.message }));

/**
 * The errors that stop this build: all of them, or in a review build all but the broken
 * expectations (see the header).
 */
export function blockingErrors(corpus: RenderedCorpus, review = isReviewBuild()): InputError[] {
  if (!review || !corpus.errors.length) return corpus.errors;
  const expected = new Set(expectationErrors(corpus).map(key));
  return corpus.errors.filter((e) => !expected.has(key(e)));
}
