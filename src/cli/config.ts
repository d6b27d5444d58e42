/**
 * Reads the explainer options from the host's astro config (the one config: astro.config.mjs, .js,
 * .mts or .ts) for the command-line tools, so a CLI run and the site build always see the same
 * folds, folders and time zero. The options are those of `explainer({…})` in `integrations`, or of
 * the Starlight plugin (`prompt-fold-explainer/starlight`, which records them when the config
 * calls it). No config, a config that does not load, or one without the explainer is an error that
 * says so — never a silent fall back to the defaults, which would check a corpus the site does not build.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UserError } from '../errors.ts';
import { runCommand } from '../project.ts';
import { INTEGRATION_NAME, starlightOptions } from '../integration/options-record.ts';
import { CONFIG_FILES, useProject } from '../integration/project-facts.ts';
import type { ExplainerConfig, ExplainerOptions } from '../integration/options.ts';

export { CONFIG_FILES } from '../integration/project-facts.ts';

/** The explainer's options as written in the astro config at `root`. */
export async function readExplainerOptions(root: string): Promise<ExplainerOptions> {
  const name = CONFIG_FILES.find((f) => existsSync(join(root, f)));
  if (!name) {
    throw new UserError(`no astro config in ${root} (looked for ${CONFIG_FILES.join(', ')})`, {
      fix: `run the command in the site's folder (where astro.config.mjs is), with explainer({…}) in its integrations`,
    });
  }
  // The messages from here on name this project's commands and config file (src/project.ts).
  useProject(root);
  const before = starlightOptions().length;
  let config: { integrations?: unknown[] };
  try {
    const mod = (await import(pathToFileURL(join(root, name)).href)) as { default?: unknown };
    config = (typeof mod.default === 'function' ? await (mod.default as () => unknown)() : mod.default) as { integrations?: unknown[] };
  } catch (err) {
    throw new UserError(`${name}: cannot load it: ${(err as Error).message}`, {
      fix: `make \`astro build\` load it first (a .ts config needs Node 22.18 or later, which strips types)`,
    });
  }
  const integration = (config?.integrations ?? []).flat(Infinity).find((i) => (i as { name?: string } | null)?.name === INTEGRATION_NAME) as
    | { explainerOptions?: ExplainerOptions }
    | undefined;
  if (integration?.explainerOptions) return integration.explainerOptions;
  const fromStarlight = starlightOptions().slice(before);
  if (fromStarlight.length) return fromStarlight[fromStarlight.length - 1]!;
  throw new UserError(`${name}: no explainer({…}) among its integrations`, {
    fix: `add it — import { explainer } from 'prompt-fold-explainer' and list explainer({ scenarios: 'scenarios' }) in integrations (or the prompt-fold-explainer/starlight plugin in Starlight's plugins)`,
  });
}

export async function loadConfig(root = process.cwd()): Promise<ExplainerConfig> {
  const abs = resolve(root);
  const options = await readExplainerOptions(abs);
  // The schema and the fold registry load only for a command that reads the config: not for its usage line.
  const { resolveOptions } = await import('../integration/options.ts');
  return resolveOptions(abs, options);
}

/**
 * What runMain makes of a CLI main: its exit code (what it returns, 0 for nothing; 1 for a
 * UserError, 2 for anything else) and the text it prints for an error (a UserError's message, no
 * stack; anything else with its stack). Tests run a command's main in their own process with it.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a main returns an exit code, or nothing for 0
export async function mainOutcome(main: () => Promise<number | void>): Promise<{ code: number; error?: string }> {
  try {
    return { code: (await main()) ?? 0 };
  } catch (e) {
    const err = e as Error;
    const known = UserError.is(err);
    return { code: known ? 1 : 2, error: known ? err.message : (err.stack ?? String(err)) };
  }
}

/** Runs a CLI main: prints errors plainly (no stack for input errors) and sets the exit code (mainOutcome). */
// biome-ignore lint/suspicious/noConfusingVoidType: a main returns an exit code, or nothing for 0
export function runMain(main: () => Promise<number | void>): void {
  void mainOutcome(main).then(({ code, error }) => {
    if (error !== undefined) console.error(error);
    process.exitCode = code;
  });
}

/** A wrong flag or argument on the command line. */
export class UsageError extends UserError {}

/**
 * For a command that takes no arguments (but `allowed`): any other is a UsageError with `fix`, not
 * silently ignored — `fixtures --check` rewrote the fixtures it was meant to check, `check <file>`
 * checked every scenario and said nothing of the file.
 */
export function noOtherArguments(command: string, fix: string, allowed: readonly string[] = []): void {
  const other = process.argv.slice(2).find((a) => !allowed.includes(a));
  if (other === undefined) return;
  throw new UsageError(`${runCommand(command)} takes no ${other.startsWith('-') ? `option ${other}` : `argument (\`${other}\`)`}`, { fix });
}
