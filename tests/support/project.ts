/**
 * Test support: a throwaway copy of this project (sources, config, scenarios; packages linked)
 * in a temp dir, built with the real `astro build` (the integration indexes it for search), and a static file server for its
 * dist/ on 127.0.0.1. Build and browser tests use it so they never touch the working tree.
 * build() is `npm run build` itself (for the tests of what that command prints); buildSite() does the
 * same build through Astro's programmatic build() (tests/support/build-site.ts) without npm and
 * without blocking the test's process — for tests that only need the built site.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { longScenarioFile } from './long-scenario.ts';
import { claudeCodeScenarioFile } from './claude-code-session.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
// examples/: the reference pages import the example fold and scenario from it (raw).
const COPY = ['astro.config.mjs', 'package.json', '.npmrc', 'tsconfig.json', 'src', 'public', 'scenarios', 'examples'];

/** The hostile scenarios (tests/fixtures/hostile): markup, scripts and pathological text as scenario content. */
export const HOSTILE = join(ROOT, 'tests/fixtures/hostile');

/**
 * The scenario files the tests' shared build adds to the bundled corpus (tests/support/global-setup.ts):
 * the hostile scenarios, and tests/fixtures/shared (a scenario on top of a bundled one, whose page
 * builds its base's requests in the browser) — one build for every browser test instead of a build
 * per file that needs one more scenario — and a generated long conversation whose page is windowed
 * (long-scenario.ts, issue 41), and a Claude Code session imported with its bill (claude-code-session.ts, issue 49).
 */
export const sharedExtras = (): string[] => [
  ...[HOSTILE, join(ROOT, 'tests/fixtures/shared')].flatMap((d) => readdirSync(d).map((f) => join(d, f))),
  longScenarioFile(),
  claudeCodeScenarioFile(),
];

/** The caches in node_modules that each project copy keeps for itself. */
const PER_COPY = new Set(['.astro', '.vite', '.vite-temp', '.cache']);

export function makeProject(extraScenarioFiles: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'pfe-project-'));
  // Without the repository's own tests; the examples keep theirs (a site page shows the example fold's test).
  for (const p of COPY)
    if (existsSync(join(ROOT, p))) cpSync(join(ROOT, p), join(dir, p), { recursive: true, filter: (src) => !src.endsWith('.test.ts') || src.startsWith(join(ROOT, 'examples/')) });
  // node_modules: a folder of its own whose packages link to this project's, so that the caches
  // Astro and Vite keep in it (.astro: the content store; .vite: the dev server's optimized
  // dependencies) belong to this copy — copies built or served at the same time never share them.
  mkdirSync(join(dir, 'node_modules'));
  for (const name of readdirSync(join(ROOT, 'node_modules'))) if (!PER_COPY.has(name)) symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name));
  for (const f of extraScenarioFiles) cpSync(f, join(dir, 'scenarios', f.replace(/^.*\//, '')));
  return dir;
}

export interface BuildResult {
  status: number;
  output: string;
}

/**
 * This process's environment without what vitest puts there (VITEST*, NODE_ENV=test, and Vite's
 * import.meta.env values BASE_URL, MODE, DEV, PROD, SSR): a child `astro` would read them as its own
 * — BASE_URL=/ would override the site's base path.
 */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const leaked = /^(VITEST.*|NODE_ENV|TEST|BASE_URL|MODE|DEV|PROD|SSR)$/;
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !leaked.test(k))) as Record<string, string>;
  return { NODE_COMPILE_CACHE: COMPILE_CACHE, ...clean, ASTRO_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0', ...extra };
}

/**
 * Node's on-disk compile cache for every node a test starts (an astro build, a command-line tool):
 * the hundreds of child processes of a run load the same modules, and with the cache each compiles
 * them once (measured: an astro build of the corpus ≈ 15 % less CPU). Node checks each entry
 * against the source, so a stale entry is never used; NODE_COMPILE_CACHE set outside wins.
 */
const COMPILE_CACHE = join(tmpdir(), 'pfe-tests-node-compile-cache');

/** `npm run build` itself (`astro build`; the integration runs pagefind when the build is done). */
export function build(dir: string, env: Record<string, string> = {}): BuildResult {
  const r = spawnSync('npm', ['run', 'build'], { cwd: dir, encoding: 'utf8', env: childEnv(env) });
  return { status: r.status ?? 1, output: `${r.stdout}\n${r.stderr}` };
}

/** What tests/support/build-site.ts does, as package.json says it. */
const BUILD_SCRIPT = 'astro build';

/**
 * The same build as build() — Astro's build(), the one step of `npm run build` — run by
 * tests/support/build-site.ts in a child process (clean environment, `env` added), asynchronously.
 */
export function buildSite(dir: string, env: Record<string, string> = {}): Promise<BuildResult> {
  // Should `npm run build` ever gain a step, the real command runs instead of a stale copy of it.
  const script = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.build;
  const [cmd, args] = script === BUILD_SCRIPT ? [process.execPath, [join(ROOT, 'tests/support/build-site.ts'), dir]] : ['npm', ['run', 'build']];
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: dir, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('error', (err) => done({ status: 1, output: `${output}\n${err.message}` }));
    child.on('close', (code) => done({ status: code ?? 1, output }));
  });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
};

/**
 * Serves `root` on 127.0.0.1 at a free port; `/x/` serves `/x/index.html`. With `base` (e.g.
 * `/previews/pr-7/`) the site is served under that sub-path only, as a bucket prefix behind a CDN
 * would be: a request outside it is a 404, so a link that forgets the base fails a test. Every
 * request is recorded (`requests`: method, path, status) for tests that check nothing 404s.
 */
export async function serve(root: string, base = '/'): Promise<{ url: string; requests: { path: string; status: number }[]; close: () => Promise<void> }> {
  const prefix = base.replace(/\/?$/, '/');
  const requests: { path: string; status: number }[] = [];
  const server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const reply = (status: number, body: string | Buffer, type = 'text/plain'): void => {
      requests.push({ path: pathname, status });
      res.writeHead(status, { 'content-type': type }).end(body);
    };
    if (!pathname.startsWith(prefix) && pathname !== prefix.slice(0, -1)) return reply(404, 'not found (outside the base)');
    const path = normalize(`/${pathname.slice(prefix.length)}`).replace(/^(\.\.[/\\])+/, '');
    let file = join(root, path);
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!file.startsWith(root) || !existsSync(file)) return reply(404, 'not found');
    reply(200, readFileSync(file), TYPES[extname(file)] ?? 'application/octet-stream');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((ok) => server.close(() => ok())) };
}
