/**
 * Test support: a throwaway copy of the project that is a git repository with two commits — the
 * bundled corpus with its fixtures ("base"), then a change that edits one request of
 * 02-sent-re-add (its fixture regenerated) — so a build with EXPLAINER_BASE=HEAD~1 has real
 * changes to show, as a pull-request build does. `pushChange` adds a further commit (a second push).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { childEnv, makeProject, ROOT } from './project.ts';

export const GIT_ENV = childEnv({
  CI: '',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.invalid',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.invalid',
});

export interface ReviewRepo {
  dir: string;
  git: (...args: string[]) => string;
  /** `npm run --silent <args>` in the repo; never throws. */
  npm: (args: string[], env?: Record<string, string>) => { status: number; stdout: string; stderr: string };
  /** The same without blocking this process (needed when it talks to a server running in this process). */
  npmAsync: (args: string[], env?: Record<string, string>) => Promise<{ status: number; stdout: string; stderr: string }>;
  /** Replaces `from` with `to` in a scenario file, regenerates the fixtures and commits. */
  pushChange: (file: string, from: string, to: string, message: string) => void;
}

export function makeReviewRepo(): ReviewRepo {
  const dir = makeProject();
  cpSync(join(ROOT, 'fixtures'), join(dir, 'fixtures'), { recursive: true });
  writeFileSync(join(dir, '.gitignore'), 'node_modules\ndist\n.astro\npreview-site\n');
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, env: GIT_ENV, encoding: 'utf8' });
  const npm = (args: string[], env: Record<string, string> = {}) => {
    const r = spawnSync('npm', ['run', '--silent', ...args], { cwd: dir, env: { ...GIT_ENV, ...env }, encoding: 'utf8' });
    return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
  };
  const npmAsync = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((done) => {
      const child = spawn('npm', ['run', '--silent', ...args], { cwd: dir, env: { ...GIT_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
      });
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
      });
      child.on('close', (code) => done({ status: code ?? 1, stdout, stderr }));
    });
  const pushChange = (file: string, from: string, to: string, message: string): void => {
    const path = join(dir, 'scenarios', file);
    const text = readFileSync(path, 'utf8');
    if (!text.includes(from)) throw new Error(`${file} does not contain ${JSON.stringify(from)}`);
    writeFileSync(path, text.replace(from, to));
    const fx = npm(['fixtures']);
    if (fx.status !== 0) throw new Error(fx.stdout + fx.stderr);
    git('add', '-A');
    git('commit', '-qm', message);
  };
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'base');
  pushChange('02-sent-re-add.yaml', 'CHANGELOG line; migrations run', 'CHANGELOG entry; migrations run', 'change');
  return { dir, git, npm, npmAsync, pushChange };
}
