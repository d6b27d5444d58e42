/**
 * The one user-facing error type. Every problem the person running a command can fix — a scenario
 * error, a bad option, a wrong flag, an unreachable sync target — is a UserError: its message says
 * what is wrong and how to fix it, and every entry point prints it without a stack trace.
 *
 * Recognised by a brand, not by `instanceof` or the error's `name`: Vite may load a module twice
 * (once for the config, once for the pages), and the two copies' classes differ, but a
 * `Symbol.for` key is the same in every copy.
 */
const BRAND = Symbol.for('prompt-fold-explainer/user-error');

export class UserError extends Error {
  /** What to do about it, when the message alone does not say (shown as Astro's hint). */
  readonly hint: string | undefined;

  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options.hint;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** True for a UserError from any copy of this module. */
  static is(err: unknown): err is UserError {
    return typeof err === 'object' && err !== null && (err as Record<symbol, unknown>)[BRAND] === true;
  }
}
