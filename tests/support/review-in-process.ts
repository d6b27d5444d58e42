/**
 * Test support: what `npm run fixtures`, `npm run pr-summary` and `npm run report -- --json` do,
 * called in the test's own process on a project copy (makeProject) — for the review tests, which
 * run them dozens of times on git repositories whose commits differ from this checkout only in
 * their scenarios and fixtures. A child process pays about 2 CPU-seconds to load the config and
 * the integration before it renders anything (a render of the corpus is about 0.3 s); here they
 * are loaded once per test file.
 *
 * Only while the copy's code is the code this process runs (codeAsHere): nothing but scenarios/
 * and fixtures/ differs from the copy's first commit, which makeProject copied from this checkout.
 * Otherwise — a test edits a fold, or package.json, in its copy — the command runs as before, in a
 * process of its own (`npm run …` in the copy), since only that process runs the edited code.
 *
 * The commands' own wiring stays tested through the command line: tests/review.test.ts compares
 * `npm run pr-summary`'s output with summaryOf()'s byte for byte and runs the command on a missing
 * ref; tests/review-ci.test.ts runs every command as the workflows do; tests/check-cli.test.ts runs
 * `npm run fixtures`.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { readExplainerOptions } from '../../src/cli/config.ts';
import { renderCorpus } from '../../src/corpus/check.ts';
import { buildReport } from '../../src/economics/report.ts';
import { applyPlan, planFixtures } from '../../src/fixture-format/store.ts';
import { resolveOptions } from '../../src/integration/options.ts';
import type { ExplainerConfig } from '../../src/integration/options.ts';
import { blockingErrors } from '../../src/review/expectations.ts';
import { buildReview } from '../../src/review/review-data.ts';
import { prSummary } from '../../src/review/summary.ts';
import { CorpusError } from '../../src/scenarios/errors.ts';
import { childEnv, ROOT } from './project.ts';

/** `npm run --silent <args>` in the copy, as the test file runs it (the command line, for a copy whose code was edited). */
export type NpmRun = (args: string[]) => { status: number | null; stdout: string; stderr: string };

/** What a child of the command line would find in its environment (the CLI runs are given the same). */
const CHILD_ENV = childEnv({ CI: '' });

/**
 * True when the copy in `dir`, as checked out now, runs the code this process runs: its working
 * tree differs from its first commit (makeProject's copy of this checkout) in scenarios/ and
 * fixtures/ only, and has no other new file.
 */
export function codeAsHere(dir: string): boolean {
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const first = git('rev-list', '--max-parents=0', 'HEAD').trim();
  const code = ['--', '.', ':(exclude)scenarios', ':(exclude)fixtures'];
  try {
    git('diff', '--quiet', first, ...code);
  } catch {
    return false; // exit status 1: the code differs
  }
  return git('ls-files', '--others', '--exclude-standard', ...code).trim() === '';
}

/** The copy's config: this checkout's explainer options (its astro.config.mjs is the copy's, see codeAsHere), resolved at `dir`. */
async function configOf(dir: string): Promise<ExplainerConfig> {
  return resolveOptions(dir, await readExplainerOptions(ROOT));
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

const fail = (command: string, r: { stdout: string; stderr: string }): Error => new Error(`npm run ${command} failed:\n${r.stdout}${r.stderr}`);

/** `npm run fixtures` in the copy: every fixture written from its scenarios; a corpus error throws (nothing written). */
export async function writeFixtures(dir: string, npm: NpmRun): Promise<void> {
  if (!codeAsHere(dir)) {
    const r = npm(['fixtures']);
    if (r.status !== 0) throw fail('fixtures', r);
    return;
  }
  const config = await configOf(dir);
  const corpus = await renderCorpus(config, { everyEvent: false });
  if (corpus.errors.length) throw new CorpusError(corpus.errors);
  const fixtures = join(dir, config.fixturesDir);
  applyPlan(fixtures, planFixtures(fixtures, corpus.scenarios));
}

/** `npm run pr-summary -- --base <base> --site-url <site>` in the copy: the Markdown it prints; a failure throws. */
export async function summaryOf(dir: string, base: string, site: string, npm: NpmRun): Promise<string> {
  if (!codeAsHere(dir)) {
    const r = npm(['pr-summary', '--', '--base', base, '--site-url', site]);
    if (r.status !== 0) throw fail('pr-summary', r);
    return r.stdout;
  }
  const config = await configOf(dir);
  const corpus = await renderCorpus(config, { everyEvent: false });
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
export async function reportOf(dir: string, npm: NpmRun): Promise<{ file: string; requests: ReportFigures[] }[]> {
  let json: string;
  if (!codeAsHere(dir)) {
    const r = npm(['report', '--', '--json']);
    if (r.status !== 0) throw fail('report', r);
    json = r.stdout;
  } else {
    const corpus = await renderCorpus(await configOf(dir), { everyEvent: false });
    if (corpus.errors.length) throw new CorpusError(corpus.errors);
    // The figures as the command prints them: its JSON is this report's, with more fields beside them.
    json = JSON.stringify(buildReport(corpus));
  }
  return (JSON.parse(json) as { scenarios: { file: string; requests: ReportFigures[] }[] }).scenarios;
}
