/**
 * The test API (`prompt-fold-explainer/assert`): cache promises checked inside a team's own
 * JavaScript/TypeScript suite, with the same engine and the same located explanations as
 * `prompt-fold assert` (run.ts) and `check`. Framework-neutral at its core —
 *
 *   await assertCache(requests, 'claude-sonnet-4-5', { busts: [] })     // throws CacheAssertionError
 *   const result = await checkCache(requests, model, expectations)      // { ok, failures, text, … }
 *
 * — where `requests` are the provider bodies an agent sent (OpenAI Chat / Responses, Anthropic
 * Messages, …), bare or wrapped as `{ body, timestamp?, response? | usage? }` with what the provider
 * billed; or a fold and a scenario (`{ fold, scenario }`: the fold is run over the scenario's events,
 * as the site's check runs it, and run again by the determinism probe — another clock, time zone,
 * locale, random sequence, environment, key and tool order: a byte that moves in a cached prefix is
 * a broken promise, `deterministic`). Matchers for vitest and jest (`expect.extend(cacheMatchers)`, then
 * `await expect(requests).toKeepCache({ model, busts: [] })`) report a broken promise as the
 * located explanation, never a stack of the engine's internals.
 *
 * Requests are read by the importer (the same checks as `prompt-fold import`): a bad body is an
 * input error naming the request (`requests:3:…` is the third request) and its fix.
 */
import { renderTexts } from '../corpus/check.ts';
import { probeScenario } from '../determinism/probe.ts';
import { DEFAULT_ECONOMICS } from '../economics/profiles.ts';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import type { AnyFold } from '../folds/types.ts';
import { UserError } from '../errors.ts';
import { formatError, type InputError } from '../scenarios/errors.ts';
import { conversationOfText, type Conversation } from './conversations.ts';
import type { ConversationSummary, Failure } from './types.ts';
import { expectationsOf, type CacheExpectations } from './expectations.ts';
import { textReport } from './reporters/text.ts';
import { judge, type AssertReport } from './run.ts';

export type { CacheExpectations } from './expectations.ts';
export type { ConversationSummary, Failure, Rule } from './types.ts';

/** One recorded request: the provider body as sent, or wrapped with when it was sent and what the provider billed. */
export type RecordedRequest = Record<string, unknown> | { body: Record<string, unknown>; timestamp?: string | number; response?: { usage?: unknown }; usage?: unknown };

/** A fold and the scenario to run it over (YAML text, as a scenario file holds it). */
export interface FoldRun {
  fold: AnyFold;
  /** The scenario file's text (its `fold:` may be left out: the given fold is used). */
  scenario: string;
  /** The name errors give the scenario (default `scenario.yaml`). */
  file?: string;
}

export interface CacheCheck {
  /** Every promise kept. */
  ok: boolean;
  failures: Failure[];
  conversations: ConversationSummary[];
  /** The report as `prompt-fold assert` prints it (the located failures, then the summary line). */
  text: string;
}

/** A broken cache promise: its message is the located explanation; `failures` has each one as data. */
export class CacheAssertionError extends Error {
  readonly failures: Failure[];
  readonly check: CacheCheck;
  constructor(check: CacheCheck) {
    super(check.text.trimEnd());
    this.name = 'CacheAssertionError';
    this.failures = check.failures;
    this.check = check;
    // The explanation is the whole story: no frames of the engine under it.
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** The requests or the expectations are not what they should be (a body the provider would not accept, an unknown expectation). */
export class CacheInputError extends UserError {
  readonly problems: InputError[];
  constructor(problems: InputError[]) {
    super(problems.map(formatError).join('\n'));
    this.name = 'CacheInputError';
    this.problems = problems;
    this.stack = `${this.name}: ${this.message}`;
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The requests as the importer reads them: one wrapped body per line, each with the model asked for. */
function requestsText(requests: readonly RecordedRequest[], model: string | null, problems: InputError[]): string {
  if (!Array.isArray(requests) || !requests.length) {
    problems.push({ pos: { file: 'requests', line: 1, col: 1 }, message: 'no requests given', fix: 'pass the provider request bodies the agent sent, in order (at least one)' });
    return '';
  }
  return `${requests
    .map((r, i) => {
      const wrapped = isObj(r) && isObj(r.body) && !('model' in r);
      const body = (wrapped ? r.body : r) as Record<string, unknown>;
      if (!isObj(body)) {
        problems.push({
          pos: { file: 'requests', line: i + 1, col: 1 },
          message: `request ${i + 1} is not an object`,
          fix: 'pass each request as the provider body (an object), or { body, timestamp, response }',
        });
        return '{}';
      }
      let withModel = body;
      if (model !== null) {
        if (body.model === undefined) withModel = { model, ...body };
        else if (body.model !== model)
          problems.push({
            pos: { file: 'requests', line: i + 1, col: 1 },
            message: `request ${i + 1} names the model ${JSON.stringify(body.model)}, but the check was asked for ${JSON.stringify(model)}`,
            fix: 'pass the model the requests were sent to (or null to use each body’s own)',
          });
      }
      return JSON.stringify(wrapped ? { ...r, body: withModel } : withModel);
    })
    .join('\n')}\n`;
}

/** A fold run over a scenario → its costed conversation (the site's check pipeline, in memory). */
async function conversationOfFold(run: FoldRun, problems: InputError[]): Promise<Conversation | undefined> {
  const file = run.file ?? 'scenario.yaml';
  const folds = new Map<string, AnyFold>([...BUILTIN_FOLDS, [run.fold.id, run.fold]]);
  const corpus = await renderTexts(
    [{ file, text: run.scenario }],
    { timeZero: '2026-01-01T00:00:00.000Z', folds, defaultFold: run.fold.id, economics: DEFAULT_ECONOMICS },
    { everyEvent: false },
  );
  problems.push(...corpus.errors);
  const rendered = corpus.scenarios[0];
  const economics = rendered && corpus.economics.get(rendered.scenario.id);
  if (corpus.errors.length || !rendered || !economics || rendered.foldFailed) return undefined;
  const pos = new Map(rendered.scenario.chain.map((e) => [e.offset, e.pos]));
  const unstable = await probeScenario(rendered.scenario, run.fold, rendered.chain);
  return { capture: file, label: `${file} (${run.fold.id})`, rendered, economics, where: (o) => pos.get(o) ?? rendered.scenario.pos, findings: [], unstable };
}

const isFoldRun = (v: unknown): v is FoldRun => isObj(v) && isObj(v.fold) && typeof v.scenario === 'string';

function result(report: AssertReport): CacheCheck {
  return { ok: !report.failures.length, failures: report.failures, conversations: report.conversations, text: textReport(report) };
}

/**
 * The promises held against the requests (or a fold's run over a scenario). Resolves to the
 * result, kept or broken; rejects with a CacheInputError on bad input.
 */
export async function checkCache(requests: readonly RecordedRequest[] | FoldRun, model: string | null | undefined, expectations: CacheExpectations): Promise<CacheCheck> {
  const problems: InputError[] = [];
  const exp = expectationsOf(expectations ?? {}, problems);
  let conversation: Conversation | undefined;
  if (isFoldRun(requests)) {
    if (!problems.length) conversation = await conversationOfFold(requests, problems);
  } else {
    const text = requestsText(requests, model ?? null, problems);
    if (!problems.length) conversation = await conversationOfText(text, 'requests', problems);
  }
  if (problems.length || !conversation) throw new CacheInputError(problems);
  const report = judge([conversation], exp, null, problems);
  if (report.problems.length) throw new CacheInputError(report.problems);
  return result(report);
}

/** The same, throwing a CacheAssertionError (its message the located explanation) when a promise is broken. */
export async function assertCache(requests: readonly RecordedRequest[] | FoldRun, model: string | null | undefined, expectations: CacheExpectations): Promise<CacheCheck> {
  const check = await checkCache(requests, model, expectations);
  if (!check.ok) throw new CacheAssertionError(check);
  return check;
}

/** `toKeepCache`'s argument: the expectations, and the model the requests go to (default: each body's own). */
export type KeepCacheOptions = CacheExpectations & { model?: string };

/** What a matcher returns to vitest and jest (their shared protocol). */
export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/**
 * Matchers for vitest and jest: `expect.extend(cacheMatchers)`. A broken promise fails with the
 * located explanation; bad input fails the test with the input error (never passes under `.not`).
 */
export const cacheMatchers = {
  async toKeepCache(this: { isNot?: boolean } | undefined, received: unknown, options: KeepCacheOptions = {}): Promise<MatcherResult> {
    const { model, ...expectations } = options;
    const check = await checkCache(received as readonly RecordedRequest[] | FoldRun, model, expectations);
    return {
      pass: check.ok,
      message: () => (check.ok ? `expected a cache promise to break, but every promise was kept:\n${check.text}` : `expected every cache promise to be kept:\n${check.text}`),
    };
  },
};

/**
 * The matcher's type, to merge into your framework's assertion type:
 *
 *   import type { CacheMatchers } from 'prompt-fold-explainer/assert';
 *   // vitest (5: `Matchers<R, T>`)
 *   declare module 'vitest' { interface Matchers<R extends void | Promise<void> = void | Promise<void>, T = unknown> extends CacheMatchers<R> {} }
 *   // jest
 *   declare global { namespace jest { interface Matchers<R> extends CacheMatchers<R> {} } }
 *
 * The matcher is asynchronous in every framework: `await expect(requests).toKeepCache({…})`.
 */
// biome-ignore lint/correctness/noUnusedVariables: R is the framework's own parameter, kept so the interface merges into its Matchers<R>
export interface CacheMatchers<R = unknown> {
  toKeepCache(options?: KeepCacheOptions): Promise<void>;
}
