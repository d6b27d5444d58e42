/**
 * Test support: what `npm run fixtures`, `npm run pr-summary` and `npm run report -- --json` do,
 * called in the test's own process on a project copy (makeProject) — for the review tests, which
 * run them dozens of times on git repositories whose commits mostly differ from this checkout
 * only in their scenarios and fixtures. Each command-line run pays its start (Node, npm, the config,
 * the integration: measured 1–2 CPU-seconds) on top of the work itself (0.2–0.8 s here); here the
 * modules are loaded once per test file.
 *
 * And one render per commit: the fixtures, the summary and the report of the same scenario files
 * (scenarios-hash.ts) are made from one render of them, which each command would make alike.
 *
 * Only while the copy's code is the code this process runs (codeAsHere): nothing but scenarios/
 * and fixtures/ differs from the copy's first commit, which makeProject copied from this checkout.
 * Otherwise — a test edits a fold, or package.json, in its copy — only a process of its own runs
 * the edited code: review-runner.ts, one per code state, which loads the copy's modules once and
 * serves every request made in that state (closeRunners() ends them, in the file's afterAll).
 *
 * The commands' own wiring stays tested through the command line: tests/review.test.ts compares
 * `npm run pr-summary`'s output byte for byte with summaryOf()'s, made here and made by a runner,
 * and runs the command on a missing ref; tests/review-ci.test.ts runs every command as the
 * workflows do; tests/check-cli.test.ts runs `npm run fixtures`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readExplainerOptions } from '../../src/cli/config.ts';
import { renderCorpus, type RenderedCorpus } from '../../src/corpus/check.ts';
import { buildReport } from '../../src/economics/report.ts';
import { applyPlan, planFixtures } from '../../src/fixture-format/store.ts';
import { resolveOptions } from '../../src/integration/options.ts';
import type { ExplainerConfig } from '../../src/integration/options.ts';
import { blockingErrors } from '../../src/review/expectations.ts';
import { buildReview } from '../../src/review/review-data.ts';
import { prSummary } from '../../src/review/summary.ts';
import { CorpusError } from '../../src/scenarios/errors.ts';
import { childEnv, ROOT } from './project.ts';
import { scenariosHash } from './scenarios-hash.ts';

/** What a child of the command line would find in its environment (the CLI runs are given the same). */
const CHILD_ENV = childEnv({ CI: '' });

/**
 * True when the copy in `dir`, as checked out now, runs the code this process runs: its working
 * tree differs from its first commit (makeProject's copy of this checkout) in scenarios/ and
 * fixtures/ only (and package.json's scripts), and has no other new file.
 */
export function codeAsHere(dir: string): boolean {
  return codeState(dir) === '';
}

/**
 * The copy's code as checked out now: its difference from the first commit outside scenarios/ and
 * fixtures/ ('' for none), new files with their text. package.json counts without its `scripts`:
 * npm's commands are not code a render runs (a commit that only drops a script — a base without
 * `npm run report` — runs the same modules as its parent, so it is served as its parent is).
 */
function codeState(dir: string): string {
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  const first = git('rev-list', '--max-parents=0', 'HEAD').trim();
  const code = ['--', '.', ':(exclude)scenarios', ':(exclude)fixtures', ':(exclude)package.json'];
  const added = git('ls-files', '--others', '--exclude-standard', ...code)
    .split('\n')
    .filter(Boolean);
  const withoutScripts = (text: string): string => JSON.stringify({ ...(JSON.parse(text) as object), scripts: undefined });
  const pkg = withoutScripts(readFileSync(join(dir, 'package.json'), 'utf8'));
  const pkgChanged = pkg !== withoutScripts(git('show', `${first}:package.json`));
  return git('diff', '--binary', first, ...code) + added.map((f) => `\0${f}\0${readFileSync(join(dir, f), 'utf8')}`).join('') + (pkgChanged ? `\0package.json\0${pkg}` : '');
}

interface Runner {
  child: ChildProcess;
  waiting: Map<number, { ok: (result: string) => void; fail: (err: Error) => void }>;
  stderr: string;
}
const runners = new Map<string, Runner>();
let nextId = 0;

/** review-runner.ts for the copy in `dir` in its current code state, started on first use. */
function runnerFor(dir: string, state: string): Runner {
  const key = `${dir}\0${createHash('sha256').update(state).digest('hex')}`;
  const runner = runners.get(key);
  if (runner) return runner;
  // The condition `npm run` adds from the copy's .npmrc: its example fold imports the package's kit from source.
  const child = spawn(process.execPath, ['--conditions=prompt-fold-explainer-source', join(ROOT, 'tests/support/review-runner.ts'), dir], {
    cwd: dir,
    env: CHILD_ENV,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const made: Runner = { child, waiting: new Map(), stderr: '' };
  child.stderr!.on('data', (b: Buffer) => (made.stderr += b.toString()));
  child.on('message', (m: { id: number; result?: string; error?: string }) => {
    const w = made.waiting.get(m.id);
    made.waiting.delete(m.id);
    if (m.error !== undefined) w?.fail(new Error(m.error));
    else w?.ok(m.result!);
  });
  child.on('exit', (code) => {
    for (const w of made.waiting.values()) w.fail(new Error(`review-runner.ts in ${dir} exited (${code}):\n${made.stderr}`));
    made.waiting.clear();
    runners.delete(key);
  });
  runners.set(key, made);
  return made;
}

/** Runs `op` in the copy's own code state's runner. */
function inRunner(dir: string, state: string, op: { op: 'fixtures' } | { op: 'summary'; base: string; site: string } | { op: 'report' }): Promise<string> {
  const runner = runnerFor(dir, state);
  const id = nextId++;
  return new Promise((ok, fail) => {
    runner.waiting.set(id, { ok, fail });
    runner.child.send({ id, ...op });
  });
}

/** Ends the runners this file started (its afterAll). */
export async function closeRunners(): Promise<void> {
  await Promise.all(
    [...runners.values()].map(
      (r) =>
        new Promise<void>((done) => {
          r.child.once('exit', () => done());
          r.child.kill();
        }),
    ),
  );
}

/** The copy's config: this checkout's explainer options (its astro.config.mjs is the copy's, see codeAsHere), resolved at `dir`. */
async function configOf(dir: string): Promise<ExplainerConfig> {
  return resolveOptions(dir, await readExplainerOptions(ROOT));
}

/**
 * Renders of copies whose code is this process's, one per copy and scenario folder (scenarios-hash.ts):
 * the fixtures, the summary and the report of one commit are made from one render, as the commands
 * would each make the same one.
 */
const renders = new Map<string, Promise<RenderedCorpus>>();

/** The copy's config and its corpus rendered as the commands render it (`everyEvent: false`), once per scenario folder. */
async function corpusOf(dir: string): Promise<{ config: ExplainerConfig; corpus: RenderedCorpus }> {
  const config = await configOf(dir);
  const key = `${dir}\0${scenariosHash(join(dir, config.scenariosDir))}`;
  let corpus = renders.get(key);
  if (!corpus) {
    corpus = renderCorpus(config, { everyEvent: false });
    renders.set(key, corpus);
  }
  return { config, corpus: await corpus };
}

/** Runs `run` (synchronous) with process.env as a CLI child's would be, then puts it back. */
function withChildEnv<T>(run: () => T): T {
  const saved = { ...process.env };
  for (const k of Object.keys(process.env)) if (!(k in CHILD_ENV)) delete process.env[k];
  Object.assign(process.env, CHILD_ENV);
  try {
    return run();
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

/** `npm run fixtures` in the copy: every fixture written from its scenarios; a corpus error throws (nothing written). */
export async function writeFixtures(dir: string): Promise<void> {
  const state = codeState(dir);
  if (state) {
    await inRunner(dir, state, { op: 'fixtures' });
    return;
  }
  const { config, corpus } = await corpusOf(dir);
  if (corpus.errors.length) throw new CorpusError(corpus.errors);
  const fixtures = join(dir, config.fixturesDir);
  applyPlan(fixtures, planFixtures(fixtures, corpus.scenarios));
}

/** `npm run pr-summary -- --base <base> --site-url <site>` in the copy: the Markdown it prints; a failure throws. */
export async function summaryOf(dir: string, base: string, site: string): Promise<string> {
  const state = codeState(dir);
  if (state) return inRunner(dir, state, { op: 'summary', base, site });
  const { config, corpus } = await corpusOf(dir);
  const blocking = blockingErrors(corpus, true);
  if (blocking.length) throw new CorpusError(blocking);
  // The base's report runs in a child process (review/base-report.ts): it gets a CLI child's environment.
  return withChildEnv(() => prSummary(buildReview(config, corpus, base), site));
}

/** One request's figures in `npm run report -- --json`. */
export interface ReportFigures {
  offset: number;
  inputTokens: number;
  cachedTokens: number;
  costUsd: number | null;
  exact: boolean;
}

/** The scenarios of `npm run report -- --json` in the copy (their files and their requests' figures); a failure throws. */
export async function reportOf(dir: string): Promise<{ file: string; requests: ReportFigures[] }[]> {
  let json: string;
  const state = codeState(dir);
  if (state) json = await inRunner(dir, state, { op: 'report' });
  else {
    const { corpus } = await corpusOf(dir);
    if (corpus.errors.length) throw new CorpusError(corpus.errors);
    // The figures as the command prints them: its JSON is this report's, with more fields beside them.
    json = JSON.stringify(buildReport(corpus));
  }
  return (JSON.parse(json) as { scenarios: { file: string; requests: ReportFigures[] }[] }).scenarios;
}
