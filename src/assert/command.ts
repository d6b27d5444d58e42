/**
 * `prompt-fold assert <capture>… --expect <file> [--reporter text|junit|sarif|github] [--output <file>]`
 * as a function of its arguments (src/cli/assert.ts runs it on process.argv; tests call it). Reads
 * the captures through the importer and the expectations file, judges them (run.ts), writes the
 * chosen report to stdout or to `--output` (then the text report still goes to the terminal), and
 * returns the exit code:
 *
 *   0  every promise kept
 *   1  a promise broken (a failure per broken promise, located)
 *   2  bad input or usage: a flag, a missing file, a capture the importer cannot read, an
 *      expectations entry that is not one — nothing was judged, and no report file is written
 *      except the chosen reporter's account of the problems
 *   3  an internal error of prompt-fold (a bug: the stack is printed, please report it)
 *
 * Nothing partial is written: the report file is written whole, beside its target, then renamed.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { UserError } from '../errors.ts';
import { outputFileProblem, writeOutputFile } from '../output-file.ts';
import type { InputError } from '../scenarios/errors.ts';
import { parseExpectations } from './expectations.ts';
import { REPORTERS, writeReport, type ReporterName } from './reporters/index.ts';
import { textReport } from './reporters/text.ts';
import { assertFiles } from './run.ts';

export const EXIT = { kept: 0, broken: 1, input: 2, internal: 3 } as const;

/** A file name each machine report is suggested under (the README's examples). */
const REPORT_FILE: Partial<Record<ReporterName, string>> = { junit: 'cache.xml', sarif: 'cache.sarif', github: 'cache.txt' };

export const ASSERT_USAGE = `usage: prompt-fold assert <capture>… --expect <expectations.yaml> [--reporter ${REPORTERS.join('|')}] [--output <file>]`;

export interface Io {
  cwd: string;
  out(text: string): void;
  err(text: string): void;
  /** The package's version (the SARIF tool version). */
  version: string;
}

class Usage extends UserError {}

interface Args {
  captures: string[];
  expect: string;
  reporter: ReporterName;
  output?: string;
}

function parseArgs(argv: readonly string[]): Args {
  const captures: string[] = [];
  let expect: string | undefined;
  let reporter: ReporterName = 'text';
  let output: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--expect' || a === '--reporter' || a === '--output') {
      const v = argv[++i];
      if (v === undefined) throw new Usage(`${a} needs a value`, { fix: ASSERT_USAGE });
      if (a === '--expect') expect = v;
      else if (a === '--output') output = v;
      else if ((REPORTERS as readonly string[]).includes(v)) reporter = v as ReporterName;
      else throw new Usage(`unknown --reporter "${v}"`, { fix: `use one of ${REPORTERS.join(', ')}` });
    } else if (a.startsWith('--')) throw new Usage(`unknown option ${a}`, { fix: ASSERT_USAGE });
    else captures.push(a);
  }
  if (!captures.length) throw new Usage(`no capture given`, { fix: ASSERT_USAGE });
  if (expect === undefined) throw new Usage('no expectations file given', { fix: `pass --expect <file> (a YAML mapping such as \`busts: []\`); ${ASSERT_USAGE}` });
  if (output !== undefined && reporter === 'text') throw new Usage('--output writes a machine report, not the text one', { fix: 'give --reporter junit, sarif or github with it' });
  return { captures, expect, reporter, ...(output !== undefined && { output }) };
}

const show = (cwd: string, path: string): string => relative(cwd, resolve(cwd, path)).split('\\').join('/') || path;

export async function assertCommand(argv: readonly string[], io: Io): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(`${ASSERT_USAGE}\n`);
    return EXIT.kept;
  }
  let args: Args;
  try {
    args = parseArgs(argv);
  } catch (err) {
    if (!UserError.is(err)) throw err;
    io.err(`${err.message}\n`);
    return EXIT.input;
  }
  try {
    const naming = args.output === undefined ? undefined : { shown: args.output, option: '--output', example: REPORT_FILE[args.reporter] ?? 'report' };
    // An --output that cannot be written is said before anything is read.
    const outputProblem = naming && outputFileProblem(resolve(io.cwd, naming.shown), naming);
    if (outputProblem) throw outputProblem;
    const problems: InputError[] = [];
    const missing = [args.expect, ...args.captures].filter((p) => !existsSync(resolve(io.cwd, p)));
    for (const m of missing)
      problems.push({
        pos: { file: show(io.cwd, m), line: 1, col: 1 },
        message: 'no such file',
        fix: 'give the path of a capture the importer reads (see `prompt-fold import`), and of the expectations file',
      });
    // A capture may be a folder (a Claude Code project: conversations.ts); the expectations are one file.
    if (!missing.includes(args.expect) && statSync(resolve(io.cwd, args.expect)).isDirectory()) {
      missing.push(args.expect);
      problems.push({
        pos: { file: show(io.cwd, args.expect), line: 1, col: 1 },
        message: 'this is a folder, not an expectations file',
        fix: 'give --expect the YAML file of the promises (e.g. `busts: []`)',
      });
    }
    const expectFile = show(io.cwd, args.expect);
    const exp = missing.length ? {} : parseExpectations(readFileSync(resolve(io.cwd, args.expect), 'utf8'), expectFile, problems);
    const report = await assertFiles(problems.length ? [] : args.captures.map((c) => ({ path: resolve(io.cwd, c), name: show(io.cwd, c) })), exp, expectFile, problems);
    const machine = args.reporter === 'text' ? undefined : writeReport(args.reporter, report, io.version);
    if (naming) writeOutputFile(resolve(io.cwd, naming.shown), machine!, naming);
    const text = textReport(report);
    if (machine !== undefined && args.output === undefined) io.out(machine);
    else if (report.problems.length || report.failures.length) io.err(text);
    else io.out(text);
    return report.problems.length ? EXIT.input : report.failures.length ? EXIT.broken : EXIT.kept;
  } catch (err) {
    if (UserError.is(err)) {
      io.err(`${err.message}\n`);
      return EXIT.input;
    }
    io.err(`prompt-fold assert: internal error (please report it)\n${(err as Error).stack ?? String(err)}\n`);
    return EXIT.internal;
  }
}
