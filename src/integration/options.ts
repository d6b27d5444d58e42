/**
 * The explainer's options — the one object in astro.config.mjs that the build, the dev server and
 * every CLI read — and their resolution into a CorpusConfig: defaults filled in, fold ids and
 * fold module paths turned into fold values.
 */
import { UserError } from '../errors.ts';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILTIN_FOLDS } from '../folds/index.ts';
import type { AnyFold } from '../folds/types.ts';
import type { CorpusConfig } from '../scenarios/load.ts';
import { resolveEconomics, type EconomicsConfig, type EconomicsOptions } from '../economics/profiles.ts';

export interface ExplainerOptions {
  /** Scenario folder, relative to the project root. Default `scenarios`. */
  scenarios?: string;
  /** Fixture folder, relative to the project root. Default `fixtures`. */
  fixtures?: string;
  /** Folds available to scenarios: built-in ids and/or module paths (relative to the root) whose
   *  default export (or `fold` export) is a fold. Default: every built-in fold. */
  folds?: string[];
  /** Fold for scenarios without `fold:`. Default `context-protocol`. */
  defaultFold?: string;
  /** Instant that elapsed-time labels count from. Default `2026-08-24T16:41:00.000Z`. */
  timeZero?: string;
  /**
   * Git ref whose committed fixtures every request is compared with (pull-request review), e.g.
   * `origin/main`. The EXPLAINER_BASE environment variable, when set, takes precedence. Default: none.
   */
  baseRef?: string;
  /** Cache economics: provider profiles and prices added or overridden, model ids mapped to a
   *  profile (`{profiles, models, prefixes}`, see src/economics/profiles.ts). */
  economics?: EconomicsOptions;
}

export interface ExplainerConfig extends CorpusConfig {
  fixturesDir: string;
  /** The base ref to review against, if any (EXPLAINER_BASE, else the `baseRef` option). */
  baseRef?: string;
  economics: EconomicsConfig;
}

export const DEFAULT_TIME_ZERO = '2026-08-24T16:41:00.000Z';

/** A bad option in astro.config.mjs's `explainer({…})`. */
export class OptionsError extends UserError {}

async function loadFold(root: string, spec: string): Promise<AnyFold> {
  const builtin = BUILTIN_FOLDS.get(spec);
  if (builtin) return builtin;
  if (!/^\.{0,2}\//.test(spec) && !isAbsolute(spec)) {
    throw new OptionsError(
      `astro.config.mjs: unknown fold "${spec}" in explainer({folds}).\n  fix: use a built-in id (${[...BUILTIN_FOLDS.keys()].join(', ')}) or a module path starting with ./`,
    );
  }
  const file = resolve(root, spec);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (err) {
    throw new OptionsError(
      `astro.config.mjs: cannot import fold module ${spec}: ${(err as Error).message}\n  fix: check the path (relative to the project root) and that the module loads`,
    );
  }
  const fold = (mod.default ?? mod.fold) as AnyFold | undefined;
  const missing = ['id', 'title', 'defaults', 'eventTypes', 'requestTypes', 'validateOptions', 'validateEvent', 'abridgements', 'snapshots'].filter((k) => !fold || !(k in fold));
  if (missing.length) {
    throw new OptionsError(
      `${spec}: not a fold — missing ${missing.join(', ')}\n  fix: export default an object implementing the Fold interface (see "Bring your own fold" in the README)`,
    );
  }
  return fold!;
}

export async function resolveOptions(root: string, options: ExplainerOptions = {}): Promise<ExplainerConfig> {
  const folds = new Map<string, AnyFold>();
  for (const spec of options.folds ?? [...BUILTIN_FOLDS.keys()]) {
    const fold = await loadFold(root, spec);
    if (folds.has(fold.id)) throw new OptionsError(`astro.config.mjs: two folds share the id "${fold.id}"\n  fix: list each fold once; custom folds need their own id`);
    folds.set(fold.id, fold);
  }
  const defaultFold = options.defaultFold ?? 'context-protocol';
  if (!folds.has(defaultFold)) {
    throw new OptionsError(
      `astro.config.mjs: defaultFold "${defaultFold}" is not among the folds (${[...folds.keys()].join(', ')})\n  fix: add it to \`folds\` or pick one of those`,
    );
  }
  const timeZero = options.timeZero ?? DEFAULT_TIME_ZERO;
  if (Number.isNaN(Date.parse(timeZero))) throw new OptionsError(`astro.config.mjs: timeZero "${timeZero}" is not an ISO-8601 instant\n  fix: write e.g. "${DEFAULT_TIME_ZERO}"`);
  const baseRef = process.env.EXPLAINER_BASE || options.baseRef || undefined;
  const economics = resolveEconomics(options.economics);
  if (economics.problems.length) throw new OptionsError(economics.problems.map((p) => `astro.config.mjs: ${p}`).join('\n'));
  return {
    root,
    scenariosDir: options.scenarios ?? 'scenarios',
    fixturesDir: options.fixtures ?? 'fixtures',
    folds,
    defaultFold,
    timeZero,
    economics: economics.config,
    ...(baseRef && { baseRef }),
  };
}
