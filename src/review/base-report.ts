/**
 * The base commit's own token and cost figures, for a review against a base ref: the
 * base's `npm run report -- --json`, run on a temporary export of that commit — the base's
 * scenarios, folds, profiles and prices — with the packages installed here.
 *
 * Why run the base instead of re-deriving it, or recording figures beside the fixtures:
 * - Re-deriving the base from its printed fixtures with today's code (what an earlier economics module, since removed,
 *   did) prices the base with the head's fold wherever the fixtures abridge boilerplate, so an
 *   option, a deploy or a fold edit that changes that boilerplate gives the base wrong numbers.
 * - Figures recorded beside the fixtures would only exist for bases committed after this change
 *   (today's `origin/main` has none), would have to be regenerated whenever a price changes, and
 *   would trust numbers a pull request wrote about its own base.
 * - Running the base's own report gives, by construction, the numbers `npm run report` prints at
 *   the base commit. The export is `git archive` into the system temp folder (not a `git worktree`:
 *   that registers itself in .git and is left there if the process dies); node_modules is a
 *   symlink to this project's; the folder is removed in every case.
 *
 * When the figures cannot be the base's own, the result says why instead of giving numbers: the
 * base has no `report` script, its report fails or prints something unreadable, or it pins a
 * runtime dependency (`dependencies`) at another version than the one installed here (the
 * tokenizer or a price table could differ). Results are kept per project root and commit for the
 * life of the process (on globalThis, so a dev server's module reloads keep them): a build, a dev
 * session or a `pr-summary` run exports and runs each base once. The base's report is also kept on
 * disk for the next process (see reportCacheFile()): a pull-request preview computes its base in
 * the build and again for the summary, and `pr-summary` after a build does it once more.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import type { Figures } from './delta.ts';

export type BaseFigures =
  /** Per scenario file stem (the fixtures' key), per own request offset. */
  | { ok: true; commit: string; byStem: Map<string, Map<number, Figures>> }
  /** Why the base's figures are not known (plain text, one sentence). */
  | { ok: false; commit: string; reason: string };

// The fields read today; anything else the report adds (cost parts, tokens lost, …) is ignored.
const reportSchema = z.looseObject({
  scenarios: z.array(
    z.looseObject({
      id: z.string(),
      file: z.string(),
      requests: z.array(
        z.looseObject({
          offset: z.number().int().nonnegative(),
          inputTokens: z.number().nonnegative(),
          cachedTokens: z.number().nonnegative(),
          costUsd: z.number().nullable(),
          exact: z.boolean().optional(),
        }),
      ),
    }),
  ),
});

/** A file's stem: `scenarios/01-birth-window.yaml` → `01-birth-window`. */
const stemOf = (file: string): string => file.replace(/^.*\//, '').replace(/\.(ya?ml|md)$/, '');

/** Parses the report's JSON into figures per stem and offset; a reason string when it is not a report. */
export function parseBaseReport(json: string): Map<string, Map<number, Figures>> | string {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    return 'its `npm run report -- --json` did not print JSON';
  }
  const parsed = reportSchema.safeParse(data);
  if (!parsed.success) return 'its `npm run report -- --json` printed a report without per-request inputTokens, cachedTokens and costUsd';
  const out = new Map<string, Map<number, Figures>>();
  for (const s of parsed.data.scenarios) {
    const requests = new Map<number, Figures>();
    for (const q of s.requests) requests.set(q.offset, { inputTokens: q.inputTokens, cachedTokens: q.cachedTokens, costUsd: q.costUsd, exact: q.exact !== false });
    out.set(stemOf(s.file), requests);
  }
  return out;
}

/** `1.2.3` → [1, 2, 3]; undefined for anything else (a pre-release, a tag). */
const parts = (v: string): [number, number, number] | undefined => {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
};

/**
 * Whether `version` satisfies `range`, for the forms a package.json here uses: an exact version,
 * `^x.y.z` (same major; for 0.x, same minor) and `~x.y.z` (same minor). Any other form is not
 * judged: false, so the review says the base's figures are not known rather than guess.
 */
export function satisfies(version: string, range: string): boolean {
  const v = parts(version);
  const op = range.trim()[0];
  const r = parts(op === '^' || op === '~' ? range.trim().slice(1) : range);
  if (!v || !r) return false;
  const atLeast = v[0] !== r[0] ? v[0] > r[0] : v[1] !== r[1] ? v[1] > r[1] : v[2] >= r[2];
  if (op === '^') return atLeast && v[0] === r[0] && (r[0] !== 0 || v[1] === r[1]);
  if (op === '~') return atLeast && v[0] === r[0] && v[1] === r[1];
  return v[0] === r[0] && v[1] === r[1] && v[2] === r[2];
}

/**
 * Runtime dependencies the base would run at another version than the one installed here
 * (`installed`: name → version, undefined when absent): the version the base's lockfile records
 * (`locked`), else its package.json's pin or range. `name@want (installed: got)` per mismatch, sorted.
 */
export function dependencyMismatches(
  basePackage: { dependencies?: Record<string, string> },
  installed: (name: string) => string | undefined,
  locked: (name: string) => string | undefined = () => undefined,
): string[] {
  const out: string[] = [];
  for (const [name, range] of Object.entries(basePackage.dependencies ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const got = installed(name);
    const want = locked(name) ?? range;
    if (got === undefined || !satisfies(got, want)) out.push(`${name}@${want} (installed: ${got ?? 'none'})`);
  }
  return out;
}

/** The versions the base commit's package-lock.json records, by package name (none without one). */
function lockedAt(root: string, commit: string, prefix: string): (name: string) => string | undefined {
  let lock: { packages?: Record<string, { version?: string }> } = {};
  try {
    lock = JSON.parse(git(root, ['show', `${commit}:${prefix}package-lock.json`]));
  } catch {
    // no lockfile at the base: its package.json's ranges are judged instead
  }
  return (name) => lock.packages?.[`node_modules/${name}`]?.version;
}

const CACHE_KEY = Symbol.for('prompt-fold-explainer/base-figures');
const cache: Map<string, BaseFigures> = ((globalThis as Record<symbol, unknown>)[CACHE_KEY] ??= new Map()) as Map<string, BaseFigures>;

/** Forgets the figures this process has computed (a test's way to be the next process, which reads the disk cache). */
export function forgetBaseFigures(): void {
  cache.clear();
}

/**
 * Where the base's report is kept between processes: node_modules/.cache/prompt-fold-explainer/
 * base-reports/<commit>-<installed>.json, where <installed> hashes npm's record of what is
 * installed (node_modules/.package-lock.json) — the report is the commit's code run with those
 * packages, so another commit or any reinstall is another file. None without that record (the
 * report is then run every time). Only a report that parsed is written, never a failure.
 */
export function reportCacheFile(root: string, commit: string): string | undefined {
  let installed: string;
  try {
    installed = readFileSync(join(root, 'node_modules/.package-lock.json'), 'utf8');
  } catch {
    return undefined;
  }
  const hash = createHash('sha256').update(installed).digest('hex').slice(0, 16);
  return join(root, 'node_modules/.cache/prompt-fold-explainer/base-reports', `${commit}-${hash}.json`);
}

/** The kept report at `file`, when there is one that parses. */
function readKept(file: string | undefined): Map<string, Map<number, Figures>> | undefined {
  if (!file) return undefined;
  try {
    const parsed = parseBaseReport(readFileSync(file, 'utf8'));
    return typeof parsed === 'string' ? undefined : parsed;
  } catch {
    return undefined;
  }
}

/** Keeps a report for the next process: written beside and renamed into place (a reader never sees half); a cache that cannot be written is no error. */
function keep(file: string | undefined, report: string): void {
  if (!file) return;
  try {
    mkdirSync(dirname(file), { recursive: true });
    const part = `${file}.${process.pid}.part`;
    writeFileSync(part, report);
    renameSync(part, file);
  } catch {
    // read-only node_modules: the next process runs the report again
  }
}

/** The base commit's own figures (see the header), computed once per root and commit. */
export function baseFigures(root: string, commit: string): BaseFigures {
  const key = `${root}\0${commit}`;
  let hit = cache.get(key);
  if (!hit) {
    hit = computeBaseFigures(root, commit);
    cache.set(key, hit);
  }
  return hit;
}

const git = (cwd: string, args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });

/** The last non-empty line of a child's error output, cut short (the message a reader needs). */
function lastLine(text: string): string {
  const line =
    text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .at(-1) ?? 'no output';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function computeBaseFigures(root: string, commit: string): BaseFigures {
  const fail = (reason: string): BaseFigures => ({ ok: false, commit, reason });
  // The project may sit in a sub-folder of the repository: run the base's copy of that folder.
  let prefix: string;
  let basePackage: { scripts?: Record<string, string>; dependencies?: Record<string, string> };
  try {
    prefix = git(root, ['rev-parse', '--show-prefix']).trim();
    basePackage = JSON.parse(git(root, ['show', `${commit}:${prefix}package.json`]));
  } catch {
    return fail('the base commit has no package.json for this project');
  }
  if (!basePackage.scripts?.report) return fail('the base commit has no `npm run report` to compute them with');
  const installed = (name: string): string | undefined => {
    try {
      return (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version?: string }).version;
    } catch {
      return undefined;
    }
  };
  const mismatches = dependencyMismatches(basePackage, installed, lockedAt(root, commit, prefix));
  if (mismatches.length)
    return fail(`the base pins other package versions than the ones installed here (${mismatches.slice(0, 3).join(', ')}${mismatches.length > 3 ? ', …' : ''})`);
  if (!existsSync(join(root, 'node_modules'))) return fail('node_modules is not installed here, so the base cannot be run');
  const kept = reportCacheFile(root, commit);
  const known = readKept(kept);
  if (known) return { ok: true, commit, byStem: known };

  const tmp = mkdtempSync(join(realpathSync(tmpdir()), 'pfe-base-'));
  try {
    const tar = join(tmp, 'base.tar');
    const tree = join(tmp, 'tree');
    mkdirSync(tree);
    try {
      // From the top level: run in a sub-folder, `git archive` would export only that folder.
      git(git(root, ['rev-parse', '--show-toplevel']).trim(), ['archive', '--format=tar', '-o', tar, commit]);
      execFileSync('tar', ['-xf', tar, '-C', tree], { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      return fail(`the base commit could not be exported (${lastLine(String((err as { stderr?: unknown }).stderr ?? err))})`);
    }
    const project = join(tree, prefix);
    rmSync(join(project, 'node_modules'), { recursive: true, force: true });
    symlinkSync(realpathSync(join(root, 'node_modules')), join(project, 'node_modules'), 'junction');
    const env = { ...process.env };
    delete env.EXPLAINER_BASE; // the base's report compares with nothing
    const r = spawnSync('npm', ['run', '--silent', 'report', '--', '--json'], {
      cwd: project,
      env,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      timeout: 10 * 60 * 1000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (r.error) return fail(`its \`npm run report\` could not be run (${r.error.message})`);
    if (r.status !== 0) return fail(`its \`npm run report\` fails at the base (${lastLine(r.stderr || r.stdout)})`);
    const parsed = parseBaseReport(r.stdout);
    if (typeof parsed === 'string') return fail(parsed);
    keep(kept, r.stdout);
    return { ok: true, commit, byStem: parsed };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
