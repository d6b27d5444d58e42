/**
 * A folder as one capture: every `.jsonl` file under it, in path order, each file's values read as
 * its own (readChunks) and tagged with the file they came from, so that a position, a left-out line
 * and an event's note name the right file. This is how Claude Code keeps a session — its transcript
 * `~/.claude/projects/<project>/<session>.jsonl` and, when it ran sub-agents, their transcripts in
 * `<session>/subagents/agent-<id>.jsonl` — and how it keeps a project's sessions side by side: a
 * project folder, or a session file's folder, imports with its sub-agents linked to their parent
 * (sub-agents.ts), which the session file alone cannot give. Path order puts `<session>.jsonl`
 * before `<session>/…` ('.' sorts before '/'), so a parent's lines come before its sub-agents'.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { runCommandWithArgs } from '../project.ts';
import type { InputError } from '../scenarios/errors.ts';
import { readChunks, type Chunk } from './read.ts';

/** The `.jsonl` files under `dir`, as paths relative to it with `/`, in code-unit order (deterministic on every platform). */
export function folderFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Every value of every `.jsonl` file under `dir` (shown as `display`), each tagged with its file
 * (`display/<path>`). An empty file is skipped (Claude Code leaves empty transcripts behind); a folder
 * with no `.jsonl` file is an error naming what it expected.
 */
export function readFolder(dir: string, display: string, errors: InputError[]): { chunks: Chunk[]; files: string[] } {
  const files = folderFiles(dir);
  if (!files.length) {
    errors.push({
      pos: { file: display, line: 1, col: 1 },
      message: 'the folder holds no .jsonl file',
      fix: 'give a Claude Code project folder (~/.claude/projects/<project>/), a session’s folder, or a capture file',
    });
    return { chunks: [], files };
  }
  const chunks: Chunk[] = [];
  const read: string[] = [];
  for (const f of files) {
    const text = readFileSync(join(dir, f), 'utf8');
    if (text.trim() === '') continue;
    const file = `${display.replace(/\/+$/, '')}/${f}`;
    for (const c of readChunks(text, file, errors)) chunks.push({ ...c, file });
    read.push(f);
  }
  return { chunks, files: read };
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
