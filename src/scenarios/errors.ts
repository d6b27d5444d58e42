/**
 * Input errors: every problem with a scenario names file:line:column, what is wrong and how to fix
 * it. Loading collects all of them (one bad file never hides another's errors); callers throw a
 * CorpusError carrying the whole list, and nothing is written while any exists.
 */
import { UserError } from '../errors.ts';
import { FoldFailure } from '../folds/hooks.ts';

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

/**
 * A fold that failed (threw, rejected, or returned the wrong kind of value: src/folds/hooks.ts) as
 * an error at the scenario position it was working on, with the fold's own top frame.
 */
export function foldFailureError(f: FoldFailure, pos: SourcePos, during: string): InputError {
  return {
    pos,
    message: `fold \`${f.fold}\` failed ${during}: its \`${f.hook}\` ${f.message}`,
    ...(f.frame && { detail: [f.frame] }),
    fix: `fix the fold \`${f.fold}\` (its \`${f.hook}\`): a fold reports a problem with an event as an issue from \`validateEvent\` or as a rejected request, never by throwing`,
  };
}

/** Awaits a fold hook (through src/folds/hooks.ts); a FoldFailure becomes an error at `pos` and the result undefined. */
export async function located<T>(work: Promise<T>, errors: InputError[], pos: SourcePos, during: string): Promise<T | undefined> {
  try {
    return await work;
  } catch (err) {
    if (!FoldFailure.is(err)) throw err;
    errors.push(foldFailureError(err, pos, during));
    return undefined;
  }
}
