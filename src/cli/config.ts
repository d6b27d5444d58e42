/**
 * Reads the explainer options from astro.config.mjs (the one config) for the command-line tools,
 * so a CLI run and the site build always see the same folds, folders and time zero.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UserError } from '../errors.ts';
import { INTEGRATION_NAME } from '../integration/index.ts';
import { resolveOptions, type ExplainerConfig, type ExplainerOptions } from '../integration/options.ts';

export async function loadConfig(root = process.cwd()): Promise<ExplainerConfig> {
  const abs = resolve(root);
  const file = join(abs, 'astro.config.mjs');
  if (!existsSync(file)) return resolveOptions(abs, {});
  const config = (await import(pathToFileURL(file).href)).default as { integrations?: { name: string; explainerOptions?: ExplainerOptions }[] };
  const integration = config.integrations?.flat().find((i) => i?.name === INTEGRATION_NAME);
  return resolveOptions(abs, integration?.explainerOptions ?? {});
}

/** Runs a CLI main: prints errors plainly (no stack for input errors) and sets the exit code. */
// biome-ignore lint/suspicious/noConfusingVoidType: a main returns an exit code, or nothing for 0
export function runMain(main: () => Promise<number | void>): void {
  main().then(
    (code) => {
      process.exitCode = code ?? 0;
    },
    (err: Error) => {
      const known = UserError.is(err);
      console.error(known ? err.message : (err.stack ?? String(err)));
      process.exitCode = known ? 1 : 2;
    },
  );
}

/** A wrong flag or argument on the command line. */
export class UsageError extends UserError {}
