/**
 * The one user-facing error type. Every problem the person running a command can fix — a scenario
 * error, a bad option, a wrong flag, an unreachable sync target — is a UserError: what is wrong
 * (`problem`) and how to fix it (`fix`, its own field), and every entry point prints it without a
 * stack trace. Its message is the two as the user reads them — `what is wrong`, then
 * `  fix: how` on the next line — written here once, so no caller formats a fix into its text.
 *
 * Recognised by a brand, not by `instanceof` or the error's `name`: Vite may load a module twice
 * (once for the config, once for the pages), and the two copies' classes differ, but a
 * `Symbol.for` key is the same in every copy. An error that must be another library's type (Astro's
 * own, src/integration/astro-error.ts) carries the same brand through `brandUserError`.
 */
const BRAND = Symbol.for('prompt-fold-explainer/user-error');

/** Marks `err` as a user error (printed without a stack trace by every entry point); returns it. */
export function brandUserError<E extends Error>(err: E): E {
  Object.defineProperty(err, BRAND, { value: true });
  return err;
}

export class UserError extends Error {
  /** What is wrong, without the fix. */
  readonly problem: string;
  /** What to do about it, when the problem alone does not say (Astro shows it as the hint). */
  readonly fix: string | undefined;

  constructor(problem: string, options: { fix?: string; cause?: unknown } = {}) {
    super(options.fix === undefined ? problem : `${problem}\n  fix: ${options.fix}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.problem = problem;
    this.fix = options.fix;
    brandUserError(this);
  }

  /** True for a UserError from any copy of this module. */
  static is(err: unknown): err is UserError {
    return typeof err === 'object' && err !== null && (err as Record<symbol, unknown>)[BRAND] === true;
  }
}
