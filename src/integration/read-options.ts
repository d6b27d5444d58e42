/**
 * The setup hook's first job: the host's `explainer({…})` options checked against their schema
 * (options.ts) and resolved into the corpus they describe — defaults filled in, folds loaded. A bad
 * option stops Astro as its own user error (astro-error.ts), naming the option and the config file,
 * never with a stack trace.
 */
import { UserError } from '../errors.ts';
import { configFile } from '../project.ts';
import { optionsError } from './astro-error.ts';
import { parseOptions, resolveOptions, type ExplainerConfig, type ExplainerOptions, type ParsedOptions } from './options.ts';

export interface ReadOptions {
  /** The options with their defaults: what the pages are given. */
  page: ParsedOptions;
  /** The corpus they describe: what the checks and the pages render. */
  corpus: ExplainerConfig;
}

export async function readOptions(root: string, options: ExplainerOptions): Promise<ReadOptions> {
  try {
    const page = parseOptions(options);
    return { page, corpus: await resolveOptions(root, options) };
  } catch (err) {
    if (UserError.is(err)) throw optionsError(err.problem, err.fix ?? `Fix the option named above in ${configFile()} → explainer({…}).`);
    throw err;
  }
}
