/**
 * A capture holding several conversations → one scenario per conversation, for `npm run import --
 * <capture> --out-dir <folder>` (the command treats it as it treats a log: log/index.ts). Several
 * Claude Code sessions joined in one file, several Codex rollouts, AI SDK DevTools runs, OpenInference
 * spans of several sessions: each capture names its own session key (`sessionId`, `session_meta.id`,
 * `session.id` / `user.id`), and failing one the requests are grouped as a log's are (log/group.ts:
 * the body's key, else the prefix chain). Unlike a log, a capture is read whole — its requests are
 * rebuilt from the lines before them — so memory grows with the file (captures are one machine's
 * sessions, not a gateway's day); a folder is read a session at a time (folder.ts sessionGroups),
 * so there it grows with the largest session.
 *
 * Whether a file is a log or a capture is decided by its first non-blank line (isLogFile; a
 * compressed file's, decompressed: trace-file.ts): a request body, bare or wrapped, is a log;
 * anything else is read as a capture.
 */
import { statSync } from 'node:fs';
import type { InputError } from '../../scenarios/errors.ts';
import { importCapture, type ImportResult } from '../index.ts';
import { readFolder, sessionGroups } from '../folder.ts';
import { LeftOutTally } from '../left-out.ts';
import type { Chunk } from '../read.ts';
import { readChunks } from '../read.ts';
import { firstTraceLine, readTraceFile } from '../trace-file.ts';
import { bodyOf } from './group.ts';
import { scenarioId, type LogConversation, type LogOptions, type LogResult } from './index.ts';

/** Whether the file's first non-blank line is a request body (bare or wrapped): a log, read line by line. A compressed file is read decompressed (trace-file.ts). */
export function isLogFile(path: string): boolean {
  const first = firstTraceLine(path);
  return first !== undefined && looksLikeBody(first);
}

function looksLikeBody(line: string): boolean {
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === 'object' && v !== null && !Array.isArray(v) && bodyOf(v as Record<string, unknown>) !== undefined;
  } catch {
    return false;
  }
}

/**
 * The capture's conversations, each imported and handed to `each` (to check and stage), as importLog
 * does. `sessionDone` is called after each session of a folder: what the caller keeps for a session's
 * sub-agents (their parent's scenario) can go.
 */
export async function importCaptureLog(
  opts: LogOptions & { capture?: string; sessionDone?: () => void },
  each: (c: LogConversation, result: ImportResult) => InputError[] | Promise<InputError[]>,
): Promise<{ result?: LogResult; errors: InputError[] }> {
  const errors: InputError[] = [];
  const ids = new Set<string>();
  const out: LogConversation[] = [];
  const leftOut = new LeftOutTally();
  /** One part of the capture (the file, or one session of a folder): its conversations imported and handed on. */
  const importPart = async (chunks: Chunk[], sessions?: number): Promise<void> => {
    const found = importCapture(chunks, {
      ...(sessions !== undefined && { sessions }),
      file: opts.file,
      id: opts.prefix,
      ...(opts.capture && { capture: opts.capture }),
      ...(opts.format && { format: opts.format }),
      idOf: (c) => scenarioId(opts.prefix, c, ids),
      ...(opts.previous && { previousOf: opts.previous }),
    });
    errors.push(...(found.conversations ? [] : found.errors));
    for (const e of found.leftOut ?? []) leftOut.add(e.what, e.why, e, e.count, e.requests);
    for (const c of found.conversations ?? []) {
      const conv: LogConversation = { id: c.id, conversation: c.conversation, requests: c.result.requests, lines: c.lines };
      errors.push(...(await each(conv, c.result)));
      out.push(conv);
    }
  };
  let lines = 0;
  if (statSync(opts.path).isDirectory()) {
    // A folder (a Claude Code project or session folder, a day of Codex rollouts): a session at a time, each let go before the next is read.
    const groups = sessionGroups(opts.path, opts.file, errors);
    for (const files of groups) {
      const read: InputError[] = [];
      const { chunks } = readFolder(opts.path, opts.file, read, files);
      errors.push(...read);
      // Every session is read and imported, so every problem is said at once (the caller writes nothing after one).
      if (read.length || !chunks.length) continue;
      lines += chunks.length;
      await importPart(chunks, groups.length);
      opts.sessionDone?.();
    }
  } else {
    // A log would have been read line by line (log/index.ts): a file too large to read whole here is not one.
    const read = readTraceFile(opts.path, opts.file, { logsReadByLine: true });
    if ('error' in read) return { errors: [read.error] };
    const chunks = readChunks(read.text, opts.file, errors);
    if (errors.length) return { errors };
    lines = read.text.split('\n').filter((l) => l.trim() !== '').length;
    await importPart(chunks);
  }
  return errors.length ? { errors } : { result: { conversations: out, lines, leftOut: leftOut.list() }, errors };
}
