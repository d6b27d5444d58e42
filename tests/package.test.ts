/**
 * The explainer as an installed package, end to end (slow: one npm install and, per host, one
 * build plus one that fails). The project is packed once per run (sharedPackage(): `prepack`'s
 * package build, then `npm pack`; tests/package-contents.test.ts reads the same tarball), and so are the fold packages (FOLD_PACKAGES: the example fold, examples/folds/
 * chat-log.ts, compiled to JavaScript as `@acme/chat-log-fold`, and a team's asynchronous fold on
 * the AI SDK 7, tests/fixtures/ai-sdk-fold, as `@acme/ai-sdk-fold`); the tarballs are installed into a
 * fresh Starlight site, with pinned versions from the npm registry (`--prefer-offline`: the npm cache
 * first), and a fresh plain Astro site uses that install (one `npm install` instead of two: most of
 * an install's time is the Astro both need): its node_modules is a folder of its own whose entries
 * link to the Starlight site's, with its own caches (.astro, .vite), and while the plain site's tests
 * run Starlight itself is moved out of the install — neither the site nor the package can resolve
 * it (checked), as in a host that never installed it. (That the package imports nothing it does not
 * declare, which Starlight's own dependencies could hide here, is tests/package-contents.test.ts's
 * check.) Each host adds one line to its config —
 * `explainer({scenarios: 'scenarios', route: '/explainer/', folds: […]})`, or the Starlight plugin
 * with the same options — then `npx prompt-fold fixtures`, `check` and `astro build` run there.
 * Checked: a first `check` before the scenario folder exists (a notice naming the host's real
 * config file, exit 0); a fold that throws on one event reported at that scenario's file:line:col
 * and event with the fold's own frame, and no other error; the scenario pages (the fold packages' too, named by their ids) under
 * /explainer/scenarios/<id>/ beside the host's own pages, links and data files under the route;
 * the integration touches only its own pages — every host page, one without <head> included, is
 * byte for byte what the host built (a snapshot integration listed first in the host's config
 * copies the pages before the explainer's build hook runs); one <h1> per page; no broken internal
 * link; one search index (the explainer's own under the route, or inside Starlight Starlight's,
 * found by a search in a browser); the request pane at least 560 px wide at a 1400 px viewport
 * (measured in the browser); Starlight's chrome on every injected page, reference pages too, and
 * its sidebar group; no bundler warning from the fold loader; and a stale anchor failing the
 * host's build with the file:line error and the host's own command in the hint.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, posix } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, sharedBrowser } from './support/browser.ts';
import { childEnv, ROOT, serve } from './support/project.ts';
import { sharedPackage } from './support/shared-package.ts';

/** The versions the hosts pin (the ones this package is built and tested with). */
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; devDependencies: Record<string, string>; overrides: Record<string, string> };
const STARLIGHT = '0.42.4';

interface Run {
  status: number;
  output: string;
}

/**
 * Runs a command to its end (async: the fold packages are packed side by side); the node of this project first on
 * PATH. `developer`: without the CI variable, as a developer runs it in their host site — the tests
 * themselves may run in CI, where `prompt-fold fixtures` refuses (tests/check-new-scenario.test.ts).
 */
function run(cmd: string, args: string[], cwd: string, { developer = false } = {}): Promise<Run> {
  return new Promise((done) => {
    const env = childEnv({ PATH: `${join(ROOT, 'node_modules/.bin')}:${process.env.PATH}` });
    if (developer) delete env.CI;
    // A host resolves the package as published: not with this repository's source condition (.npmrc).
    for (const k of Object.keys(env)) if (/^(NODE_OPTIONS|npm_config_node_options)$/i.test(k)) delete env[k];
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

/**
 * The fold packages each host installs and registers, one npm package per fold: `source` compiled
 * to JavaScript as the package's entry. The asynchronous example fold (a fold calling AI SDK 7's
 * `convertToModelMessages`, with `ai` as its dependency) joins this list as a second entry — its
 * scenario in `scenario`, its id in `id` — and every check below then covers it too.
 */
const FOLD_PACKAGES: { name: string; id: string; scenario: string; source?: string; dir?: string }[] = [
  { name: '@acme/chat-log-fold', source: 'examples/folds/chat-log.ts', id: 'chat-log', scenario: 'examples/scenarios/chat-log.yaml' },
  // A team's own fold as it would publish it: asynchronous, on the AI SDK 7 (its real, async
  // convertToModelMessages, installed from the registry as the package's dependency).
  { name: '@acme/ai-sdk-fold', dir: 'tests/fixtures/ai-sdk-fold', id: 'ai-sdk-readme', scenario: 'tests/fixtures/ai-sdk-fold/ai-sdk-readme.yaml' },
];

/**
 * A fold as its own npm package: a package folder packed as it is, or a TypeScript module compiled
 * (its `prompt-fold-explainer/kit` import then resolves to the installed package).
 */
async function packFold({ name, source: file, dir: folder }: (typeof FOLD_PACKAGES)[number]): Promise<string> {
  const stem = name.replace(/^@/, '').replace('/', '-');
  if (folder) {
    await ok('npm', ['pack', '--pack-destination', tmp], join(ROOT, folder));
    return join(tmp, `${stem}-1.0.0.tgz`);
  }
  if (!file) throw new Error(`fold package ${name}: give its source module or its package folder`);
  const dir = join(tmp, stem);
  mkdirSync(dir);
  const source = readFileSync(join(ROOT, file), 'utf8');
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023, verbatimModuleSyntax: true } }).outputText;
  writeFileSync(join(dir, 'index.js'), js);
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name,
      version: '1.0.0',
      type: 'module',
      exports: { '.': './index.js' },
      peerDependencies: { 'prompt-fold-explainer': `^${PKG.version}`, zod: '^4' },
    }),
  );
  await ok('npm', ['pack', '--pack-destination', tmp], dir);
  return join(tmp, `${stem}-1.0.0.tgz`);
}

const OPTIONS = `{ scenarios: 'scenarios', route: '/explainer/', folds: ${JSON.stringify(['context-protocol', ...FOLD_PACKAGES.map((f) => f.name)])} }`;

/**
 * A test-only integration, listed first in the host's config: when the build is done — before the
 * explainer's own build hook runs (Astro runs them in order; the Starlight plugin adds the explainer
 * after Starlight) — it copies every built .html page to dist-before/, so the test can compare each
 * host page with what the host itself built.
 */
const SNAPSHOT = `const snapshot = {
  name: 'test-snapshot',
  hooks: {
    'astro:build:done': ({ dir }) => {
      const out = fileURLToPath(dir);
      const to = join(process.cwd(), 'dist-before');
      rmSync(to, { recursive: true, force: true });
      for (const f of readdirSync(out, { recursive: true, encoding: 'utf8' })) {
        if (!f.endsWith('.html')) continue;
        mkdirSync(dirname(join(to, f)), { recursive: true });
        copyFileSync(join(out, f), join(to, f));
      }
    },
  },
};
`;
const SNAPSHOT_IMPORTS =
  "import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';\nimport { dirname, join } from 'node:path';\nimport { fileURLToPath } from 'node:url';\n";

/** A fresh host site: its package.json (pinned versions and the two tarballs), its own home page or docs, three scenarios. */
function makeSite(kind: 'astro' | 'starlight', explainerTgz: string, foldTgzs: string[]): string {
  const dir = join(tmp, kind);
  // The scenarios wait in scenarios-later/ until the first `check` has run without the folder.
  mkdirSync(join(dir, 'scenarios-later'), { recursive: true });
  for (const f of ['01-birth-window.yaml', '02-sent-re-add.yaml']) cpSync(join(ROOT, 'scenarios', f), join(dir, 'scenarios-later', f));
  for (const f of FOLD_PACKAGES) cpSync(join(ROOT, f.scenario), join(dir, 'scenarios-later', basename(f.scenario)));
  const deps: Record<string, string> = {
    astro: PKG.devDependencies.astro!,
    '@astrojs/mdx': PKG.devDependencies['@astrojs/mdx']!,
    'prompt-fold-explainer': `file:${explainerTgz}`,
    ...Object.fromEntries(FOLD_PACKAGES.map((f, i) => [f.name, `file:${foldTgzs[i]}`])),
  };
  if (kind === 'starlight') deps['@astrojs/starlight'] = STARLIGHT;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `host-${kind}`, private: true, type: 'module', dependencies: deps, overrides: PKG.overrides }, null, 2));
  if (kind === 'astro') {
    mkdirSync(join(dir, 'src/pages'), { recursive: true });
    writeFileSync(join(dir, 'src/pages/index.astro'), '---\n---\n<html lang="en"><head><title>Host home</title></head><body><h1>The host’s own home page</h1></body></html>\n');
    // Valid Astro output without <head>: the explainer must leave it alone (and never crash on it).
    writeFileSync(join(dir, 'src/pages/bare.astro'), '---\n---\n<p>A host fragment without a head</p>\n');
    writeFileSync(
      join(dir, 'astro.config.mjs'),
      `import { defineConfig } from 'astro/config';\nimport { explainer } from 'prompt-fold-explainer';\n${SNAPSHOT_IMPORTS}\n${SNAPSHOT}\nexport default defineConfig({ integrations: [snapshot, explainer(${OPTIONS})] });\n`,
    );
  } else {
    mkdirSync(join(dir, 'src/content/docs'), { recursive: true });
    // Starlight's pages link /favicon.svg (a new Starlight site has one).
    mkdirSync(join(dir, 'public'));
    cpSync(join(ROOT, 'public/favicon.svg'), join(dir, 'public/favicon.svg'));
    writeFileSync(join(dir, 'src/content/docs/index.md'), '---\ntitle: Acme docs home\n---\n\nThe host’s own home page.\n');
    writeFileSync(join(dir, 'src/content/docs/guide.md'), '---\ntitle: A host guide\n---\n\nAnother of the host’s own pages.\n');
    writeFileSync(
      join(dir, 'src/content.config.ts'),
      "import { defineCollection } from 'astro:content';\nimport { docsLoader } from '@astrojs/starlight/loaders';\nimport { docsSchema } from '@astrojs/starlight/schema';\n\nexport const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };\n",
    );
    // A .ts config: the command line reads it as the build does.
    writeFileSync(
      join(dir, 'astro.config.ts'),
      `import { defineConfig } from 'astro/config';\nimport starlight from '@astrojs/starlight';\nimport explainerStarlight from 'prompt-fold-explainer/starlight';\n${SNAPSHOT_IMPORTS}\n${SNAPSHOT}\nexport default defineConfig({ integrations: [snapshot, starlight({ title: 'Acme docs', plugins: [explainerStarlight(${OPTIONS})] })] });\n`,
    );
  }
  return dir;
}

/** The caches Astro and Vite keep in node_modules: each host keeps its own. */
const PER_HOST = new Set(['.astro', '.vite', '.vite-temp', '.cache']);

/** Where Starlight waits while the plain Astro site's tests run (outside every node_modules). */
const starlightAway = (): string => join(tmp, 'starlight-package-away');
const starlightInstalled = (): string => join(sites.starlight, 'node_modules/@astrojs/starlight');

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'pfe-package-'));
  // The fold packages are packed while the run's package is (maybe still) being built.
  const [{ tarball: explainerTgz }, ...foldTgzs] = await Promise.all([sharedPackage(), ...FOLD_PACKAGES.map(packFold)]);
  sites.astro = makeSite('astro', explainerTgz, foldTgzs);
  sites.starlight = makeSite('starlight', explainerTgz, foldTgzs);
  await ok('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], sites.starlight);
  // The plain site's node_modules: its own folder, linking every package of the install (and its
  // .bin) but not the caches, so the two hosts' builds never share Astro's content store.
  const installed = join(sites.starlight, 'node_modules');
  mkdirSync(join(sites.astro, 'node_modules'));
  for (const name of readdirSync(installed)) if (!PER_HOST.has(name)) symlinkSync(join(installed, name), join(sites.astro, 'node_modules', name));
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
  /**
   * A command the host's install put in node_modules/.bin, run as is: the tests run `npx prompt-fold`
   * where it is the subject (the first check, the fixtures, the assert command), and the installed
   * command itself elsewhere — npx would find the same file, at half a CPU-second of npm's each time.
   */
  const bin = (name: string): string => join(dir(), 'node_modules/.bin', name);

  // The plain site runs without Starlight in the install; the Starlight site (after it) with it.
  beforeAll(() => {
    if (kind === 'astro') renameSync(starlightInstalled(), starlightAway());
    else if (existsSync(starlightAway())) renameSync(starlightAway(), starlightInstalled());
  });

  if (kind === 'astro')
    it('has no Starlight to resolve, from the site or from the installed package', () => {
      for (const from of [join(dir(), 'astro.config.mjs'), join(dir(), 'node_modules/prompt-fold-explainer/package.json')]) {
        expect(() => createRequire(from).resolve('@astrojs/starlight'), from).toThrow(/Cannot find module '@astrojs\/starlight'/);
      }
      // while the rest of the install is there
      expect(createRequire(join(dir(), 'astro.config.mjs')).resolve('prompt-fold-explainer')).toContain('/node_modules/prompt-fold-explainer/');
    });

  it('ships JavaScript (and declarations) only: no .ts module in the installed package, a bin', () => {
    const pkg = join(dir(), 'node_modules/prompt-fold-explainer');
    const files = readdirSync(pkg, { recursive: true, encoding: 'utf8' });
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('examples/'))).toEqual([]);
    expect(files).toContain('lib/package/index.d.ts'); // typed for a host's astro.config.ts
    expect(files.some((f) => f.endsWith('.test.js'))).toBe(false);
    expect(existsSync(join(dir(), 'node_modules/.bin/prompt-fold'))).toBe(true);
  });

  const scenarioIds = ['birth-window', 'sent-re-add', ...FOLD_PACKAGES.map((f) => f.id)].sort();
  const configName = kind === 'astro' ? 'astro.config.mjs' : 'astro.config.ts';

  it('checks a site without a scenario folder yet: a notice naming the folder and the host’s config file', { timeout: 60_000 }, async () => {
    const out = await ok('npx', ['prompt-fold', 'check'], dir());
    expect(out).toContain('no scenarios yet: the scenario folder scenarios/ (the `scenarios` option) does not exist');
    expect(out).toContain(`or set \`scenarios:\` in ${configName} → explainer({…})`);
    expect(out).toContain('ok: 0 scenarios');
    expect(out).not.toMatch(/ENOENT|\n\s+at /);
    renameSync(join(dir(), 'scenarios-later'), join(dir(), 'scenarios'));
  });

  it('writes the fixtures and checks the corpus with npx prompt-fold, reading the host config', { timeout: 120_000 }, async () => {
    // A developer writes the fixtures (in CI the command refuses, and only `check` runs).
    const fixtures = await ok('npx', ['prompt-fold', 'fixtures'], dir(), { developer: true });
    expect(fixtures).toContain(`${scenarioIds.length} scenarios: ${scenarioIds.length} written`);
    expect(readdirSync(join(dir(), 'fixtures')).sort()).toEqual(['01-birth-window.md', '02-sent-re-add.md', ...FOLD_PACKAGES.map((f) => `${f.id}.md`)].sort());
    // The fixtures name the host's command for rewriting them, not this repository's npm script.
    expect(readFileSync(join(dir(), 'fixtures/02-sent-re-add.md'), 'utf8')).toContain('by `npx prompt-fold fixtures` — do not edit by hand');
    expect(await ok(bin('prompt-fold'), ['check'], dir())).toContain(`ok: ${scenarioIds.length} scenarios`);
    const report = JSON.parse(await ok(bin('prompt-fold'), ['report', '--json'], dir())) as { scenarios: { id: string }[] };
    expect(report.scenarios.map((s) => s.id).sort()).toEqual(scenarioIds);
  });

  it('reports a fold that throws on one event at that scenario’s event, and no other scenario', { timeout: 120_000 }, async () => {
    // The AI SDK fold renders text and tool parts only: a reasoning part (an answer with `reasoning:`) makes it throw.
    const bad = join(dir(), 'scenarios/ai-sdk-reasoning.yaml');
    cpSync(join(ROOT, 'tests/fixtures/ai-sdk-fold/ai-sdk-reasoning.yaml'), bad);
    try {
      // As a developer runs it: in CI the new scenario's missing fixture would be a second error.
      const r = await run(bin('prompt-fold'), ['check'], dir(), { developer: true });
      expect(r.status).toBe(1);
      expect(r.output).toContain(
        'scenarios/ai-sdk-reasoning.yaml:9:5 error: fold `ai-sdk-chat` failed while folding @2 message: its `snapshots` threw Error: unsupported assistant content part `reasoning`',
      );
      // The fold's own top frame, in the installed fold package; no stack of ours.
      expect(r.output).toMatch(/\n {2}at .*node_modules\/@acme\/ai-sdk-fold\/index\.js:\d+:\d+/);
      expect(r.output).toContain('1 error in 1 file; nothing was written.');
      expect(r.output).not.toMatch(/lib\/(prompt|corpus)\//);
    } finally {
      rmSync(bad);
    }
  });

  let buildOutput = '';
  it('builds the explainer under /explainer/ beside the host’s own pages', { timeout: 300_000 }, async () => {
    buildOutput = await ok(bin('astro'), ['build'], dir());
    // The fold loader the playground bundles reads a fold's default or `fold` export without a bundler warning.
    expect(buildOutput).not.toContain('IMPORT_IS_UNDEFINED');
    const pages = htmlPages(join(dir(), 'dist'));
    for (const p of ['/', '/explainer/', ...scenarioIds.map((id) => `/explainer/scenarios/${id}/`), '/explainer/playground/', '/explainer/reference/economics/']) {
      expect(pages, p).toContain(p);
    }
    // Nothing of the explainer outside its route.
    const hostPages = kind === 'astro' ? ['/', '/bare/'] : ['/', '/404.html', '/guide/'];
    expect(pages.filter((p) => !p.startsWith('/explainer/'))).toEqual(hostPages);
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
    if (kind === 'starlight') {
      // Every injected page in Starlight's chrome, the reference pages too; its sidebar group lists the scenarios.
      for (const p of pages.filter((q) => q.startsWith('/explainer/'))) {
        expect(page(p), p).toMatch(/<title>[^<]*\| Acme docs<\/title>/);
        expect(page(p), p).toContain('sl-markdown-content');
      }
      for (const id of scenarioIds) expect(page('/')).toContain(`href="/explainer/scenarios/${id}/"`);
      // One search index: Starlight's, which has the explainer's pages; no second one, no second search page.
      expect(existsSync(join(dir(), 'dist/pagefind/pagefind.js'))).toBe(true);
      expect(existsSync(join(dir(), 'dist/explainer/pagefind'))).toBe(false);
      expect(pages).not.toContain('/explainer/search/');
      expect(buildOutput).not.toContain('search index:');
    } else {
      expect(sent).toContain('<a class="brand" href="/explainer/">prompt-fold-explainer</a>');
      expect(sent).not.toContain('favicon.svg'); // the host has none: no link to a missing file
      expect(existsSync(join(dir(), 'dist/explainer/pagefind/pagefind-ui.js'))).toBe(true);
      expect(existsSync(join(dir(), 'dist/pagefind'))).toBe(false);
    }
  });

  it('leaves every host page byte for byte as the host built it, a page without <head> too', () => {
    const before = join(dir(), 'dist-before');
    const hostFiles = readdirSync(join(dir(), 'dist'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html') && !f.startsWith('explainer/'));
    expect(hostFiles.length).toBe(kind === 'astro' ? 2 : 3);
    // The snapshot was taken before the explainer's hook: its own pages have changed since (their policy).
    expect(readFileSync(join(before, 'explainer/index.html')).equals(readFileSync(join(dir(), 'dist/explainer/index.html')))).toBe(false);
    for (const f of hostFiles) expect(readFileSync(join(dir(), 'dist', f)).equals(readFileSync(join(before, f))), f).toBe(true);
    if (kind === 'astro') expect(readFileSync(join(dir(), 'dist/bare/index.html'), 'utf8')).toBe('<!DOCTYPE html><p>A host fragment without a head</p>');
    // The explainer's own pages carry their policy.
    for (const p of ['/explainer/', '/explainer/scenarios/sent-re-add/', '/explainer/reference/economics/'])
      expect(page(p), p).toContain('<meta http-equiv="content-security-policy"');
    for (const f of hostFiles) expect(readFileSync(join(dir(), 'dist', f), 'utf8'), f).not.toContain('content-security-policy');
  });

  it('has one <h1> on every page, and no broken internal link', () => {
    const out = join(dir(), 'dist');
    const files = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'));
    const broken: string[] = [];
    for (const f of files) {
      const html = readFileSync(join(out, f), 'utf8');
      if (f.startsWith('explainer/')) expect(html.match(/<h1[\s>]/g)?.length, f).toBe(1);
      const at = `/${f.replace(/index\.html$/, '')}`;
      for (const [, url] of html.matchAll(/\s(?:href|src|data-src)="([^"]*)"/g)) {
        if (!url || /^(#|[a-z][a-z0-9+.-]*:|\/\/)/i.test(url)) continue; // in-page, external, data: …
        const path = decodeURIComponent(posix.resolve(posix.dirname(`${at}x`), url.replace(/[?#].*$/, '')));
        const target = join(out, path);
        const found = url.split(/[?#]/)[0]!.endsWith('/') ? existsSync(join(target, 'index.html')) : existsSync(target) || existsSync(join(target, 'index.html'));
        if (!found) broken.push(`${at} → ${url}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('names no repository path or npm script in the reference pages’ text', () => {
    for (const name of ['bring-your-own-fold', 'economics', 'wire-formats']) {
      // The prose, without code blocks (an example file's own imports are code, not the page's words).
      const text = page(`/explainer/reference/${name}/`)
        .replace(/<pre[\s\S]*?<\/pre>/g, '')
        .replace(/<[^>]+>/g, '');
      // The offending words with some context, if any (not the whole page).
      const at = (pattern: RegExp): string | undefined => text.match(new RegExp(`.{0,60}(?:${pattern.source}).{0,60}`))?.[0];
      expect(at(/\bsrc\/(?:folds|wire|economics|integration|providers)\b|tests\/[a-z-]+\.test\.ts|npm run /), name).toBeUndefined();
      expect(at(configName === 'astro.config.mjs' ? /astro\.config\.ts/ : /astro\.config\.mjs/), name).toBeUndefined();
    }
    expect(page('/explainer/reference/bring-your-own-fold/')).toContain('npx prompt-fold fixtures');
  });

  it('gives the request pane at least 560 px at a 1400 px viewport, and finds a scenario by a word of its prompt', { timeout: 120_000 }, async () => {
    const site = await serve(join(dir(), 'dist'));
    // The worker's one browser, for both hosts (a launch each cost a second or two of CPU).
    const browser = await sharedBrowser();
    try {
      const tab = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const refused: string[] = [];
      tab.on('console', (m) => {
        if (/Content.Security.Policy|Refused to/i.test(m.text())) refused.push(m.text());
      });
      await tab.goto(`${site.url}/explainer/scenarios/sent-re-add/`);
      const width = await tab.locator('#request').evaluate((e) => e.getBoundingClientRect().width);
      expect(width).toBeGreaterThanOrEqual(560);
      // In both chromes the page script's layout applies (html.js): one pane shown, the selected one;
      // and no host prose spacing inside the panes (Starlight's markdown margins put 16 px between code rows).
      expect(await tab.evaluate(() => document.documentElement.classList.contains('js'))).toBe(true);
      const shown = await tab.locator('.pane').evaluateAll((ps) => ps.filter((p) => getComputedStyle(p).display !== 'none').map((p) => p.classList.contains('selected')));
      expect(shown).toEqual([true]);
      const gaps = await tab.locator('.pane.selected .code > *').evaluateAll((ls) => ls.slice(1).map((l) => Number.parseFloat(getComputedStyle(l).marginTop)));
      expect(gaps.length).toBeGreaterThan(5);
      expect(Math.max(...gaps), 'the widest gap above a code row (the panes’ own rows use at most a few px)').toBeLessThan(8);
      // The wire view's JSON is set as the printed request beside it is, whatever the host's `code` rule (Starlight's left it at 16 px).
      const pane = tab.locator('.pane.selected');
      await pane.locator('details.wire > summary').click();
      const json = pane.locator('.wire-format[open] pre.wire-json > code').first();
      await expect.poll(async () => ((await json.textContent()) ?? '').length, { timeout: 20_000 }).toBeGreaterThan(0);
      const size = (sel: string) =>
        tab
          .locator(sel)
          .first()
          .evaluate((e) => getComputedStyle(e).fontSize);
      expect(await json.evaluate((e) => getComputedStyle(e).fontSize)).toBe(await size('.pane.selected .code'));
      if (kind === 'starlight') {
        // Starlight's own search box, on the explainer's page (under its policy), finds the scenario.
        await tab.locator('button[data-open-modal]').first().click();
        await tab.locator('dialog input').fill('staging');
      } else {
        await tab.goto(`${site.url}/explainer/search/`);
        await tab.locator('#search input').fill('staging');
      }
      await expect
        .poll(() => tab.locator('.pagefind-ui__result-link').evaluateAll((as) => as.map((a) => a.getAttribute('href'))), { timeout: 20_000 })
        .toContain('/explainer/scenarios/sent-re-add/');
      expect(refused).toEqual([]);
      // Nothing the pages link is missing (a browser asks for /favicon.ico of its own accord).
      expect(site.requests.filter((r) => r.status === 404 && r.path !== '/favicon.ico')).toEqual([]);
    } finally {
      await closeContexts(browser);
      await site.close();
    }
  });

  it('fails the host’s build on a stale anchor, naming the file and line and the host’s own command', { timeout: 300_000 }, async () => {
    const file = join(dir(), 'scenarios/02-sent-re-add.yaml');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('find: "can you just run the migration on staging?"', 'find: "text the prompt never had"'));
    try {
      const r = await run(bin('astro'), ['build'], dir());
      expect(r.status).not.toBe(0);
      expect(r.output).toMatch(/scenarios\/02-sent-re-add\.yaml:\d+:\d+ error: /);
      expect(r.output).toContain('text the prompt never had');
      expect(r.output).toContain('`npx prompt-fold check` prints the same report without building');
      expect(r.output).not.toContain('npm run ');
      expect(r.output).not.toMatch(/^\s+at .*\(file:/m); // no stack trace
    } finally {
      writeFileSync(file, text);
    }
  });
});

/**
 * The test API as a team's own suite uses it, from the installed package only (no path into this
 * repository): `prompt-fold-explainer/assert` in a plain Node test (node:test — the core is
 * framework-neutral; the matcher is called through the protocol vitest and jest share), its
 * declarations type-checked in a TypeScript test file that merges the matcher into vitest's and
 * jest's assertion types, and `npx prompt-fold assert` on a recorded capture.
 */
describe('the test API, installed (prompt-fold-explainer/assert)', () => {
  const dir = (): string => sites.astro;
  const TRACE = readFileSync(join(ROOT, 'examples/traces/agent-session.anthropic.jsonl'), 'utf8');

  it('keeps and breaks cache promises in a plain Node test, the failure being the located explanation', { timeout: 120_000 }, async () => {
    writeFileSync(join(dir(), 'recorded.jsonl'), TRACE);
    writeFileSync(
      join(dir(), 'cache.test.mjs'),
      `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { assertCache, CacheAssertionError, cacheMatchers } from 'prompt-fold-explainer/assert';

const requests = readFileSync('recorded.jsonl', 'utf8').trim().split('\\n').map((l) => { const { timestamp, body, response } = JSON.parse(l); return { timestamp, body, response }; });

test('the first three requests keep their prefix', async () => {
  const check = await assertCache(requests.slice(0, 3), 'claude-sonnet-4-5', { busts: [], cached: ['@2', '@3'] });
  assert.equal(check.ok, true);
});

test('the date in the system prompt breaks it at @4', async () => {
  await assert.rejects(assertCache(requests, 'claude-sonnet-4-5', { busts: [] }), (err) => {
    assert.ok(err instanceof CacheAssertionError);
    writeFileSync('explanation.txt', err.message);
    return true;
  });
  const r = await cacheMatchers.toKeepCache.call({ isNot: false }, requests, { busts: [] });
  assert.equal(r.pass, false);
  assert.match(r.message(), /^expected every cache promise to be kept:\\nrequests:4:1 error: request @4 busts/);
});
`,
    );
    const out = await ok('node', ['--test', '--test-reporter=tap', 'cache.test.mjs'], dir());
    expect(out).toMatch(/# pass 2\n# fail 0/);
    const explanation = readFileSync(join(dir(), 'explanation.txt'), 'utf8');
    expect(explanation.split('\n')[0]).toBe(
      "requests:4:1 error: request @4 busts the cached prefix of request @3: the first 118 of @3's 147 printed lines are kept, line 119 differs",
    );
    expect(explanation).toContain("Today's date: 2026-12-01.");
    expect(explanation).toMatch(/\n {2}rule: Anthropic Claude Sonnet 4\.5: .*https:\/\/platform\.claude\.com\//);
    expect(explanation).not.toMatch(/node_modules|\n\s+at /);
  });

  it('types the API and the matcher for a TypeScript suite', { timeout: 180_000 }, () => {
    writeFileSync(
      join(dir(), 'cache-types.ts'),
      `import { assertCache, cacheMatchers, type CacheCheck, type CacheExpectations, type CacheMatchers, type Failure } from 'prompt-fold-explainer/assert';
declare global { namespace jest { interface Matchers<R> extends CacheMatchers<R> {} } }
declare const expect: (received: unknown) => jest.Matchers<void>;
const promises: CacheExpectations = { busts: ['@4'], minCached: { from: '@2', percent: '80%' }, maxCostPerConversation: '$0.05' };
export async function run(requests: { body: Record<string, unknown> }[]): Promise<Failure[]> {
  const check: CacheCheck = await assertCache(requests, 'claude-sonnet-4-5', promises);
  const m: { pass: boolean } = await cacheMatchers.toKeepCache.call(undefined, requests, { model: 'gpt-5', busts: [] });
  await expect(requests).toKeepCache({ busts: [], cached: ['@2'] });
  return m.pass ? [] : check.failures;
}
// @ts-expect-error: an unknown expectation is a type error
export const wrong: CacheExpectations = { bust: [] };
`,
    );
    const program = ts.createProgram([join(dir(), 'cache-types.ts')], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2023,
      // The language's own library, without the DOM's (2.3 MB of declarations: most of the check's
      // time): a suite run by Node needs none, so the API's types must not either.
      lib: ['lib.es2023.d.ts'],
      strict: true,
      noEmit: true,
      types: [],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(problems).toEqual([]);
  });

  it('npx prompt-fold assert reads the capture in the host and fails with exit 1 on the broken promise', { timeout: 120_000 }, async () => {
    writeFileSync(join(dir(), 'cache-promises.yaml'), 'busts: []\n');
    const r = await run('npx', ['prompt-fold', 'assert', 'recorded.jsonl', '--expect', 'cache-promises.yaml', '--reporter', 'github'], dir());
    expect(r.status).toBe(1);
    expect(r.output).toMatch(/^::error file=recorded\.jsonl,line=4,col=1,title=cache promise broken%3A busts::request @4 busts/m);
  });
});
