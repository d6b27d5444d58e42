/**
 * The explainer's options — the one object in astro.config.* that the build, the dev server and
 * every CLI read — checked against a zod schema (an unknown key or a wrong type is an OptionsError
 * naming the option and the fix), and their resolution into a CorpusConfig: defaults filled in,
 * fold ids, fold module paths and fold packages (`@acme/agent-fold`, resolved from the host
 * project) turned into fold values.
 */
import { UserError } from '../errors.ts';
import { configFile } from '../project.ts';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { checkFold } from '../folds/check.ts';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import type { AnyFold } from '../folds/types.ts';
import type { CorpusConfig } from '../scenarios/load.ts';
import { resolveEconomics, type EconomicsConfig, type EconomicsOptions } from '../economics/profiles.ts';
import { environment } from './environment.ts';

/** A plain URL path segment list, `/` or `/a/b/`. */
/** The fold of a scenario without `fold:` when the config names none and lists it (implicitDefault). */
const DEFAULT_FOLD = 'context-protocol';

const ROUTE = /^\/(?:[A-Za-z0-9._~-]+\/)*$/;

export const DEFAULT_TIME_ZERO = '2026-08-24T16:41:00.000Z';

/**
 * The default of the `pageWindow` option (render/page-window.ts): characters of printed
 * requests and event YAML a scenario page carries before it windows them — about twice the
 * bundled corpus's largest page (≈ 120,000), so no bundled page is windowed; a windowed page of it
 * is ≈ 100 KB gzip of HTML.
 */
export const DEFAULT_PAGE_WINDOW = 250_000;

/** A URL path, ending in `/` (written with or without it). */
const urlPath = (what: string) =>
  z
    .string()
    .transform((r) => (r.endsWith('/') ? r : `${r}/`))
    .refine((r) => ROUTE.test(r) && !r.split('/').some((s) => s === '.' || s === '..'), `must be a plain URL path such as ${what}`);

/**
 * The options: one schema with every default in it — `ExplainerOptions` (what a config writes) and
 * `ParsedOptions` (defaults filled in) are its input and output types, so there is no second list
 * to keep in step. Strict: a misspelt option is an error, not silently ignored.
 */
const fields = z.strictObject({
  scenarios: z.string().min(1).default('scenarios').describe('Scenario folder, relative to the project root.'),
  fixtures: z.string().min(1).default('fixtures').describe('Fixture folder, relative to the project root.'),
  folds: z
    .array(z.string().min(1))
    .min(1)
    .default(() => [...BUILTIN_FOLDS.keys()])
    .describe(
      'Folds available to scenarios: built-in ids, module paths (relative to the root) or installed packages whose default export (or `fold` export) is a fold. Default: every built-in fold.',
    ),
  defaultFold: z.string().min(1).optional().describe(`Fold for scenarios without \`fold:\`. Default: \`${DEFAULT_FOLD}\` when it is among \`folds\`, else the one fold listed.`),
  timeZero: z
    .string()
    .default(DEFAULT_TIME_ZERO)
    .refine((t) => !Number.isNaN(Date.parse(t)), `is not an ISO-8601 instant: write e.g. "${DEFAULT_TIME_ZERO}"`)
    .describe('Instant that elapsed-time labels count from.'),
  baseRef: z
    .string()
    .optional()
    .describe(
      'Git ref whose committed fixtures every request is compared with (pull-request review), e.g. `origin/main`. The EXPLAINER_BASE environment variable, when set, takes precedence.',
    ),
  economics: z
    .strictObject({
      profiles: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
      models: z.record(z.string(), z.string()).optional(),
      prefixes: z.record(z.string(), z.string()).optional(),
      families: z.record(z.string(), z.string()).optional(),
    })
    .optional()
    .describe('Cache economics: provider profiles and prices added or overridden, model ids mapped to a profile (`{profiles, models, prefixes, families}`).'),
  route: urlPath('"/" or "/explainer/"')
    .default('/')
    .describe("URL path the explainer's pages, data files and search index live under, below the site's `base`: `/` or e.g. `/explainer/`."),
  title: z.string().min(1).default('prompt-fold-explainer').describe("The site title the pages' own layout shows (not used inside Starlight)."),
  nav: z
    .array(z.strictObject({ label: z.string().min(1), href: z.string().min(1) }))
    .default([])
    .describe("Links before the explainer's own in the header of its own layout (e.g. back to the host's home)."),
  chrome: z
    .enum(['own', 'starlight'])
    .default('own')
    .describe("Whose page chrome the pages use: `own`, or `starlight` (set by the `prompt-fold-explainer/starlight` plugin: Starlight's header, sidebar, search and theme)."),
  search: z
    .boolean()
    .optional()
    .describe(
      "Build the explainer's own search page and index under the route. Default: true with its own chrome; inside Starlight, Starlight's search indexes the explainer's pages and there is no second index.",
    ),
  // Issue 41: long imported conversations. Read by render/scenario-data.ts through ExplainerConfig.
  pageWindow: z
    .number()
    .int()
    .positive()
    .default(DEFAULT_PAGE_WINDOW)
    .describe(
      "Characters of printed requests and event YAML (a scenario's size) beyond which its page is windowed: it prints the opening request and its neighbours up to this size, and fetches the rest in parts (same-origin JSON beside the page) when the reader selects them.",
    ),
  policyPages: z
    .array(urlPath('"/docs/"'))
    .default([])
    .describe("URL path prefixes of the host's own pages that get the Content-Security-Policy too (the explainer's pages always do); every other host page is left as built."),
});

export const optionsSchema = fields.transform((o) => ({ ...o, search: o.search ?? o.chrome === 'own' }));

/** The options as written in astro.config.* (every one optional). */
export type ExplainerOptions = z.input<typeof optionsSchema>;
/** The options with every default filled in. */
export type ParsedOptions = z.output<typeof optionsSchema>;
/** The page-level options the layouts read. */
export type PageOptions = Pick<ParsedOptions, 'route' | 'title' | 'nav' | 'chrome' | 'search'>;

/** Checks `options` against the schema: the parsed options, or an OptionsError listing every problem with its fix. */
export function parseOptions(options: unknown): ParsedOptions {
  const r = optionsSchema.safeParse(options ?? {});
  if (!r.success) {
    const known = Object.keys(fields.shape).join(', ');
    const lines = r.error.issues.map((i) => {
      const at = i.path.length ? i.path.join('.') : '(the options object)';
      if (i.code === 'unrecognized_keys') return `unknown option${i.keys.length > 1 ? 's' : ''} ${i.keys.map((k) => `"${k}"`).join(', ')}${i.path.length ? ` in ${at}` : ''}`;
      return `${at}: ${i.message}`;
    });
    throw new OptionsError(
      `${configFile()}: explainer({…}) has ${lines.length === 1 ? 'a bad option' : `${lines.length} bad options`}:\n${lines.map((l) => `  - ${l}`).join('\n')}`,
      {
        fix: `The options are: ${known}. See the README's "Options" table for each one's type.`,
      },
    );
  }
  return r.data;
}

export interface ExplainerConfig extends CorpusConfig {
  fixturesDir: string;
  /** The base ref to review against, if any (EXPLAINER_BASE, else the `baseRef` option). */
  baseRef?: string;
  economics: EconomicsConfig;
  /** The `pageWindow` option (absent: DEFAULT_PAGE_WINDOW). */
  pageWindow?: number;
}

/** A bad option in astro.config.*'s `explainer({…})`. */
export class OptionsError extends UserError {}

/** A fold spec that names a path (`./x.ts`, `../x`, `/abs`) rather than a package or a built-in id. */
export const isPathSpec = (spec: string): boolean => /^\.{0,2}\//.test(spec) || isAbsolute(spec);

/** An npm package name, optionally with a subpath: `agent-fold`, `@acme/agent-fold`, `@acme/agent-fold/fold`. */
const PACKAGE_SPEC = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(?:\/[A-Za-z0-9._~/-]+)?$/;

/** The file a fold spec names: a path relative to the root, or a package resolved from the root's node_modules. */
export function foldFile(root: string, spec: string): string {
  if (isPathSpec(spec)) return resolve(root, spec);
  if (!PACKAGE_SPEC.test(spec)) {
    throw new OptionsError(`${configFile()}: unknown fold "${spec}" in explainer({folds}).`, {
      fix: `use a built-in id (${[...BUILTIN_FOLDS.keys()].join(', ')}), a module path starting with ./, or an installed package name`,
    });
  }
  try {
    return createRequire(join(root, 'package.json')).resolve(spec);
  } catch {
    throw new OptionsError(`${configFile()}: unknown fold "${spec}" in explainer({folds}): it is not a built-in fold and no package "${spec}" is installed in ${root}`, {
      fix: `npm install ${spec.replace(/^((?:@[^/]+\/)?[^/]+).*$/, '$1')} (its default export must be a fold), or use a built-in id (${[...BUILTIN_FOLDS.keys()].join(', ')}) or a module path starting with ./`,
    });
  }
}

/** Why the fold module `spec` (at `file`) did not import, as the error the config reports. */
export function foldImportError(spec: string, file: string, err: unknown, node = process.version): OptionsError {
  // The fold author's own mistake (defineFold's, reported as a UserError): its problem and its fix.
  if (UserError.is(err)) return new OptionsError(`${configFile()}: fold module ${spec}: ${err.problem ?? err.message}`, { fix: err.fix ?? 'fix the fold module where it says' });
  // A TypeScript fold on a Node that does not strip types by default (before 22.18 and 23.6: nodejs.org/api/typescript.html, read 2026-12-07).
  if ((err as { code?: unknown }).code === 'ERR_UNKNOWN_FILE_EXTENSION' && /\.[cm]?ts$/.test(file))
    return new OptionsError(`${configFile()}: cannot import fold module ${spec}: this Node (${node}) does not run TypeScript files`, {
      fix: 'run the commands on Node 22.18 or later (23.6 or later on the 23 line), which strip types by default — or point `folds` at the fold compiled to JavaScript',
    });
  return new OptionsError(`${configFile()}: cannot import fold module ${spec}: ${(err as Error).message}`, {
    fix: `check the path (relative to the project root) and that the module loads`,
  });
}

async function loadFold(root: string, spec: string): Promise<AnyFold> {
  const builtin = BUILTIN_FOLDS.get(spec);
  if (builtin) return builtin;
  const file = foldFile(root, spec);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (err) {
    throw foldImportError(spec, file, err);
  }
  const fold = mod.default ?? mod.fold;
  const problems = checkFold(fold);
  if (problems.length) {
    throw new OptionsError(`${spec}: not a fold — ${problems.join('; ')}`, {
      fix: `export default an object implementing the Fold interface, e.g. made with defineFold from prompt-fold-explainer/kit (see "Bring your own fold" in the README)`,
    });
  }
  return fold as AnyFold;
}

/** The fold of a scenario without `fold:` when the config names none: the built-in default when listed, else the only fold. */
function implicitDefault(folds: ReadonlyMap<string, AnyFold>): string {
  if (folds.has(DEFAULT_FOLD)) return DEFAULT_FOLD;
  if (folds.size === 1) return [...folds.keys()][0]!;
  throw new OptionsError(
    `${configFile()}: which fold do scenarios without \`fold:\` use? \`folds\` lists ${folds.size} (${[...folds.keys()].join(', ')}) and not \`${DEFAULT_FOLD}\``,
    {
      fix: `set \`defaultFold\` to one of them`,
    },
  );
}

export async function resolveOptions(root: string, given: ExplainerOptions = {}): Promise<ExplainerConfig> {
  const options = parseOptions(given);
  const folds = new Map<string, AnyFold>();
  for (const spec of options.folds) {
    const fold = await loadFold(root, spec);
    if (folds.has(fold.id)) throw new OptionsError(`${configFile()}: two folds share the id "${fold.id}"`, { fix: `list each fold once; custom folds need their own id` });
    folds.set(fold.id, fold);
  }
  const defaultFold = options.defaultFold ?? implicitDefault(folds);
  if (!folds.has(defaultFold)) {
    throw new OptionsError(`${configFile()}: defaultFold "${defaultFold}" is not among the folds (${[...folds.keys()].join(', ')})`, {
      fix: `add it to \`folds\` or pick one of those`,
    });
  }
  const baseRef = environment().baseRef ?? options.baseRef;
  const economics = resolveEconomics(options.economics as EconomicsOptions | undefined);
  if (economics.problems.length) {
    // One problem reads as it is; several are numbered, each fix under its problem's number.
    const [only, ...more] = economics.problems;
    if (!more.length) throw new OptionsError(`${configFile()}: ${only!.problem}`, { fix: only!.fix });
    const n = (i: number): string => `(${i + 1}) `;
    throw new OptionsError(economics.problems.map((p, i) => `${configFile()}: ${n(i)}${p.problem}`).join('\n'), {
      fix: economics.problems.map((p, i) => `${n(i)}${p.fix}`).join('; '),
    });
  }
  return {
    root,
    scenariosDir: options.scenarios,
    fixturesDir: options.fixtures,
    folds,
    defaultFold,
    timeZero: options.timeZero,
    economics: economics.config,
    pageWindow: options.pageWindow,
    ...(baseRef && { baseRef }),
  };
}
