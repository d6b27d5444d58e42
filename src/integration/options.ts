/**
 * The explainer's options — the one object in astro.config.mjs that the build, the dev server and
 * every CLI read — checked against a zod schema (an unknown key or a wrong type is an OptionsError
 * naming the option and the fix), and their resolution into a CorpusConfig: defaults filled in,
 * fold ids, fold module paths and fold packages (`@acme/agent-fold`, resolved from the host
 * project) turned into fold values.
 */
import { UserError } from '../errors.ts';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { checkFold } from '../folds/check.ts';
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
   *  profile (`{profiles, models, prefixes, families}`, see src/economics/profiles.ts). */
  economics?: EconomicsOptions;
  /** URL path the explainer's pages, data files and search index live under, below the site's
   *  `base`: `/` (default) or e.g. `/explainer/`. */
  route?: string;
  /** The site title the pages' own layout shows (not used inside Starlight). Default `prompt-fold-explainer`. */
  title?: string;
  /** Links before the explainer's own in the header of its own layout (e.g. back to the host's home). */
  nav?: { label: string; href: string }[];
  /** Whose page chrome the pages use: `own` (default), or `starlight` (set by the
   *  `prompt-fold-explainer/starlight` plugin: Starlight's header, sidebar, search and theme). */
  chrome?: 'own' | 'starlight';
  /** Build the offline search index under the route after `astro build` (pagefind). Default true. */
  search?: boolean;
}

/** A plain URL path segment list, `/` or `/a/b/`. */
const ROUTE = /^\/(?:[A-Za-z0-9._~-]+\/)*$/;

/** The options' schema: strict, so a misspelt option is an error, not silently ignored. */
export const optionsSchema = z.strictObject({
  scenarios: z.string().min(1).optional(),
  fixtures: z.string().min(1).optional(),
  folds: z.array(z.string().min(1)).min(1).optional(),
  defaultFold: z.string().min(1).optional(),
  timeZero: z.string().optional(),
  baseRef: z.string().optional(),
  economics: z
    .strictObject({
      profiles: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
      models: z.record(z.string(), z.string()).optional(),
      prefixes: z.record(z.string(), z.string()).optional(),
      families: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  route: z
    .string()
    .transform((r) => (r.endsWith('/') ? r : `${r}/`))
    .refine((r) => ROUTE.test(r) && !r.split('/').some((s) => s === '.' || s === '..'), 'must be a plain URL path such as "/" or "/explainer/"')
    .optional(),
  title: z.string().min(1).optional(),
  nav: z.array(z.strictObject({ label: z.string().min(1), href: z.string().min(1) })).optional(),
  chrome: z.enum(['own', 'starlight']).optional(),
  search: z.boolean().optional(),
});

/** The options with the layout-level defaults filled in (what the pages read). */
export interface PageOptions {
  route: string;
  title: string;
  nav: { label: string; href: string }[];
  chrome: 'own' | 'starlight';
  search: boolean;
}

/** Checks `options` against the schema: the parsed options, or an OptionsError listing every problem with its fix. */
export function parseOptions(options: unknown): ExplainerOptions & PageOptions {
  const r = optionsSchema.safeParse(options ?? {});
  if (!r.success) {
    const known = Object.keys(optionsSchema.shape).join(', ');
    const lines = r.error.issues.map((i) => {
      const at = i.path.length ? i.path.join('.') : '(the options object)';
      if (i.code === 'unrecognized_keys') return `unknown option${i.keys.length > 1 ? 's' : ''} ${i.keys.map((k) => `"${k}"`).join(', ')}${i.path.length ? ` in ${at}` : ''}`;
      return `${at}: ${i.message}`;
    });
    throw new OptionsError(
      `astro.config.mjs: explainer({…}) has ${lines.length === 1 ? 'a bad option' : `${lines.length} bad options`}:\n${lines.map((l) => `  - ${l}`).join('\n')}`,
      {
        hint: `The options are: ${known}. See the README's "Options" table for each one's type.`,
      },
    );
  }
  const o = r.data as ExplainerOptions;
  return { ...o, route: o.route ?? '/', title: o.title ?? 'prompt-fold-explainer', nav: o.nav ?? [], chrome: o.chrome ?? 'own', search: o.search ?? true };
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

/** A fold spec that names a path (`./x.ts`, `../x`, `/abs`) rather than a package or a built-in id. */
export const isPathSpec = (spec: string): boolean => /^\.{0,2}\//.test(spec) || isAbsolute(spec);

/** An npm package name, optionally with a subpath: `agent-fold`, `@acme/agent-fold`, `@acme/agent-fold/fold`. */
const PACKAGE_SPEC = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(?:\/[A-Za-z0-9._~/-]+)?$/;

/** The file a fold spec names: a path relative to the root, or a package resolved from the root's node_modules. */
export function foldFile(root: string, spec: string): string {
  if (isPathSpec(spec)) return resolve(root, spec);
  if (!PACKAGE_SPEC.test(spec)) {
    throw new OptionsError(
      `astro.config.mjs: unknown fold "${spec}" in explainer({folds}).\n  fix: use a built-in id (${[...BUILTIN_FOLDS.keys()].join(', ')}), a module path starting with ./, or an installed package name`,
    );
  }
  try {
    return createRequire(join(root, 'package.json')).resolve(spec);
  } catch {
    throw new OptionsError(
      `astro.config.mjs: unknown fold "${spec}" in explainer({folds}): it is not a built-in fold and no package "${spec}" is installed in ${root}\n  fix: npm install ${spec.replace(/^((?:@[^/]+\/)?[^/]+).*$/, '$1')} (its default export must be a fold), or use a built-in id (${[...BUILTIN_FOLDS.keys()].join(', ')}) or a module path starting with ./`,
    );
  }
}

async function loadFold(root: string, spec: string): Promise<AnyFold> {
  const builtin = BUILTIN_FOLDS.get(spec);
  if (builtin) return builtin;
  const file = foldFile(root, spec);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (err) {
    throw new OptionsError(
      `astro.config.mjs: cannot import fold module ${spec}: ${(err as Error).message}\n  fix: check the path (relative to the project root) and that the module loads`,
    );
  }
  const fold = mod.default ?? mod.fold;
  const problems = checkFold(fold);
  if (problems.length) {
    throw new OptionsError(
      `${spec}: not a fold — ${problems.join('; ')}\n  fix: export default an object implementing the Fold interface, e.g. made with defineFold from prompt-fold-explainer/kit (see "Bring your own fold" in the README)`,
    );
  }
  return fold as AnyFold;
}

export async function resolveOptions(root: string, given: ExplainerOptions = {}): Promise<ExplainerConfig> {
  const options = parseOptions(given);
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
