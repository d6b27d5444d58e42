/**
 * Does an annotation anchor on protocol metadata? A fold may start a message with a metadata line
 * — `@<offset>` then `actor=…`, `refs=[…]` — that says where the message came from, not what it
 * says. Seed 000 notes that anchoring annotations on content (or on section tags) is what lets the
 * fixtures regenerate without re-anchoring when the fold's metadata rule changes; an anchor on the
 * `@N …` line goes stale the day that rule moves. So the check warns (it is not an error: the
 * anchor does resolve today).
 *
 * A printed line holds a metadata line when it is the first content line of a message, its text
 * starts with `@<N>` (followed by a space or the end), and N is one of the offsets the line came
 * from (the message's own event) — so a person who happens to type "@12" is not mistaken for it.
 */
import type { PrintedLine } from './print.ts';
import type { Anchor } from './weave.ts';

const BLOCK_HEAD = '    content: |-';
const QUOTED_HEAD = '    content: "';
const META = /^@(\d+)(?= |$)/;

/** Character range of the metadata line inside printed line `i`, or null when it holds none. */
export function metadataRange(lines: readonly PrintedLine[], i: number): { start: number; end: number } | null {
  const line = lines[i];
  if (!line || line.message < 0) return null;
  const owns = (n: string): boolean => line.from.includes(Number(n));
  if (lines[i - 1]?.text === BLOCK_HEAD && lines[i - 1]!.message === line.message) {
    const start = line.text.length - line.text.trimStart().length;
    const m = META.exec(line.text.slice(start));
    return m && owns(m[1]!) ? { start, end: line.text.length } : null;
  }
  if (line.text.startsWith(QUOTED_HEAD)) {
    const start = QUOTED_HEAD.length;
    const m = META.exec(line.text.slice(start));
    if (!m || !owns(m[1]!)) return null;
    const nl = line.text.indexOf('\\n', start); // JSON-quoted: the metadata line ends at the first escaped newline
    return { start, end: nl < 0 ? line.text.length - 1 : nl };
  }
  return null;
}

/** True when the anchor's matched text overlaps a metadata line. */
export function anchorsOnMetadata(lines: readonly PrintedLine[], a: Anchor): boolean {
  const r = metadataRange(lines, a.line);
  return r !== null && a.start < r.end && a.end > r.start;
}

export function metadataAnchorWarning(a: Anchor, request: number): string {
  return `find ${JSON.stringify(a.annotation.find)} anchors on protocol metadata (the \`@N …\` first line of a message) in request @${request}: it goes stale when the fold's metadata rule changes although the content it explains did not — anchor on the message's content or its section tag instead`;
}
