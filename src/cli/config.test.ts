/**
 * The command line reads the explainer's options from the host's astro config — `.mjs` or `.ts`,
 * `explainer({…})` in its integrations or the Starlight plugin's — and never falls back to the
 * defaults: no config, a config that does not load, or one without the explainer is an error.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../errors.ts';
import { project as projectFacts, setProject } from '../project.ts';
import { readExplainerOptions } from './config.ts';

const url = (p: string): string => JSON.stringify(pathToFileURL(resolve(import.meta.dirname, p)).href);
const dirs: string[] = [];
const project = (files: Record<string, string>): string => {
  const dir = mkdtempSync(join(tmpdir(), 'pfe-config-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
// Reading a config sets the process's project facts (src/project.ts) to that folder's: restore them.
const facts = projectFacts();
afterEach(() => setProject(facts));

const fails = async (dir: string): Promise<string> => {
  const err = await readExplainerOptions(dir).catch((e: unknown) => e);
  expect(UserError.is(err)).toBe(true);
  return (err as Error).message;
};

describe('readExplainerOptions', () => {
  it('reads explainer({…}) from astro.config.mjs', async () => {
    const dir = project({
      'astro.config.mjs': `import { explainer } from ${url('../package/index.ts')};\nexport default { integrations: [[explainer({ route: '/x/', scenarios: 'sc' })]] };\n`,
    });
    expect(await readExplainerOptions(dir)).toEqual({ route: '/x/', scenarios: 'sc' });
  });

  it('reads a .ts config, and the Starlight plugin’s options', async () => {
    const config = `import explainerStarlight from ${url('../package/starlight.ts')};\nconst plugins: unknown[] = [explainerStarlight({ route: '/docs/explainer/' })];\nexport default { integrations: [{ name: '@astrojs/starlight', plugins }] };\n`;
    expect(await readExplainerOptions(project({ 'astro.config.ts': config }))).toEqual({ route: '/docs/explainer/' });
  });

  it('is an error without a config, with a config that does not load, or without the explainer', async () => {
    expect(await fails(project({}))).toMatch(/^no astro config in .*\n {2}fix: run the command in the site's folder/);
    expect(await fails(project({ 'astro.config.mjs': "import './missing.mjs';\nexport default {};\n" }))).toMatch(/^astro\.config\.mjs: cannot load it: /);
    expect(await fails(project({ 'astro.config.mjs': 'export default { integrations: [] };\n' }))).toContain(
      'astro.config.mjs: no explainer({…}) among its integrations\n  fix: add it',
    );
  });
});
