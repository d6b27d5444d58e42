/**
 * Sub-agents of a capture (a Claude Code session's `isSidechain` calls, an OpenInference agent's LLM
 * spans below another agent's): their requests name the conversation that started them (`parent`). Imported with --out-dir, each sub-agent is a scenario
 * of its own that shares its parent’s provider cache (`sharesCache:`, src/pages/reference/writing-scenarios.mdx),
 * from the parent's request sent last before the sub-agent's first (by time; by line when the
 * capture has no times) — that request's time is the sub-agent's time zero. Imported as one
 * scenario, the parent's requests are kept and the sub-agents' are left out and said, with how to
 * import them.
 */
import type { LeftOut } from './left-out.ts';
import type { Conversation } from './log/group.ts';
import { fileOf, lineOf, type Req } from './request.ts';

/** One conversation of a capture, named by its scenario id. */
export interface Named {
  id: string;
  conversation: Conversation;
  reqs: readonly Req[];
}

const same = (a: Conversation, b: Conversation): boolean => a.by === b.by && a.key === b.key;

/** A sub-agent's link to its parent's scenario, when the parent is among `all`. */
export function linkOf(sub: Named, all: readonly Named[]): { scenario: string; at: number; startMs?: number } | undefined {
  const parent = sub.reqs.find((r) => r.parent)?.parent;
  const first = sub.reqs[0];
  if (!parent || !first) return undefined;
  const p = all.find((g) => g !== sub && same(g.conversation, parent));
  if (!p?.reqs.length) return undefined;
  const timed = first.timestampMs !== undefined && p.reqs.every((r) => r.timestampMs !== undefined);
  const before = p.reqs.filter((r) => (timed ? r.timestampMs! <= first.timestampMs! : r.offset < first.offset));
  const at = before.at(-1) ?? p.reqs[0]!;
  // The parent's events are numbered 1..N in the order sent (to-scenario.ts).
  return { scenario: p.id, at: p.reqs.indexOf(at) + 1, ...(timed && { startMs: at.timestampMs! }) };
}

/**
 * One scenario's requests: a capture holding a session's own requests and its sub-agents' keeps the
 * session's and says what it leaves out; a capture of sub-agent calls alone (a sub-agent's own file)
 * keeps them.
 */
export function withoutSubAgents(reqs: readonly Req[], file: string): { kept: Req[]; leftOut?: LeftOut } {
  const main = reqs.filter((r) => !r.parent);
  if (main.length === reqs.length || main.length === 0) return { kept: [...reqs] };
  const sub = reqs.filter((r) => r.parent);
  const agents = new Set(sub.map((r) => `${r.conversation?.by}\u0000${r.conversation?.key}`)).size;
  // The first one in the trace, as read (a folder's files in path order, folder.ts): its line, not its offset, which is its line only
  // in some captures (an OpenInference request's is its place in time).
  const first = sub.map((r) => ({ line: lineOf(r, file), file: fileOf(r) ?? '' })).sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line))[0]!;
  return {
    kept: main,
    leftOut: {
      what: `sub-agent calls (${agents} sub-agent${agents === 1 ? '' : 's'})`,
      count: sub.length,
      why: 'each sub-agent is a conversation of its own: import with --out-dir <folder> to get each as a scenario linked to this one (sharesCache)',
      line: first.line,
      ...(first.file !== '' && { file: first.file }),
    },
  };
}
