/**
 * `npm run import -- <trace> [--format openai-chat|openai-responses|anthropic|otlp|codex|claude-code|ai-sdk-devtools|openinference|ai-sdk-telemetry|vcr|har|…] [--id <id>]
 * [--out <file> | --out-dir <folder>] [--force]` — turns a captured trace into a scenario for the
 * `requests` fold (src/import). Writes `scenarios/<id>.yaml` (or --out) only when the whole trace
 * imports and the scenario renders clean; prints every dropped secret (where, never the value).
 * Refuses to overwrite a scenario it did not write itself unless --force. With --out-dir the trace
 * is a log of many conversations, or a capture of several (Claude Code sessions, Codex rollouts,
 * DevTools runs, OpenInference sessions): one scenario per conversation (import-log.ts); a re-import
 * removes the scenarios of conversations no longer there, unless a person added to them.
 *
 * As a function of its arguments (import.ts runs it on process.argv, under runMain; tests call it
 * in their own process): paths are resolved from `io.cwd`, what the command prints goes to
 * `io.out` one line at a time, and bad input throws a UserError (runMain prints its message and
 * exits 1).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, extname, join, relative, resolve } from 'node:path';
import { CAPTURE_IDS } from '../import/captures/index.ts';
import { importTrace, INPUT_FORMATS, type InputFormat } from '../import/index.ts';
import { subAgentNote } from '../import/folder.ts';
import { readTraceFile } from '../import/trace-file.ts';
import { outputFileProblem, writeOutputFile } from '../output-file.ts';
import { leftOutLine } from '../import/left-out.ts';
import { IMPORT_HEADER } from '../import/scenario.ts';
import { renderTexts } from '../corpus/check.ts';
import { CorpusError } from '../scenarios/errors.ts';
import { loadConfig, UsageError } from './config.ts';
import { type ImportIo, importLogCommand } from './import-log.ts';
import { folderOf, outsideNote, scenarioFolder } from './import-target.ts';
import { runCommand, runCommandWithArgs } from '../project.ts';

const usage = (): string =>
  `usage: ${runCommandWithArgs('import')} <trace file | folder of .jsonl captures> [--format ${[...INPUT_FORMATS, ...CAPTURE_IDS].join('|')}] [--id <scenario id>] [--out <scenario file> | --out-dir <folder> (a log, or a capture of several conversations: one scenario per conversation)] [--force]`;

export interface ImportArgs {
  file: string;
  format?: InputFormat;
  /** A capture format (src/import/captures). */
  capture?: string;
  id?: string;
  out?: string;
  outDir?: string;
  force: boolean;
}

function parseArgs(argv: string[]): ImportArgs {
  let file: string | undefined;
  const opts: Omit<ImportArgs, 'file'> = { force: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--force') opts.force = true;
    else if (a === '--format' || a === '--id' || a === '--out' || a === '--out-dir') {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`, { fix: usage() });
      if (a === '--format') {
        if (CAPTURE_IDS.includes(v)) opts.capture = v;
        else if ((INPUT_FORMATS as readonly string[]).includes(v)) opts.format = v as InputFormat;
        else throw new UsageError(`unknown --format "${v}"`, { fix: `use one of ${[...INPUT_FORMATS, ...CAPTURE_IDS].join(', ')}` });
      } else opts[a === '--id' ? 'id' : a === '--out' ? 'out' : 'outDir'] = v;
    } else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`, { fix: usage() });
    else if (file === undefined) file = a;
    else throw new UsageError(`one trace file at a time (got ${file} and ${a})`, { fix: usage() });
  }
  if (!file) throw new UsageError(`no trace file given`, { fix: usage() });
  if (opts.out !== undefined && opts.outDir !== undefined)
    throw new UsageError(`--out names one scenario file, --out-dir a folder for one per conversation: give one of them`, { fix: usage() });
  return { file, ...opts };
}

/** A scenario id from the trace's file name: lower case, [a-z0-9-]; a compressed file's the same as its text's (`day.jsonl.gz` → `day`). */
const idFrom = (file: string): string => {
  const text = file.replace(/\.(gz|zst)$/i, '');
  return (
    basename(text, extname(text))
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^[^a-z0-9]+|-+$/g, '') || 'imported-trace'
  );
};

export async function importCommand(argv: readonly string[], io: ImportIo): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) return void io.out(usage());
  const args = parseArgs([...argv]);
  const config = await loadConfig(io.cwd);
  const id = args.id ?? idFrom(args.file);
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(id))
    throw new UsageError(`--id "${id}" is not a scenario id`, { fix: `use lower-case letters, digits, - and _, starting with a letter or digit` });
  const abs = resolve(io.cwd, args.file);
  if (!existsSync(abs)) throw new UsageError(`no such file: ${args.file}`, { fix: `give the path of a trace file (JSON Lines of request bodies, or an OTLP JSON export)` });
  const display = relative(config.root, abs).split('\\').join('/');
  if (args.outDir !== undefined) return importLogCommand(args, { id, abs, display, config }, io);
  if (statSync(abs).isDirectory())
    throw new UsageError(`${args.file} is a folder: a folder is a capture of several conversations`, {
      fix: `import it with --out-dir <folder> (one scenario per conversation; a Claude Code session's sub-agents linked to it): npm run import -- ${args.file} --out-dir scenarios/<name>`,
    });
  const outAbs = resolve(io.cwd, args.out ?? join(config.root, config.scenariosDir, `${id}.yaml`));
  const out = relative(config.root, outAbs).split('\\').join('/');
  const where = scenarioFolder(config, folderOf(outAbs), '--out');
  const naming = { shown: args.out ?? out, option: '--out', example: `${id}.yaml` };
  const outProblem = outputFileProblem(outAbs, naming);
  if (outProblem) throw outProblem;
  const existing = existsSync(outAbs) ? readFileSync(outAbs, 'utf8') : undefined;
  const imported =
    existing
      ?.split('\n')
      .slice(0, 2)
      .some((l) => l.startsWith(IMPORT_HEADER)) ?? false;
  if (existing !== undefined && !imported && !args.force) {
    throw new UsageError(`${out} exists and was not written by an import`, { fix: `choose another --id or --out, or pass --force to replace it` });
  }
  // Ids are unique across the corpus: another scenario with this id would fail `npm run check`.
  const scenariosAbs = join(config.root, config.scenariosDir);
  const idLine = new RegExp(`^id:\\s*["']?${id}["']?\\s*$`, 'm');
  const clash = existsSync(scenariosAbs)
    ? readdirSync(scenariosAbs)
        .filter((f) => /\.(ya?ml|md)$/.test(f) && join(scenariosAbs, f) !== outAbs)
        .find((f) => idLine.test(readFileSync(join(scenariosAbs, f), 'utf8')))
    : undefined;
  if (clash) throw new UsageError(`${config.scenariosDir}/${clash} already has the id "${id}"`, { fix: `pass another --id` });
  // A compressed trace (a rotated `.jsonl.gz`) is read decompressed (import/trace-file.ts).
  const read = readTraceFile(abs, display);
  if ('error' in read) throw new CorpusError([read.error]);
  const { result, errors } = importTrace(read.text, {
    file: display,
    id,
    ...(args.format && { format: args.format }),
    ...(args.capture && { capture: args.capture }),
    ...(imported && { previous: existing }),
  });
  if (!result) throw new CorpusError(errors);
  // The result must pass the corpus check as it is (kept annotations must still anchor).
  const check = await renderTexts([{ file: out, text: result.yaml }], config, { everyEvent: false });
  if (check.errors.length) throw new CorpusError(check.errors);
  // --out may name a folder that does not exist yet: made only now, when the scenario is whole and checked.
  writeOutputFile(outAbs, result.yaml, naming);
  for (const w of result.warnings) io.out(`${w.pos.file}:${w.pos.line}:${w.pos.col} warning: ${w.message}\n  fix: ${w.fix}`);
  for (const d of result.dropped) io.out(`${d.pos.file}:${d.pos.line}:${d.pos.col} dropped ${d.what}: ${d.where}`);
  for (const e of result.leftOut) io.out(leftOutLine(display, e));
  const beside = subAgentNote(display, abs);
  if (beside) io.out(beside);
  io.out(
    `wrote ${out}: ${result.requests} ${result.format} request(s)${result.detected ? ' (format detected; --format chooses it)' : ''}, ${result.measured} with the provider's usage, ${result.dropped.length} secret(s) dropped${result.leftOut.length ? `, ${result.leftOut.reduce((n, e) => n + e.count, 0)} item(s) left out (listed above)` : ''}`,
  );
  io.out(where === 'outside' ? outsideNote(config) : `next: ${runCommand('check')} && ${runCommand('fixtures')}`);
}
