/**
 * Where a request's cache breakpoints sit in its printed lines, and how they read: the fixture
 * writes a `# ⚑ cache breakpoint …` comment under the line a breakpoint ends on, and the pane a
 * marker row there — so a change that moves a breakpoint (and so the bill) shows up in the
 * fixture diff. Distinct from the ✂ line, which compares bytes with the previous request: a
 * breakpoint is where the request asks the provider to write a cache entry.
 *
 * A breakpoint at the end of a message sits under the message's last printed line; one inside
 * the content sits under the content line it ends in, and says the character when it falls
 * inside the line (a single-line `content: "…"` counts characters of the content, a `|-` block
 * line those of that line).
 */
import type { Breakpoint, RenderedMessage } from '../folds/types.ts';
import { BLOCK_INDENT, type PrintedLine } from './print.ts';

/** Indentation of a message's keys (`    content: |-`). */
const KEY_INDENT = '    ';

/** A breakpoint as printed: under plain line `after`, with its label. */
export interface PrintedBreakpoint {
  after: number;
  label: string;
}

const TTL_WORDS: Record<string, string> = { '5m': '5 min', '1h': '1 h' };

/**
 * "cache breakpoint (1 h)"; when it falls inside a line, where: ", after character 12 of the line
 * above" (a `|-` block line) or ", after character 12 of the content" (a one-line content).
 */
export function breakpointLabel(ttl: Breakpoint['ttl'], inside?: { at: number; of: 'line' | 'content' }): string {
  const where = inside ? `, after character ${inside.at} of the ${inside.of === 'line' ? 'line above' : 'content'}` : '';
  return `cache breakpoint${ttl ? ` (${TTL_WORDS[ttl]})` : ''}${where}`;
}

/** The fixture comment of a breakpoint (without the `# `). */
export const BREAKPOINT_COMMENT_PREFIX = '⚑ ';
/** Reads a fixture comment back (the text after `# `): is it a breakpoint's? */
export const BREAKPOINT_COMMENT = /^⚑ cache breakpoint(?: \((?:5 min|1 h)\))?(?:, after character \d+ of the (?:line above|content))?$/;

/** Where each breakpoint sits in `lines` (printed from `messages`), in order. */
export function printedBreakpoints(lines: readonly PrintedLine[], messages: readonly RenderedMessage[], breakpoints: readonly Breakpoint[] | undefined): PrintedBreakpoint[] {
  if (!breakpoints?.length) return [];
  const first = new Map<number, number>();
  const lastOf = new Map<number, number>();
  lines.forEach((l, i) => {
    if (l.message < 0) return;
    if (!first.has(l.message)) first.set(l.message, i);
    lastOf.set(l.message, i);
  });
  return breakpoints.flatMap((b) => {
    const start = first.get(b.message);
    const m = messages[b.message];
    if (start === undefined || !m) return [];
    const length = m.content.length;
    const end = b.end ?? length;
    if (end >= length) return [{ after: lastOf.get(b.message)!, label: breakpointLabel(b.ttl) }];
    // The content's printed lines: `content: "…"` (one line, or an abridgement's stand-in) or the lines of a `|-` block.
    const contentAt = start + 1;
    const block = lines[contentAt]?.text === '    content: |-' && lines[contentAt]?.abridges === undefined;
    if (!block) return [{ after: contentAt, label: breakpointLabel(b.ttl, { at: end, of: 'content' }) }];
    let at = 0;
    const contentLines = m.content.split('\n');
    for (let k = 0; k < contentLines.length; k++) {
      const lineEnd = at + contentLines[k]!.length;
      if (end <= lineEnd) {
        // At the very start of a line (after a line break): under the line before it.
        if (end === at && k > 0) return [{ after: contentAt + k, label: breakpointLabel(b.ttl) }];
        if (end === at) return [{ after: contentAt, label: breakpointLabel(b.ttl) }];
        return [{ after: contentAt + 1 + k, label: breakpointLabel(b.ttl, end === lineEnd ? undefined : { at: end - at, of: 'line' }) }];
      }
      at = lineEnd + 1;
    }
    return [{ after: lastOf.get(b.message)!, label: breakpointLabel(b.ttl) }];
  });
}

/**
 * Indentation of a breakpoint comment under line `i`: the line's own; an empty block line: the
 * block's — unless only empty lines of its message follow (a content ending in a line break), where
 * a comment at the block's indentation would be read as content: then the message's keys'.
 */
export function breakpointIndent(lines: readonly PrintedLine[], i: number): string {
  const line = lines[i];
  if (!line) return '';
  if (line.text !== '' || line.message < 0) return /^ */.exec(line.text)![0];
  for (let k = i + 1; k < lines.length && lines[k]!.message === line.message; k++) if (lines[k]!.text !== '') return BLOCK_INDENT;
  return KEY_INDENT;
}
