/**
 * One `assert` run: captures and expectations in, a report out — every conversation's summary,
 * every broken promise (evaluate.ts), and the input problems that stop the run (a capture the
 * importer cannot read, an expectations entry that is not one, a promise about a request no
 * conversation holds). The command (src/cli/assert.ts) and the test API (index.ts) both end here,
 * so a promise means the same in a pytest suite's CI as in a vitest test.
 */
import type { InputError } from '../scenarios/errors.ts';
import { conversationsOfFile, type Conversation } from './conversations.ts';
import { evaluate, unknownRequests, type ConversationSummary, type Failure, type PromiseKind } from './evaluate.ts';
import type { Expectations } from './expectations.ts';

export interface AssertReport {
  conversations: ConversationSummary[];
  failures: Failure[];
  /** Bad input: nothing was judged when there are any. */
  problems: InputError[];
  /** The expectations file as named (null: a test's object). */
  expectations: string | null;
  /** The kinds of promise the expectations make (a JUnit test case each). */
  made: PromiseKind[];
}

/** The kinds of promise an expectations object makes. */
export const madeBy = (exp: Expectations): PromiseKind[] =>
  (['busts', 'cached', 'minCached', 'maxInputTokens', 'maxMeasuredDiff', 'maxCostPerConversation'] as const).filter((k) => exp[k] !== undefined);

/** The promises held against conversations already read. */
export function judge(conversations: readonly Conversation[], exp: Expectations, expectationsFile: string | null, problems: InputError[] = []): AssertReport {
  for (const u of unknownRequests(exp, conversations))
    problems.push({
      pos: u.at ?? { file: expectationsFile ?? 'expectations', line: 1, col: 1 },
      message: `${u.list} names "@${u.offset}", but no conversation has a request @${u.offset} (its requests: ${conversations.flatMap((c) => c.economics.requests.map((e) => `@${e.offset}`)).join(', ') || 'none'})`,
      fix: "name the requests by the numbers assert prints: @1 … @N in the order they were sent (each failure also gives the request's line in the capture)",
    });
  if (problems.length) return { conversations: [], failures: [], problems, expectations: expectationsFile, made: madeBy(exp) };
  const out: AssertReport = { conversations: [], failures: [], problems, expectations: expectationsFile, made: madeBy(exp) };
  for (const c of conversations) {
    const { failures, summary } = evaluate(c, exp);
    out.conversations.push(summary);
    out.failures.push(...failures);
  }
  return out;
}

/** Every capture file read (in the order given), then judged. `captures`: the path to read and the name to show. */
export async function assertFiles(
  captures: readonly { path: string; name: string }[],
  exp: Expectations,
  expectationsFile: string | null,
  problems: InputError[] = [],
): Promise<AssertReport> {
  const conversations: Conversation[] = [];
  for (const c of captures) conversations.push(...(await conversationsOfFile(c.path, c.name, problems)));
  if (!conversations.length && !problems.length)
    problems.push({ pos: { file: captures[0]?.name ?? '-', line: 1, col: 1 }, message: 'no request found in the captures', fix: 'record at least one request' });
  return judge(conversations, exp, expectationsFile, problems);
}
