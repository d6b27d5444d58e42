/**
 * The step every wire mapping starts with: take the request's tool list (the `requests` fold's
 * `tools` message, see src/folds/tools.ts) out of the messages, and say where the
 * request's cache breakpoints fall in what is left — per message, the character positions a
 * cached prefix ends at (`cuts`), and the tools a breakpoint names. A `tools` message whose
 * content is not a JSON list stays a message (the mappings send it as user text).
 *
 * Breakpoints are the request's own (WireSource.breakpoints); a request without any gets
 * `defaults` (Anthropic: cacheBreakpoints, the common agent strategy; OpenAI: none — its caching
 * is implicit). A breakpoint in the tool list names the last tool whose entry ends at or before
 * it (toolEntryEnds), so a mapping never caches more than the request asked for.
 */
import type { Breakpoint, RenderedMessage } from '../../folds/types.ts';
import { parseToolsContent, toolEntryEnds, TOOLS_ROLE } from '../../folds/tools.ts';
import type { WireSource } from '../types.ts';

/** A cached prefix ends `end` characters into a message (0 … content.length). */
export interface Cut {
  end: number;
  ttl?: '5m' | '1h';
}

export interface Split {
  /** The tool list, when the request carries one. */
  tools?: unknown[];
  /** Tools a breakpoint ends at (index into `tools`), in order. */
  toolCuts: { index: number; ttl?: '5m' | '1h' }[];
  /** Every other message, in order. */
  messages: RenderedMessage[];
  /** Per message of `messages`: where breakpoints fall in it, ascending. */
  cuts: Cut[][];
}

export function splitTools(src: WireSource, defaults?: (messages: readonly { role: string }[]) => number[]): Split {
  const out: Split = { toolCuts: [], messages: [], cuts: [] };
  const position = new Map<number, number>(); // source index → index in out.messages
  let toolsAt = -1;
  src.messages.forEach((message, i) => {
    const tools = message.role === TOOLS_ROLE && out.tools === undefined ? parseToolsContent(message.content) : undefined;
    if (tools) {
      out.tools = tools;
      toolsAt = i;
    } else {
      position.set(i, out.messages.length);
      out.messages.push(message);
      out.cuts.push([]);
    }
  });
  const own: readonly Breakpoint[] = src.breakpoints ?? [];
  const marks: readonly Breakpoint[] = own.length
    ? own
    : // Default positions are in the split list: a `tools` message that stayed in it is plain user text.
      (defaults?.(out.messages.map((m) => ({ role: m.role === TOOLS_ROLE ? 'user' : m.role }))) ?? []).map(
        (k): Breakpoint => ({
          message: [...position].find(([, p]) => p === k)![0],
        }),
      );
  for (const b of marks) {
    const ttl = b.ttl ? { ttl: b.ttl } : {};
    if (b.message === toolsAt && out.tools) {
      const ends = toolEntryEnds(out.tools);
      const end = b.end ?? Number.POSITIVE_INFINITY;
      const index = ends.findLastIndex((e) => e <= end);
      if (index >= 0) out.toolCuts.push({ index, ...ttl });
      continue;
    }
    const at = position.get(b.message);
    if (at === undefined) continue;
    out.cuts[at]!.push({ end: b.end ?? out.messages[at]!.content.length, ...ttl });
  }
  return out;
}

/** `text` split at the given interior positions: [text, cut ending there (if any)] pieces, in order. */
export function segments(text: string, cuts: readonly Cut[]): { text: string; cut?: Cut }[] {
  const out: { text: string; cut?: Cut }[] = [];
  let at = 0;
  for (const c of cuts) {
    if (c.end <= at || c.end >= text.length) continue;
    out.push({ text: text.slice(at, c.end), cut: c });
    at = c.end;
  }
  out.push({ text: text.slice(at) });
  return out;
}
