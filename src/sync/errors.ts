/**
 * The one error type of the sync: a problem the person running `npm run sync` can fix (missing dist,
 * bad target, rejected credentials, a failure that outlived its retries). The message says what is
 * wrong and what to do; the CLI prints it without a stack trace and exits 1.
 */
import { UserError } from '../errors.ts';

export class SyncError extends UserError {}
