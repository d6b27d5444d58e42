/**
 * Code frames for the command line: each error of a report followed by the lines of the scenario
 * file around it, the line at fault marked with `>` and a caret under its column — what the dev
 * overlay shows, in a terminal. Used by `npm run check` and `npm run fixtures`; the plain report
 * (CorpusError's message) stays what the build and tests print.
 */
import { formatError, sortErrors, type InputError } from './errors.ts';

/** The lines around `line` (1-based) of `text`, the line itself marked and a caret at `col`. */
export function codeFrame(text: string, line: number, col: number, context = 1): string[] {
  const lines = text.split(/\r?\n/);
  if (line < 1 || line > lines.length) return [];
  const first = Math.max(1, line - context);
  const last = Math.min(lines.length, line + context);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const src = lines[n - 1]!.replace(/\t/g, ' ');
    out.push(`${n === line ? '>' : ' '} ${String(n).padStart(width)} | ${src}`.trimEnd());
    if (n === line) out.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, col - 1))}^`);
  }
  return out;
}

/**
 * The whole report with a frame under each error's first line; `read` gives a file's text (by
 * its path relative to the project root) or undefined when it cannot be read (no frame then).
 */
export function reportWithFrames(errors: InputError[], read: (file: string) => string | undefined): string {
  const sorted = sortErrors(errors);
  const texts = new Map<string, string | undefined>();
  const blocks = sorted.map((e) => {
    if (!texts.has(e.pos.file)) texts.set(e.pos.file, read(e.pos.file));
    const text = texts.get(e.pos.file);
    const [head, ...rest] = formatError(e).split('\n');
    const frame = text === undefined ? [] : codeFrame(text, e.pos.line, e.pos.col).map((l) => `  ${l}`);
    return [head, ...frame, ...rest].join('\n');
  });
  const files = new Set(sorted.map((e) => e.pos.file)).size;
  return `${blocks.join('\n\n')}\n\n${sorted.length} error${sorted.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}; nothing was written.`;
}
