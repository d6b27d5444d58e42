/**
 * A command's output file (`import --out`, `assert --output`, `vectors --out`), written whole or
 * not at all: to a temporary file beside it, then renamed over it, so a reader never sees half a
 * report. Its folder is made when missing. A path that names a folder, or a write the system
 * refuses (no permission, a full disk, a file where a folder belongs), is a UserError that names
 * the path — never a stack trace — and leaves nothing behind.
 */
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UserError } from './errors.ts';

/** How a command names its output file: as the user wrote it, the flag that named it, and a file name to suggest. */
export interface OutputNaming {
  shown: string;
  option: string;
  /** A file name for the fix when the path is a folder, e.g. `cache.xml`. */
  example: string;
}

/** The problem with writing a file at `target`, or undefined: a folder there. */
export function outputFileProblem(target: string, { shown, option, example }: OutputNaming): UserError | undefined {
  let folder = false;
  try {
    folder = statSync(target).isDirectory();
  } catch {
    return undefined; // not there yet: it will be written
  }
  return folder ? new UserError(`${option} ${shown} is a folder`, { fix: `give ${option} the path of a file, e.g. ${join(shown, example)}` }) : undefined;
}

/** Writes `text` to `target` whole (see the header); throws a UserError naming the path when it cannot. */
export function writeOutputFile(target: string, text: string, naming: OutputNaming): void {
  const problem = outputFileProblem(target, naming);
  if (problem) throw problem;
  const tmp = join(dirname(target), `.${basename(target)}.tmp-${process.pid}`);
  try {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(tmp, text);
    renameSync(tmp, target);
  } catch (err) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing was made there (its folder is not one)
    }
    throw new UserError(`cannot write ${naming.shown}: ${err instanceof Error ? err.message : String(err)}`, {
      fix: `give ${naming.option} a path in a folder you can write to`,
      cause: err,
    });
  }
}
