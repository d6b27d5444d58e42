/**
 * Test support: a real `astro dev` server on a project copy (127.0.0.1, a random port; Vite moves
 * on when it is taken), in its own process group so stop() ends it and its children, with a clean
 * environment (childEnv: vitest's variables would leak into Vite) and everything it prints kept
 * for the tests that check the terminal. The dev tests (tests/dev*.test.ts) start theirs here,
 * usually through useDevServer(): a project copy and its server for one describe block.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { childEnv, makeProject } from './project.ts';

export interface DevServer {
  /** e.g. http://127.0.0.1:4711 (no trailing slash, no base path). */
  url: string;
  /** Everything the server printed so far (stdout and stderr). */
  readonly log: string;
  /** GETs `path` (e.g. `/scenarios/x/`): the status and the body. */
  fetchPage(path: string): Promise<{ status: number; text: string }>;
  /** Fetches `path` every half second until `check` holds (at most 20 s) and returns the last response. */
  until(path: string, check: (p: { status: number; text: string }) => boolean): Promise<{ status: number; text: string }>;
  /** Ends the server's process group. */
  stop(): void;
}

/** Starts `astro dev` in `dir` (extra environment in `env`) and resolves once it listens; rejects with its output after 60 s. */
export async function startDevServer(dir: string, env: Record<string, string> = {}): Promise<DevServer> {
  const port = 4400 + Math.floor(Math.random() * 500);
  const child = spawn('npx', ['astro', 'dev', '--host', '127.0.0.1', '--port', String(port)], { cwd: dir, env: childEnv(env), detached: true });
  let log = '';
  const stop = (): void => {
    if (child.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  };
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => {
      stop();
      fail(new Error(`astro dev did not start:\n${log}`));
    }, 60_000);
    const onData = (b: Buffer): void => {
      log += b.toString();
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(log);
      if (m) {
        clearTimeout(timer);
        ok(`http://127.0.0.1:${m[1]}`);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
  });
  const fetchPage = async (path: string): Promise<{ status: number; text: string }> => {
    const r = await fetch(`${url}${path}`);
    return { status: r.status, text: await r.text() };
  };
  return {
    url,
    get log() {
      return log;
    },
    fetchPage,
    async until(path, check) {
      let last = await fetchPage(path);
      for (let i = 0; i < 40 && !check(last); i++) {
        await new Promise((r) => setTimeout(r, 500));
        last = await fetchPage(path);
      }
      return last;
    },
    stop,
  };
}

export interface DevProject {
  /** The project copy (set before the describe block's tests run). */
  dir: string;
  dev: DevServer;
}

/**
 * For the enclosing describe block: a fresh project copy — changed by `prepare` first, e.g. to
 * start on a broken scenario — and `astro dev` on it (with `env`); stopped and removed after the block.
 */
export function useDevServer(opts: { env?: Record<string, string>; prepare?: (dir: string) => void } = {}): DevProject {
  const project = {} as DevProject;
  beforeAll(async () => {
    project.dir = makeProject();
    opts.prepare?.(project.dir);
    project.dev = await startDevServer(project.dir, opts.env);
  }, 90_000);
  afterAll(() => {
    project.dev?.stop();
    if (project.dir) rmSync(project.dir, { recursive: true, force: true });
  });
  return project;
}
