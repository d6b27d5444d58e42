/**
 * The explainer as an installed package, end to end (slow: two npm installs and three builds). The
 * project is packed (`npm pack`, which builds lib/ through `prepack`), and so is the example fold
 * (examples/folds/chat-log.ts, compiled to JavaScript as its own package `@acme/chat-log-fold`);
 * both tarballs are installed into a fresh plain Astro site and a fresh Starlight site, with pinned
 * versions from the npm registry (`--prefer-offline`: the npm cache first). Each host adds one line
 * to its config — `explainer({scenarios: 'scenarios', route: '/explainer/', folds: […]})`, or the
 * Starlight plugin with the same options — then `npx prompt-fold fixtures`, `check` and
 * `astro build` run there. Checked: the scenario pages (the example fold's too, named by its id)
 * under /explainer/scenarios/<id>/ beside the host's own home page, links and data files under the
 * route, the search index under the route and a search in a browser finding a scenario, Starlight's
 * chrome and sidebar group, and a stale anchor failing the host's build with the file:line error.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { childEnv, ROOT, serve } from './support/project.ts';

/** The versions the hosts pin (the ones this package is built and tested with). */
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; devDependencies: Record<string, string>; overrides: Record<string, string> };
const STARLIGHT = '0.42.4';

interface Run {
  status: number;
  output: string;
}

/**
 * Runs a command to its end (async, so the two installs overlap); the node of this project first on
 * PATH. `developer`: without the CI variable, as a developer runs it in their host site — the tests
 * themselves may run in CI, where `prompt-fold fixtures` refuses (tests/check-new-scenario.test.ts).
 */
function run(cmd: string, args: string[], cwd: string, { developer = false } = {}): Promise<Run> {
  return new Promise((done) => {
    const env = childEnv({ PATH: `${join(ROOT, 'node_modules/.bin')}:${process.env.PATH}` });
    if (developer) delete env.CI;
    const child = spawn(cmd, args, { cwd, env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) => done({ status: status ?? 1, output }));
  });
}

async function ok(cmd: string, args: string[], cwd: string, options: { developer?: boolean } = {}): Promise<string> {
  const r = await run(cmd, args, cwd, options);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${r.output}`);
  return r.output;
}

let tmp: string;
const sites = { astro: '', starlight: '' };

/** The example fold as its own npm package: the TypeScript compiled, its kit import pointed at the installed package. */
async function packFold(): Promise<string> {
  const dir = join(tmp, 'chat-log-fold');
  mkdirSync(dir);
  const source = readFileSync(join(ROOT, 'examples/folds/chat-log.ts'), 'utf8');
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023, verbatimModuleSyntax: true } }).outputText;
  writeFileSync(join(dir, 'index.js'), js.replace(/(['"])(?:\.\.\/)+src\/folds\/[a-z-]+\.ts\1/g, "'prompt-fold-explainer/kit'"));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: '@acme/chat-log-fold',
      version: '1.0.0',
      type: 'module',
      exports: { '.': './index.js' },
      peerDependencies: { 'prompt-fold-explainer': `^${PKG.version}`, zod: '^4' },
    }),
  );
  await ok('npm', ['pack', '--pack-destination', tmp], dir);
  return join(tmp, 'acme-chat-log-fold-1.0.0.tgz');
}

const OPTIONS = `{ scenarios: 'scenarios', route: '/explainer/', folds: ['context-protocol', '@acme/chat-log-fold'] }`;

/** A fresh host site: its package.json (pinned versions and the two tarballs), its own home page or docs, three scenarios. */
function makeSite(kind: 'astro' | 'starlight', explainerTgz: string, foldTgz: string): string {
  const dir = join(tmp, kind);
  mkdirSync(join(dir, 'scenarios'), { recursive: true });
  for (const f of ['01-birth-window.yaml', '02-sent-re-add.yaml']) cpSync(join(ROOT, 'scenarios', f), join(dir, 'scenarios', f));
  cpSync(join(ROOT, 'examples/scenarios/chat-log.yaml'), join(dir, 'scenarios/chat-log.yaml'));
  const deps: Record<string, string> = {
    astro: PKG.devDependencies.astro!,
    '@astrojs/mdx': PKG.devDependencies['@astrojs/mdx']!,
    'prompt-fold-explainer': `file:${explainerTgz}`,
    '@acme/chat-log-fold': `file:${foldTgz}`,
  };
  if (kind === 'starlight') deps['@astrojs/starlight'] = STARLIGHT;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `host-${kind}`, private: true, type: 'module', dependencies: deps, overrides: PKG.overrides }, null, 2));
  if (kind === 'astro') {
    mkdirSync(join(dir, 'src/pages'), { recursive: true });
    writeFileSync(join(dir, 'src/pages/index.astro'), '---\n---\n<html lang="en"><head><title>Host home</title></head><body><h1>The host’s own home page</h1></body></html>\n');
    writeFileSync(
      join(dir, 'astro.config.mjs'),
      `import { defineConfig } from 'astro/config';\nimport { explainer } from 'prompt-fold-explainer';\n\nexport default defineConfig({ integrations: [explainer(${OPTIONS})] });\n`,
    );
  } else {
    mkdirSync(join(dir, 'src/content/docs'), { recursive: true });
    // Starlight's pages link /favicon.svg (a new Starlight site has one).
    mkdirSync(join(dir, 'public'));
    cpSync(join(ROOT, 'public/favicon.svg'), join(dir, 'public/favicon.svg'));
    writeFileSync(join(dir, 'src/content/docs/index.md'), '---\ntitle: Acme docs home\n---\n\nThe host’s own home page.\n');
    writeFileSync(
      join(dir, 'src/content.config.ts'),
      "import { defineCollection } from 'astro:content';\nimport { docsLoader } from '@astrojs/starlight/loaders';\nimport { docsSchema } from '@astrojs/starlight/schema';\n\nexport const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };\n",
    );
    // A .ts config: the command line reads it as the build does.
    writeFileSync(
      join(dir, 'astro.config.ts'),
      `import { defineConfig } from 'astro/config';\nimport starlight from '@astrojs/starlight';\nimport explainerStarlight from 'prompt-fold-explainer/starlight';\n\nexport default defineConfig({ integrations: [starlight({ title: 'Acme docs', plugins: [explainerStarlight(${OPTIONS})] })] });\n`,
    );
  }
  return dir;
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'pfe-package-'));
  await ok('npm', ['pack', '--pack-destination', tmp], ROOT);
  const explainerTgz = join(tmp, `prompt-fold-explainer-${PKG.version}.tgz`);
  const foldTgz = await packFold();
  sites.astro = makeSite('astro', explainerTgz, foldTgz);
  sites.starlight = makeSite('starlight', explainerTgz, foldTgz);
  await Promise.all(Object.values(sites).map((dir) => ok('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], dir)));
}, 900_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Every HTML file under `dir`, as URL paths. */
const htmlPages = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.html'))
    .map((f) => `/${f.replace(/index\.html$/, '')}`)
    .sort();

describe.each(['astro', 'starlight'] as const)('installed in a fresh %s site', (kind) => {
  const dir = (): string => sites[kind];
  const page = (path: string): string => readFileSync(join(dir(), 'dist', path, 'index.html'), 'utf8');

  it('ships JavaScript (and declarations) only: no .ts module in the installed package, a bin', () => {
    const pkg = join(dir(), 'node_modules/prompt-fold-explainer');
    const files = readdirSync(pkg, { recursive: true, encoding: 'utf8' });
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('examples/'))).toEqual([]);
    expect(files).toContain('lib/package/index.d.ts'); // typed for a host's astro.config.ts
    expect(files.some((f) => f.endsWith('.test.js'))).toBe(false);
    expect(existsSync(join(dir(), 'node_modules/.bin/prompt-fold'))).toBe(true);
  });

  it('writes the fixtures and checks the corpus with npx prompt-fold, reading the host config', { timeout: 120_000 }, async () => {
    // A developer writes the fixtures (in CI the command refuses, and only `check` runs).
    const fixtures = await ok('npx', ['prompt-fold', 'fixtures'], dir(), { developer: true });
    expect(fixtures).toContain('3 scenarios: 3 written');
    expect(readdirSync(join(dir(), 'fixtures')).sort()).toEqual(['01-birth-window.md', '02-sent-re-add.md', 'chat-log.md']);
    expect(await ok('npx', ['prompt-fold', 'check'], dir())).toContain('ok: 3 scenarios');
    const report = JSON.parse(await ok('npx', ['prompt-fold', 'report', '--json'], dir())) as { scenarios: { id: string }[] };
    expect(report.scenarios.map((s) => s.id).sort()).toEqual(['birth-window', 'chat-log', 'sent-re-add']);
  });

  it('builds the explainer under /explainer/ beside the host’s own home page', { timeout: 300_000 }, async () => {
    await ok('npx', ['astro', 'build'], dir());
    const pages = htmlPages(join(dir(), 'dist'));
    for (const p of [
      '/',
      '/explainer/',
      '/explainer/scenarios/birth-window/',
      '/explainer/scenarios/sent-re-add/',
      '/explainer/scenarios/chat-log/',
      '/explainer/search/',
      '/explainer/playground/',
    ]) {
      expect(pages, p).toContain(p);
    }
    // Nothing of the explainer outside its route.
    expect(pages.filter((p) => p !== '/' && p !== '/404.html' && !p.startsWith('/explainer/'))).toEqual([]);
    expect(page('/')).toContain(kind === 'astro' ? 'The host’s own home page' : 'Acme docs home');
    // The example fold, from its npm package, rendered its scenario.
    const chat = page('/explainer/scenarios/chat-log/');
    expect(chat).toContain('fold: chat-log');
    expect(chat).toContain('You are a terse assistant');
    // Links and the page's data file live under the route.
    const sent = page('/explainer/scenarios/sent-re-add/');
    expect(sent).toContain('data-src="/explainer/scenarios/sent-re-add/data.json"');
    expect(sent).toContain('href="/explainer/scenarios/birth-window/"');
    expect(existsSync(join(dir(), 'dist/explainer/scenarios/sent-re-add/data.json'))).toBe(true);
    expect(existsSync(join(dir(), 'dist/explainer/playground/corpus.json'))).toBe(true);
    expect(existsSync(join(dir(), 'dist/explainer/pagefind/pagefind-ui.js'))).toBe(true);
    if (kind === 'starlight') {
      // Starlight's chrome around the explainer's page, and its sidebar group listing the scenarios.
      expect(sent).toMatch(/<title>[^<]*\| Acme docs<\/title>/);
      expect(sent).toContain('data-pagefind-body');
      for (const id of ['birth-window', 'sent-re-add', 'chat-log']) expect(page('/')).toContain(`href="/explainer/scenarios/${id}/"`);
      expect(existsSync(join(dir(), 'dist/pagefind/pagefind.js'))).toBe(true); // Starlight's own search, untouched
    } else {
      expect(sent).toContain('<a class="brand" href="/explainer/">prompt-fold-explainer</a>');
      expect(sent).not.toContain('favicon.svg'); // the host has none: no link to a missing file
    }
  });

  it('finds a scenario by a word of its prompt in the search page under the route', { timeout: 120_000 }, async () => {
    const site = await serve(join(dir(), 'dist'));
    const browser = await launchBrowser();
    try {
      const tab = await browser.newPage();
      await tab.goto(`${site.url}/explainer/search/`);
      await tab.locator('#search input').fill('staging');
      await expect
        .poll(() => tab.locator('.pagefind-ui__result-link').evaluateAll((as) => as.map((a) => a.getAttribute('href'))), { timeout: 20_000 })
        .toContain('/explainer/scenarios/sent-re-add/');
      // Nothing the pages link is missing (a browser asks for /favicon.ico of its own accord).
      expect(site.requests.filter((r) => r.status === 404 && r.path !== '/favicon.ico')).toEqual([]);
    } finally {
      await browser.close();
      await site.close();
    }
  });

  it('fails the host’s build on a stale anchor, naming the file and line', { timeout: 300_000 }, async () => {
    const file = join(dir(), 'scenarios/02-sent-re-add.yaml');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('find: "can you just run the migration on staging?"', 'find: "text the prompt never had"'));
    try {
      const r = await run('npx', ['astro', 'build'], dir());
      expect(r.status).not.toBe(0);
      expect(r.output).toMatch(/scenarios\/02-sent-re-add\.yaml:\d+:\d+ error: /);
      expect(r.output).toContain('text the prompt never had');
      expect(r.output).not.toMatch(/^\s+at .*\(file:/m); // no stack trace
    } finally {
      writeFileSync(file, text);
    }
  });
});
