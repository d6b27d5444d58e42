/**
 * A folder as one capture: every `.jsonl` file under it (and Codex's compressed rollouts), in path
 * order, each file's values read as its own (readChunks) and tagged with the file they came from, so
 * that a position, a left-out line
 * and an event's note name the right file. This is how Claude Code keeps a session — its transcript
 * `~/.claude/projects/<project>/<session>.jsonl` and, when it ran sub-agents, their transcripts in
 * `<session>/subagents/agent-<id>.jsonl` — and how it keeps a project's sessions side by side: a
 * project folder, or a session file's folder, imports with its sub-agents linked to their parent
 * (sub-agents.ts), which the session file alone cannot give. Path order puts `<session>.jsonl`
 * before `<session>/…` ('.' sorts before '/'), so a parent's lines come before its sub-agents'.
 *
 * A project folder is imported a session at a time (sessionGroups): a session's transcript with
 * its sub-agents', the files whose lines name the same `sessionId`, are read together and let go
 * before the next are read — so memory grows with the largest session, not the folder (a capture
 * is read whole, about 11× its size).
 */
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { runCommandWithArgs } from '../project.ts';
import type { InputError } from '../scenarios/errors.ts';
import { readChunks, type Chunk } from './read.ts';
import { readTraceFile } from './trace-file.ts';

/**
 * Codex compresses its rollouts once they are a week old (`~/.codex/archived_sessions`, zstd, as
 * `rollout-….jsonl.zst`: openai/codex `codex-rs/rollout/src/compression.rs` at 3846901, read
 * 2026-12-08), and reads a `.jsonl` beside its `.jsonl.zst` in its place (`should_skip_compressed_sibling`:
 * it decompresses a rollout to append to it, then removes the compressed one). A folder is read the
 * same way: both kinds of file, the compressed one skipped where its plain one is there — one
 * session, never imported twice. The text is decompressed as the file is read (trace-file.ts).
 */
const COMPRESSED = '.jsonl.zst';

/** The `.jsonl` (and `.jsonl.zst`, see COMPRESSED) files under `dir`, as paths relative to it with `/`, in code-unit order (deterministic on every platform). */
export function folderFiles(dir: string): string[] {
  const all = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && (e.name.endsWith('.jsonl') || e.name.endsWith(COMPRESSED)))
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'));
  const plain = new Set(all.filter((f) => f.endsWith('.jsonl')));
  return all.filter((f) => !f.endsWith(COMPRESSED) || !plain.has(f.slice(0, -'.zst'.length))).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Every value of every `.jsonl` file under `dir` (folderFiles: Codex's `.jsonl.zst` too; shown as
 * `display`), each tagged with its file (`display/<path>`). An empty file is skipped (Claude Code
 * leaves empty transcripts behind); a folder with no such file is an error naming what it expected.
 */
export function readFolder(dir: string, display: string, errors: InputError[], files = folderFiles(dir)): { chunks: Chunk[]; files: string[] } {
  if (!files.length) {
    errors.push(noTranscript(display));
    return { chunks: [], files };
  }
  const chunks: Chunk[] = [];
  const read: string[] = [];
  for (const f of files) {
    const file = `${display.replace(/\/+$/, '')}/${f}`;
    // Read as a trace file is: a file too large for one string is a located problem, not a crash.
    const got = readTraceFile(join(dir, f), file);
    if ('error' in got) {
      errors.push(got.error);
      continue;
    }
    if (got.text.trim() === '') continue;
    for (const c of readChunks(got.text, file, errors)) chunks.push({ ...c, file });
    read.push(f);
  }
  return { chunks, files: read };
}

const noTranscript = (display: string): InputError => ({
  pos: { file: display, line: 1, col: 1 },
  message: 'the folder holds no .jsonl (or .jsonl.zst) file',
  fix: 'give a Claude Code project folder (~/.claude/projects/<project>/), a session’s folder, a folder of Codex rollouts (~/.codex/sessions/), or a capture file',
});

/** How much of a file's start is looked at for the `sessionId` that groups it (a transcript may open with `summary` lines without one). */
const SESSION_HEAD_BYTES = 1 << 20;

/** The `sessionId` the first whole lines of a file's first megabyte name (the first that names one), or undefined. */
function sessionIdOf(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined; // the read that follows says why
  }
  let text: string;
  let whole: boolean;
  try {
    const size = fstatSync(fd).size;
    whole = size <= SESSION_HEAD_BYTES;
    const buf = Buffer.alloc(Math.min(SESSION_HEAD_BYTES, size));
    text = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
  // Whole lines only: past the megabyte, the last line read may be cut short.
  const lines = text.split('\n');
  for (const line of whole ? lines : lines.slice(0, -1)) {
    if (line.trim() === '') continue;
    try {
      const v = JSON.parse(line) as { sessionId?: unknown } | null;
      if (v && typeof v === 'object' && typeof v.sessionId === 'string' && v.sessionId !== '') return v.sessionId;
    } catch {
      return undefined; // not JSON Lines: the import says where when it reads the file
    }
  }
  return undefined;
}

/**
 * The folder's `.jsonl` files in the groups that are imported together, in the order of each
 * group's first file: the files whose first lines name the same `sessionId` — a Claude Code
 * session's transcript and its sub-agents' (`<session>/subagents/agent-*.jsonl` in 2.1, or
 * `agent-<id>.jsonl` beside the session in earlier versions: sub-agent lines carry their session's
 * id) — and every other file alone (a Codex rollout is one session per file). A folder without a
 * `.jsonl` file is an error.
 */
export function sessionGroups(dir: string, display: string, errors: InputError[]): string[][] {
  const files = folderFiles(dir);
  if (!files.length) {
    errors.push(noTranscript(display));
    return [];
  }
  const groups = new Map<string, string[]>();
  for (const f of files) {
    const key = sessionIdOf(join(dir, f)) ?? `\u0000${f}`;
    const g = groups.get(key);
    if (g) g.push(f);
    else groups.set(key, [f]);
  }
  return [...groups.values()];
}

/**
 * The sub-agent transcripts Claude Code keeps beside a session file (`<session>.jsonl` →
 * `<session>/subagents/*.jsonl`), relative to the session file's folder: what an import of the
 * session file alone does not read, so the command says so (nothing is skipped silently).
 */
export function subAgentFilesBeside(file: string): string[] {
  if (!file.endsWith('.jsonl')) return [];
  const base = file.slice(0, -'.jsonl'.length);
  const dir = join(base, 'subagents');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  const session = base.split(/[\\/]/).at(-1)!;
  return folderFiles(dir).map((f) => `${session}/subagents/${f}`);
}

/** The line the import prints for sub-agent transcripts beside the session file it read (`display`), or undefined when there are none. */
export function subAgentNote(display: string, abs: string): string | undefined {
  const files = subAgentFilesBeside(abs);
  if (!files.length) return undefined;
  const folder = display.split('/').slice(0, -1).join('/') || '.';
  return (
    `not read: ${files.length} sub-agent transcript(s) beside ${display} (${files.join(', ')}): each sub-agent is a conversation of its own; ` +
    `import the folder to get them as scenarios linked to this session (sharesCache): ${runCommandWithArgs('import')} ${folder} --out-dir <folder>`
  );
}
