/**
 * Recorded requests → conversations the engine has costed: every capture is read by the importer's
 * own entries (src/import: request bodies bare or wrapped, logs of many conversations, OTLP spans,
 * and every capture format that lands there — Codex, Claude Code, cassettes…), so `assert` reads
 * exactly what `import` reads. Each conversation's scenario is rendered and costed as the corpus
 * check does it (src/corpus/check.ts renderTexts, the built-in `requests` fold, the default
 * economics), in memory: nothing is written.
 *
 * A problem of the capture is an input error at its file:line:col. What the corpus check says
 * about a request (a request the API would reject) is kept as a finding of that request, located
 * at the request's line in the capture — the generated scenario is never shown.
 */
import { statSync } from 'node:fs';
import { renderTexts } from '../corpus/check.ts';
import type { ScenarioEconomics } from '../economics/compute.ts';
import { DEFAULT_ECONOMICS } from '../economics/profiles.ts';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { importTrace, type ImportResult } from '../import/index.ts';
import { readTraceFile } from '../import/trace-file.ts';
import { importCaptureLog, isLogFile } from '../import/log/capture.ts';
import { importLog, type LogConversation } from '../import/log/index.ts';
import type { ProbeFinding } from '../determinism/probe.ts';
import type { RenderedScenario } from '../prompt/render.ts';
import type { InputError, SourcePos } from '../scenarios/errors.ts';

export interface Conversation {
  /** The capture file as the user named it. */
  capture: string;
  /** How the report names it: the file, and the conversation's key when the file holds several. */
  label: string;
  rendered: RenderedScenario;
  economics: ScenarioEconomics;
  /** Where a request (by its number, the scenario offset) is in the capture. */
  where(offset: number): SourcePos;
  /** What the corpus check found wrong with a request as sent (the API would reject it), at the request. */
  findings: { offset: number | null; message: string; fix: string }[];
  /** A fold's run (the test API's `{ fold, scenario }`): what the determinism probe found moving in a cached prefix. */
  unstable?: ProbeFinding[];
}

/** The engine's fixed settings: the built-in folds, the default economics, time zero of the bundled corpus. */
const ENGINE = { timeZero: '2026-01-01T00:00:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'requests', economics: DEFAULT_ECONOMICS };

/** "line 12 of the trace" — the note the importer puts on every event (src/import/scenario.ts). */
const NOTE_LINE = /^line (\d+) of the trace$/;

/** One imported scenario → its rendered, costed conversation, or the problems (located in the capture where they can be). */
export async function conversationOf(capture: string, label: string, result: ImportResult, problems: InputError[]): Promise<Conversation | undefined> {
  const file = `assert/${result.format}.yaml`;
  const corpus = await renderTexts([{ file, text: result.yaml }], ENGINE, { everyEvent: false });
  const rendered = corpus.scenarios[0];
  const economics = rendered && corpus.economics.get(rendered.scenario.id);
  const lines = new Map<number, number>();
  for (const e of rendered?.scenario.chain ?? []) {
    const m = NOTE_LINE.exec((e as { note?: string }).note ?? '');
    lines.set(e.offset, m ? Number(m[1]) : e.offset);
  }
  const where = (offset: number): SourcePos => ({ file: capture, line: lines.get(offset) ?? offset, col: 1 });
  // An error of the generated scenario is about one of its events: found by the event's position in that text.
  const eventAt = (pos: SourcePos): number | null => {
    let found: number | null = null;
    for (const e of rendered?.scenario.chain ?? []) if (e.pos.line <= pos.line) found = e.offset;
    return found;
  };
  const findings = corpus.errors.map((e) => ({ offset: eventAt(e.pos), message: e.message, fix: e.fix }));
  if (!rendered || !economics || rendered.foldFailed) {
    for (const f of findings) problems.push({ pos: f.offset === null ? { file: capture, line: 1, col: 1 } : where(f.offset), message: f.message, fix: f.fix });
    if (!findings.length)
      problems.push({
        pos: { file: capture, line: 1, col: 1 },
        message: 'the capture could not be rendered as a conversation',
        fix: 'check it imports: npx prompt-fold import <capture>',
      });
    return undefined;
  }
  return { capture, label, rendered, economics, where, findings };
}

const MULTI = /more than one conversation/;

/**
 * Every conversation of one capture file, through the importer's entries as `prompt-fold import`
 * calls them: the file as one conversation (importTrace); when the importer says it holds several
 * (their keys differ), a log of request bodies line by line (importLog) or any other capture whole
 * (importCaptureLog), one conversation each — and a log too large to read whole, line by line from
 * the start. A folder (a Claude Code project or session folder) is
 * read as `import --out-dir` reads it: every conversation of its files.
 */
export async function conversationsOfFile(path: string, capture: string, problems: InputError[]): Promise<Conversation[]> {
  const out: Conversation[] = [];
  // A folder (a Claude Code project or session folder) is a capture of several conversations, as `import --out-dir` reads it.
  const folder = statSync(path).isDirectory();
  // A compressed capture (a rotated `.jsonl.gz`) is read decompressed, as the import reads it.
  const read = folder ? undefined : readTraceFile(path, capture, { logsReadByLine: true });
  // A log too large to read whole (trace-file.ts) is read line by line below, as `import --out-dir` reads it.
  const tooLargeLog = read !== undefined && 'error' in read && read.tooLarge === true && isLogFile(path);
  if (read && !tooLargeLog) {
    if ('error' in read) {
      problems.push(read.error);
      return out;
    }
    const { result, errors } = importTrace(read.text, { file: capture, id: 'assert' });
    if (result) {
      const c = await conversationOf(capture, capture, result, problems);
      return c ? [c] : [];
    }
    if (!errors.some((e) => MULTI.test(e.message))) {
      problems.push(...errors);
      return out;
    }
  }
  const parts: { label: string; result: ImportResult }[] = [];
  const each = (c: LogConversation, r: ImportResult): InputError[] => {
    parts.push({ label: `${capture} (${c.conversation.by} ${JSON.stringify(c.conversation.key)})`, result: r });
    return [];
  };
  const opts = { file: capture, path, prefix: 'assert' };
  const { errors: found } = !folder && isLogFile(path) ? await importLog(opts, each) : await importCaptureLog(opts, each);
  problems.push(...found);
  for (const p of parts) {
    const c = await conversationOf(capture, p.label, p.result, problems);
    if (c) out.push(c);
  }
  return out;
}

/** Requests held in memory (the test API): one conversation, read as a capture of wrapped bodies. */
export async function conversationOfText(text: string, label: string, problems: InputError[]): Promise<Conversation | undefined> {
  const { result, errors } = importTrace(text, { file: label, id: 'assert' });
  if (!result) {
    problems.push(...errors);
    return undefined;
  }
  return conversationOf(label, label, result, problems);
}
