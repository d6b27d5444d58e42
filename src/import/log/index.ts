/**
 * A log of many conversations (a gateway's or proxy's day of JSON Lines) → one scenario per
 * conversation (`npm run import -- <log> --out-dir <folder>`). Two passes, memory bounded by the
 * number of conversations rather than the log's size:
 *
 *   1. The log is read line by line (a stream): each line is parsed, assigned to its conversation
 *      (group.ts) and appended, as its text and line number, to that conversation's file in a
 *      temporary folder; only the grouping state stays in memory.
 *   2. Each conversation in turn (in order of its first line) is read back and imported exactly as
 *      a one-conversation trace is (index.ts importChunks: format, usage, secrets, the fold's
 *      checks), with every position still naming the log's own line; its scenario is handed to
 *      the caller, which checks and stages it, and is then dropped.
 *
 * Problems are collected from every conversation (each located in the log); the caller writes
 * nothing unless there are none. The temporary folder is removed whatever happens.
 */
import { appendFileSync, createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { InputError } from '../../scenarios/errors.ts';
import { importChunks, type ImportOptions, type ImportResult } from '../index.ts';
import { encodingProblem, withoutBom } from '../../scenarios/source.ts';
import { streamProblem, traceStream } from '../trace-file.ts';
import { lineChunk, type Chunk } from '../read.ts';
import type { LeftOut } from '../left-out.ts';
import { bodyOf, Grouper, type Conversation } from './group.ts';

/** A log that is not what it should be stops being read after this many problems (each located). */
export const MAX_PROBLEMS = 50;

export interface LogOptions {
  /** The log as the user named it (messages, scenarios). */
  file: string;
  /** Where to read it. */
  path: string;
  /** Scenario ids are `<prefix>-<conversation key>`. */
  prefix: string;
  format?: ImportOptions['format'];
  /** The scenario a re-import replaces, by id (its annotations and expect are kept). */
  previous?: (id: string) => string | undefined;
}

/** One conversation of the log, as imported. */
export interface LogConversation {
  id: string;
  conversation: Conversation;
  requests: number;
  /** First and last line of the log holding its requests. */
  lines: [number, number];
}

export interface LogResult {
  conversations: LogConversation[];
  /** Non-blank lines read. */
  lines: number;
  /** What was read past without becoming a request (a capture's; a log of bodies leaves nothing out: a line that is not a body is an error). */
  leftOut?: LeftOut[];
}

/** A scenario id part from a key: lower case, [a-z0-9-], at most 48 characters. */
export function idPart(key: string): string {
  return (
    key
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^[^a-z0-9]+|[-_]+$/g, '')
      .slice(0, 48)
      .replace(/[-_]+$/, '') || 'conversation'
  );
}

/**
 * A conversation's scenario id, unique among `ids` (which it joins): `<prefix>-<key>`, `<prefix>-chain-<n>` for a prefix
 * chain — or `<prefix>` alone when it already ends with the key (a Claude Code transcript is named by its sessionId, a
 * Codex rollout ends with its session id: `abc-abc` says nothing twice).
 */
export function scenarioId(prefix: string, conversation: Conversation, ids: Set<string>): string {
  const part = conversation.by === 'prefix chain' ? `chain-${conversation.key.slice('chain '.length)}` : idPart(conversation.key);
  const base = prefix === part || prefix.endsWith(`-${part}`) ? prefix : `${prefix}-${part}`;
  let id = base;
  for (let k = 2; ids.has(id); k++) id = `${base}-${k}`;
  ids.add(id);
  return id;
}

interface Open {
  n: number;
  id: string;
  conversation: Conversation;
  requests: number;
  first: number;
  last: number;
}

/**
 * Imports every conversation of the log; `each` receives each scenario (to check and stage it) and
 * returns its problems. Resolves to the conversations and every problem found.
 */
export async function importLog(
  opts: LogOptions,
  each: (c: LogConversation, result: ImportResult) => InputError[] | Promise<InputError[]>,
): Promise<{ result?: LogResult; errors: InputError[] }> {
  const { file } = opts;
  const errors: InputError[] = [];
  const spill = mkdtempSync(join(tmpdir(), 'prompt-fold-log-'));
  try {
    const grouper = new Grouper();
    const open = new Map<string, Open>();
    const ids = new Set<string>();
    let line = 0;
    let read = 0;
    // A compressed log (a rotated `.jsonl.gz`) is decompressed as it is read (trace-file.ts).
    const input = createInterface({ input: traceStream(opts.path), crlfDelay: Number.POSITIVE_INFINITY });
    try {
      for await (const next of input) {
        line++;
        const raw = line === 1 ? withoutBom(next) : next;
        // Not UTF-8 text (UTF-16, or binary): said once, at the first line that shows it, and reading stops.
        const encoding = encodingProblem(raw, file, line);
        if (encoding) {
          errors.push(encoding);
          input.close();
          break;
        }
        if (errors.length >= MAX_PROBLEMS) {
          errors.push({
            pos: { file, line, col: 1 },
            message: `reading stopped here, after ${MAX_PROBLEMS} problems in the lines before`,
            fix: 'fix those first (is this a log of request bodies? a capture such as a Claude Code transcript imports without --out-dir), then import again',
          });
          input.close();
          break;
        }
        const chunk = lineChunk(raw, line, file, errors);
        if (!chunk) continue;
        read++;
        if ('resourceSpans' in chunk.value) {
          errors.push({
            pos: { file, line, col: 1 },
            message: 'this line is an OTLP trace document; a log is read as request bodies, one per line',
            fix: 'import an OTLP export without --out-dir (one scenario), or log the request bodies',
          });
          continue;
        }
        const body = bodyOf(chunk.value);
        if (!body) {
          errors.push({
            pos: { file, line, col: 1 },
            message: 'not a request body (no `model`, `messages` or `input`) nor a wrapped one (`body`)',
            fix: 'write one request per line: the body as sent, or {"timestamp", "headers", "body", "response"}',
          });
          continue;
        }
        const conversation = grouper.assign(body);
        const key = `${conversation.by}\u0000${conversation.key}`;
        let c = open.get(key);
        if (!c) {
          const id = scenarioId(opts.prefix, conversation, ids);
          c = { n: open.size, id, conversation, requests: 0, first: line, last: line };
          open.set(key, c);
        }
        c.requests++;
        c.last = line;
        appendFileSync(join(spill, `${c.n}.jsonl`), `${line}\t${chunk.text}\n`);
      }
    } catch (err) {
      // The file could not be read on, or a compressed one does not decompress past this line.
      errors.push(streamProblem(opts.path, file, line + 1, err));
    }
    if (!read && !errors.length) errors.push({ pos: { file, line: 1, col: 1 }, message: 'the log is empty', fix: 'capture at least one request: one JSON request body per line' });
    if (errors.length) return { errors };
    const conversations: LogConversation[] = [];
    for (const c of open.values()) {
      const chunks: Chunk[] = [];
      // Read back line by line: one conversation may be larger than one string can hold (trace-file.ts).
      for await (const row of createInterface({ input: createReadStream(join(spill, `${c.n}.jsonl`), 'utf8'), crlfDelay: Number.POSITIVE_INFINITY })) {
        const tab = row.indexOf('\t');
        if (tab < 0) continue;
        const at = Number(row.slice(0, tab));
        const text = row.slice(tab + 1);
        chunks.push({ text, start: { line: at, col: 1 }, line: at, value: JSON.parse(text) as Record<string, unknown> });
      }
      const previous = opts.previous?.(c.id);
      const { result, errors: found } = importChunks(chunks, {
        file,
        id: c.id,
        conversation: c.conversation,
        ...(opts.format && { format: opts.format }),
        ...(previous !== undefined && { previous }),
      });
      errors.push(...found);
      const conv: LogConversation = { id: c.id, conversation: c.conversation, requests: c.requests, lines: [c.first, c.last] };
      if (result) errors.push(...(await each(conv, result)));
      conversations.push(conv);
    }
    return errors.length ? { errors } : { result: { conversations, lines: read }, errors };
  } finally {
    rmSync(spill, { recursive: true, force: true });
  }
}
