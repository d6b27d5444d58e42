/**
 * The report as GitHub Actions workflow commands (`--reporter github`): one
 * `::error file=…,line=…,col=…,title=…::…` per broken promise, which the run's summary and the
 * pull request's diff show at the capture's line; then the summary line as a `::notice`. The
 * runner's escaping rules (actions/toolkit, core/src/command.ts): in the message `%`, CR and LF are
 * percent-encoded; in a property also `:` and `,` — so a capture's text can neither end the
 * command early nor start another.
 */
import { formatError } from '../../scenarios/errors.ts';
import type { AssertReport } from '../run.ts';
import { summaryLine } from './text.ts';

export const escapeData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
export const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

const command = (kind: string, props: Record<string, string | number>, message: string): string =>
  `::${kind} ${Object.entries(props)
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(',')}::${escapeData(message)}`;

export function githubReport(r: AssertReport): string {
  if (r.problems.length)
    return `${r.problems.map((p) => command('error', { file: p.pos.file, line: p.pos.line, col: p.pos.col, title: 'prompt-fold assert: bad input' }, formatError(p))).join('\n')}\n`;
  const lines = r.failures.map((f) =>
    command('error', { file: f.at.file, line: f.at.line, col: f.at.col, title: `cache promise broken: ${f.expectation}` }, [f.message, ...f.details, `fix: ${f.fix}`].join('\n')),
  );
  lines.push(`::${r.failures.length ? 'error' : 'notice'}::${escapeData(summaryLine(r))}`);
  return `${lines.join('\n')}\n`;
}
