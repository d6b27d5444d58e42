/**
 * Test support: a throwaway copy of this project (sources, config, scenarios; node_modules linked)
 * in a temp dir, built with the real `astro build` + pagefind, and a static file server for its
 * dist/ on 127.0.0.1. Build and browser tests use it so they never touch the working tree.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, existsSync, symlinkSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';

export const ROOT = resolve(import.meta.dirname, '../..');
// examples/: the reference pages import the example fold and scenario from it (raw).
const COPY = ['astro.config.mjs', 'package.json', 'tsconfig.json', 'src', 'public', 'scenarios', 'examples'];

export function makeProject(extraScenarioFiles: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'pfe-project-'));
  for (const p of COPY) if (existsSync(join(ROOT, p))) cpSync(join(ROOT, p), join(dir, p), { recursive: true, filter: (src) => !src.endsWith('.test.ts') });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const f of extraScenarioFiles) cpSync(f, join(dir, 'scenarios', f.replace(/^.*\//, '')));
  return dir;
}

export interface BuildResult {
  status: number;
  output: string;
}

/** `astro build` then pagefind, exactly as `npm run build` does. */
export function build(dir: string, env: Record<string, string> = {}): BuildResult {
  const r = spawnSync('npm', ['run', 'build'], { cwd: dir, encoding: 'utf8', env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0', ...env } });
  return { status: r.status ?? 1, output: `${r.stdout}\n${r.stderr}` };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.wasm': 'application/wasm', '.png': 'image/png',
};

/** Serves `root` on 127.0.0.1 at a free port; `/x/` serves `/x/index.html`. */
export async function serve(root: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    let file = join(root, path);
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => server.close(() => ok())) };
}
