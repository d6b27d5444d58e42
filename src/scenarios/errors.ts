/**
 * Input errors: every problem with a scenario names file:line:column, what is wrong and how to fix
 * it. Loading collects all of them (one bad file never hides another's errors); callers throw a
 * CorpusError carrying the whole list, and nothing is written while any exists.
 */
import { UserError } from '../errors.ts';

export interface SourcePos {
  /** Path relative to the project root, with forward slashes. */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  col: number;
}

export interface InputError {
  pos: SourcePos;
  message: string;
  fix: string;
  /** Extra lines shown under the message (e.g. the closest rendered lines for a stale anchor). */
  detail?: string[];
}

export function formatError(e: InputError): string {
  const lines = [`${e.pos.file}:${e.pos.line}:${e.pos.col} error: ${e.message}`];
  for (const d of e.detail ?? []) lines.push(`  ${d}`);
  lines.push(`  fix: ${e.fix}`);
  return lines.join('\n');
}

/** Orders errors by file, then position, so reports are deterministic. */
export function sortErrors(errors: InputError[]): InputError[] {
  return [...errors].sort((a, b) => (a.pos.file < b.pos.file ? -1 : a.pos.file > b.pos.file ? 1 : a.pos.line - b.pos.line || a.pos.col - b.pos.col));
}

/** A corpus with input errors: the message lists every one, sorted, and ends with the count. */
export class CorpusError extends UserError {
  readonly errors: InputError[];
  constructor(errors: InputError[]) {
    const sorted = sortErrors(errors);
    const files = new Set(sorted.map((e) => e.pos.file)).size;
    super(
      `${sorted.map(formatError).join('\n\n')}\n\n` + `${sorted.length} error${sorted.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}; nothing was written.`,
    );
    this.errors = sorted;
  }
}
