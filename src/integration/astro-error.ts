/**
 * Scenario errors as Astro's own error type (AstroError from `astro/errors`, with a hint), so
 * `astro build`, the dev server's terminal and its overlay print them as Astro prints its own:
 * `[ScenarioError] file:line:column what`, then the hint (closest lines, the fix, further errors)
 * — never a stack trace: where our code noticed the error says nothing about the scenario file.
 * A reference page's own mistake is a PageError, shaped the same way (pageError).
 */
import { AstroError } from 'astro/errors';
import { brandUserError } from '../errors.ts';
import { join } from 'node:path';
import { formatError, type CorpusError } from '../scenarios/errors.ts';
import { runCommand } from '../project.ts';

export class ScenarioError extends AstroError {
  override name = 'ScenarioError';
  /** Where the overlay points (it shows that line of the file); absolute path. */
  loc?: { file: string; line: number; column: number };
  /** Every error in full (the terminal's report); the message and hint are shaped for the overlay. */
  readonly report: string;

  constructor(message: string, hint: string, loc?: { file: string; line: number; column: number }, report = `${message}\n${hint}`) {
    super(message, hint);
    this.stack = '';
    this.report = report;
    if (loc) this.loc = loc;
    // The user-error brand (src/errors.ts): every entry point prints it without a stack trace.
    brandUserError(this);
  }

  // Astro's hint heuristics scan toString() for words like "window" (a scenario file name may
  // contain one) and would replace our hint with an unrelated one about browser APIs.
  override toString(): string {
    return 'ScenarioError: the scenario corpus has errors';
  }
}

/**
 * The corpus's errors shaped for the dev overlay and terminal: the first error's file:line:column
 * and message as the title (the overlay shows that line of the scenario file), its closest lines
 * and fix, then every further error in full as the hint.
 */
export function corpusAstroError(root: string, e: CorpusError): ScenarioError {
  const [first, ...rest] = e.errors;
  const hint = [...(first!.detail ?? []), `fix: ${first!.fix}`];
  if (rest.length) hint.push('', `…and ${rest.length} more:`, ...rest.map(formatError));
  return new ScenarioError(
    `${first!.pos.file}:${first!.pos.line}:${first!.pos.col} ${first!.message}`,
    hint.join('\n'),
    {
      file: join(root, first!.pos.file),
      line: first!.pos.line,
      column: first!.pos.col,
    },
    e.message,
  );
}

/** A build-stopping report: the whole report as the message (the terminal shows it as is). */
export function buildError(message: string, hint = `Fix the scenario files named above; \`${runCommand('check')}\` prints the same report without building.`): ScenarioError {
  return new ScenarioError(message, hint);
}

/** A bad `explainer({…})` option as Astro's own user error (AstroUserError, `astro/errors`): the message and a hint, no stack trace. */
export function optionsError(message: string, hint: string): AstroError {
  const err = new AstroError(message, hint);
  err.name = 'OptionsError';
  err.stack = '';
  return brandUserError(err);
}

/**
 * A reference page's mistake — a `<RequestView>` naming no scenario or event, or a stale `find` —
 * as Astro's own error: the page and the component in the message, the fix as the hint, no stack
 * trace (Astro printed a plain Error's, and called it a runtime error in an MDX component).
 */
export function pageError(message: string, hint: string): AstroError {
  const err = new AstroError(message, hint);
  err.name = 'PageError';
  err.stack = '';
  return brandUserError(err);
}
