/**
 * The report as a person reads it in a terminal or a test's failure message: `check`'s shape —
 * `file:line:col error: what broke`, the explanation indented under it (the first differing text,
 * the cause, the tokens and dollars lost, the provider's rule), where the promise was made, the fix
 * — then one summary line. Untrusted text from a capture is shown JSON-quoted (evaluate.ts), so a
 * control character cannot rewrite the terminal.
 */
import { formatTokens, formatUsd } from '../../economics/format.ts';
import { formatError } from '../../scenarios/errors.ts';
import type { AssertReport } from '../run.ts';
import type { Failure } from '../evaluate.ts';

const at = (p: { file: string; line: number; col: number }): string => `${p.file}:${p.line}:${p.col}`;

/** One failure, as `check` prints an error. */
export function failureText(f: Failure): string {
  const lines = [`${at(f.at)} error: ${f.message}`];
  for (const d of f.details) lines.push(`  ${d}`);
  lines.push(`  promised: ${f.expectation}${f.expectedAt ? ` at ${at(f.expectedAt)}` : ''} (${f.conversation})`);
  lines.push(`  fix: ${f.fix}`);
  return lines.join('\n');
}

/** The summary line: every promise kept, or how many broke. */
export function summaryLine(r: AssertReport): string {
  const requests = r.conversations.reduce((n, c) => n + c.requests, 0);
  const input = r.conversations.reduce((n, c) => n + c.inputTokens, 0);
  const cached = r.conversations.reduce((n, c) => n + c.cachedTokens, 0);
  const costs = r.conversations.map((c) => c.costUsd);
  const cost = costs.every((c) => c !== null) ? `, ${formatUsd(costs.reduce((a, b) => a! + b!, 0)!)}` : '';
  const share = input ? `, ${formatTokens(cached)} of ${formatTokens(input)} input tokens read from the cache (${Math.round((cached / input) * 100)} %)` : '';
  const what = `${r.conversations.length} conversation${r.conversations.length === 1 ? '' : 's'}, ${requests} request${requests === 1 ? '' : 's'}${share}${cost}`;
  if (!r.failures.length) return `ok: every promise kept — ${what}`;
  const broken = new Set(r.failures.map((f) => f.conversation)).size;
  return `FAILED: ${r.failures.length} broken promise${r.failures.length === 1 ? '' : 's'} in ${broken} of ${r.conversations.length} conversation${r.conversations.length === 1 ? '' : 's'} — ${what}`;
}

export function textReport(r: AssertReport): string {
  if (r.problems.length) return `${r.problems.map(formatError).join('\n')}\n${r.problems.length} problem${r.problems.length === 1 ? '' : 's'} in the input: nothing was checked\n`;
  return `${[...r.failures.map(failureText), summaryLine(r)].join('\n')}\n`;
}
