/**
 * The integration's options resolve into the one config every entry point reads: the base ref for
 * review comes from EXPLAINER_BASE first, then the `baseRef` option, else none; bad options are
 * OptionsErrors that say the fix — checked by the zod schema (unknown options, wrong types, a bad
 * route), shown by the integration as Astro's own user error with a hint; fold packages and fold
 * modules are checked as folds.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AstroError } from 'astro/errors';
import { UserError } from '../errors.ts';
import { explainer } from './index.ts';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { environment } from './environment.ts';
import { foldImportError, OptionsError, parseOptions, resolveOptions, type ExplainerOptions, type ParsedOptions } from './options.ts';

const root = process.cwd();

describe('resolveOptions', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('has no base ref by default', async () => {
    vi.stubEnv('EXPLAINER_BASE', '');
    expect((await resolveOptions(root, {})).baseRef).toBeUndefined();
  });

  it('takes the baseRef option', async () => {
    vi.stubEnv('EXPLAINER_BASE', '');
    expect((await resolveOptions(root, { baseRef: 'origin/main' })).baseRef).toBe('origin/main');
  });

  it('lets EXPLAINER_BASE override the option (CI sets it per pull request)', async () => {
    vi.stubEnv('EXPLAINER_BASE', 'abc1234');
    expect((await resolveOptions(root, { baseRef: 'origin/main' })).baseRef).toBe('abc1234');
  });

  it('reads the environment’s overrides in one place; an empty variable is unset', () => {
    vi.stubEnv('EXPLAINER_BASE', '');
    vi.stubEnv('EXPLAINER_SITE_BASE', '/previews/pr-1/');
    expect(environment()).toEqual({ siteBase: '/previews/pr-1/' });
  });

  it('reports a default fold that is not registered as a user error with the fix', async () => {
    const err = await resolveOptions(root, { folds: ['layered'], defaultFold: 'context-protocol' }).catch((e: unknown) => e);
    expect(UserError.is(err)).toBe(true);
    expect((err as Error).message).toContain('fix: add it to `folds` or pick one of those');
  });

  it('without defaultFold: the built-in default when listed, else the only fold listed, else an error that asks which', async () => {
    expect((await resolveOptions(root, {})).defaultFold).toBe('context-protocol');
    expect((await resolveOptions(root, { folds: ['layered', 'context-protocol'] })).defaultFold).toBe('context-protocol');
    // A host that lists only its own fold needs no second line naming it.
    expect((await resolveOptions(root, { folds: ['layered'] })).defaultFold).toBe('layered');
    const err = await resolveOptions(root, { folds: ['layered', 'requests'] }).catch((e: unknown) => e);
    expect(UserError.is(err)).toBe(true);
    expect((err as Error).message).toContain('which fold do scenarios without `fold:` use? `folds` lists 2 (layered, requests) and not `context-protocol`');
    expect((err as Error).message).toContain('fix: set `defaultFold` to one of them');
  });
});

describe('the options schema', () => {
  it('fills every default from the schema itself', () => {
    const all: ParsedOptions = {
      scenarios: 'scenarios',
      fixtures: 'fixtures',
      folds: [...BUILTIN_FOLDS.keys()],
      timeZero: '2026-08-24T16:41:00.000Z',
      route: '/',
      title: 'prompt-fold-explainer',
      nav: [],
      chrome: 'own',
      search: true,
      pageWindow: 250_000,
      policyPages: [],
    };
    expect(parseOptions({})).toEqual(all);
    expect(parseOptions({ route: '/explainer' }).route).toBe('/explainer/');
    expect(parseOptions({ policyPages: ['/docs'] }).policyPages).toEqual(['/docs/']);
    expect(parseOptions({ pageWindow: 40_000 }).pageWindow).toBe(40_000);
    expect(() => parseOptions({ pageWindow: 0 })).toThrow(/pageWindow/);
  });

  it('has no search of its own inside Starlight (Starlight’s indexes the pages), unless asked', () => {
    expect(parseOptions({ chrome: 'starlight' }).search).toBe(false);
    expect(parseOptions({ chrome: 'starlight', search: true }).search).toBe(true);
    expect(parseOptions({ search: false }).search).toBe(false);
  });

  it('names a bad time zero and a bad policy page prefix with what to write', () => {
    const err = catchError(() => parseOptions({ timeZero: 'noon', policyPages: ['docs/../x'] }));
    expect(err.message).toContain('- timeZero: is not an ISO-8601 instant: write e.g. "2026-08-24T16:41:00.000Z"');
    expect(err.message).toContain('- policyPages.0: must be a plain URL path such as "/docs/"');
  });

  it('names an unknown option and lists the known ones in the fix', () => {
    const err = catchError(() => parseOptions({ scenario: 'scenarios' }));
    expect(err).toBeInstanceOf(OptionsError);
    expect(err.message).toContain('unknown option "scenario"');
    expect((err as OptionsError).fix).toContain('The options are: scenarios, fixtures, folds');
  });

  it('names a wrong type and a bad route, every problem at once', () => {
    const err = catchError(() => parseOptions({ folds: 'layered', route: '/../x/', search: 'yes' }));
    expect(err.message).toContain('3 bad options');
    expect(err.message).toMatch(/- folds: .*array/);
    expect(err.message).toContain('- route: must be a plain URL path such as "/" or "/explainer/"');
    expect(err.message).toMatch(/- search: .*boolean/);
  });

  it('is an AstroUserError with the hint when the integration starts, never a stack trace', async () => {
    const hooks = explainer({ route: 'x y' } as ExplainerOptions).hooks;
    const setup = hooks['astro:config:setup'] as (p: unknown) => Promise<void>;
    const err = (await setup({ config: { root: new URL(`file://${root}/`) }, command: 'build' }).catch((e: unknown) => e)) as AstroError;
    expect(err).toBeInstanceOf(AstroError);
    expect(err.name).toBe('OptionsError');
    expect(err.message).toContain('route: must be a plain URL path');
    expect(err.hint).toContain('The options are:');
    expect(err.stack).toBe('');
  });

  it('a TypeScript fold on a Node that cannot run it says which Node to use, not only Node’s "Unknown file extension"', () => {
    // Node 20 (and 22.12–22.17) throw this for a .ts module: what the import gives on those versions.
    const unknown = Object.assign(new TypeError('Unknown file extension ".ts" for /site/folds/my-fold.ts'), { code: 'ERR_UNKNOWN_FILE_EXTENSION' });
    const err = foldImportError('./folds/my-fold.ts', '/site/folds/my-fold.ts', unknown, 'v20.19.0');
    expect(err.message).toContain('cannot import fold module ./folds/my-fold.ts: this Node (v20.19.0) does not run TypeScript files');
    expect(err.message).toContain(
      'fix: run the commands on Node 22.18 or later (23.6 or later on the 23 line), which strip types by default — or point `folds` at the fold compiled to JavaScript',
    );
    // Any other import failure keeps Node's own message and the path check.
    const other = foldImportError('./folds/my-fold.js', '/site/folds/my-fold.js', new Error('Cannot find module x'));
    expect(other.message).toContain('cannot import fold module ./folds/my-fold.js: Cannot find module x');
  });

  it('says to install a fold package that is not installed', async () => {
    const err = await resolveOptions(root, { folds: ['@acme/no-such-fold'], defaultFold: 'context-protocol' }).catch((e: unknown) => e);
    expect(UserError.is(err)).toBe(true);
    expect((err as Error).message).toContain('no package "@acme/no-such-fold" is installed');
    expect((err as Error).message).toContain('fix: npm install @acme/no-such-fold');
  });

  it('passes on a fold author’s own mistake, with its fix, when the module throws it as it loads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pfe-fold-'));
    try {
      const kit = JSON.stringify(pathToFileURL(join(import.meta.dirname, '../folds/define.ts')).href);
      writeFileSync(join(dir, 'bad-fold.ts'), `import { defineFold } from ${kit};\nexport default defineFold({ id: 'bad', requestTypes: ['send'], payloads: {} } as never);\n`);
      const err = await resolveOptions(dir, { folds: ['./bad-fold.ts'], defaultFold: 'context-protocol' }).catch((e: unknown) => e);
      expect(UserError.is(err)).toBe(true);
      expect((err as UserError).problem).toMatch(/: fold module \.\/bad-fold\.ts: defineFold\(bad\): request types send have no payload schema$/);
      expect((err as UserError).fix).toBe('add a zod schema for `send` to `payloads` (a request is an event, validated like the others), or remove it from `requestTypes`');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a module whose export is not a fold, naming what is missing', async () => {
    const err = await resolveOptions(root, { folds: ['./src/folds/hooks.ts'] }).catch((e: unknown) => e);
    expect(UserError.is(err)).toBe(true);
    expect((err as Error).message).toContain("./src/folds/hooks.ts: not a fold — the module's default export (or `fold` export) is undefined");
  });
});

function catchError(fn: () => unknown): Error & { hint?: string } {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
}
