/**
 * A fixture block written as what its request adds to an earlier one (format.ts), both ways. In a
 * conversation each request re-sends every message of the one before and adds a turn, so printing
 * every request whole made a 400-request conversation's fixture 45 MB; the short form is linear.
 *
 * The block reads
 *
 *     # ⋯ model and messages 0–11 as in request @32 (unchanged); from message 12:
 *       - role: assistant
 *       …
 *
 * and means: request @32's whole text up to where its message 12 begins — without the comments
 * that stand there at the end (they belong to the line below them, so they are printed again in
 * the rest when this request has them) and without its ✂ line (that compared @32 with the request
 * before it) — then the lines after the `# ⋯` line. A message starts at a line `  - role: …`: the
 * printer writes no other line at that indentation with that key (content lines are indented six
 * spaces or quoted on one line, comments start with `#`), so the split is exact.
 *
 * The writer (`continuation`) picks the most messages for which that rule gives back the request's
 * whole text byte for byte, and checks it by rebuilding; where nothing carries over (a changed
 * model, a changed first message, a comment of this request in the first message) it returns null
 * and the block is printed whole. Its annotations, ✂ line and breakpoints then always stand where a
 * whole block would print them: a comment inside the carried-over messages that the earlier request
 * does not print there moves the start back to the message holding it.
 */
import { UserError } from '../errors.ts';
import { CUT_COMMENT } from '../prompt/weave.ts';

const HEAD = /^# ⋯ model and (?:message 0|messages 0–(\d+)) as in request @(\d+) \(unchanged\); from message (\d+):$/;
const ROLE = /^ {2}- role: /;
const COMMENT = /^ *# /;
const CUT = new RegExp(`^ *# ${CUT_COMMENT.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/** The head line of a block that carries `n` (≥ 1) messages over from request @`offset`. */
export const continuationHead = (offset: number, n: number): string =>
  `# ⋯ model and ${n === 1 ? 'message 0' : `messages 0–${n - 1}`} as in request @${offset} (unchanged); from message ${n}:`;

const firstLine = (block: string): string => {
  const nl = block.indexOf('\n');
  return nl < 0 ? block : block.slice(0, nl);
};

/** Whether a block's text is written as a continuation (its first line is the `# ⋯` head). */
export const isContinuation = (block: string): boolean => HEAD.test(firstLine(block));

/** Index of the line where message `n` begins (the line count when the request has exactly `n` messages); -1 when it has fewer. */
function messageStart(lines: readonly string[], n: number): number {
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!ROLE.test(lines[i]!)) continue;
    if (seen === n) return i;
    seen++;
  }
  return seen === n ? lines.length : -1;
}

/** The lines before `end`, without the comment lines that stand right before it. */
function withoutTrailingComments(lines: readonly string[], end: number): string[] {
  let k = end;
  while (k > 0 && COMMENT.test(lines[k - 1]!)) k--;
  return lines.slice(0, k);
}

/** What a continuation of `earlier` carries over: its lines before message `n`, without its ✂ line and the comments right before message `n` (null: it has fewer than `n` messages). */
function carried(earlier: readonly string[], n: number): string[] | null {
  const end = messageStart(earlier, n);
  if (end < 0) return null;
  return withoutTrailingComments(earlier, end).filter((l) => !CUT.test(l));
}

/** The lines split where each message begins: [the `model:`/`messages:` head, message 0, message 1, …]. */
function segments(lines: readonly string[]): (readonly string[])[] {
  const out: string[][] = [[]];
  for (const l of lines) {
    if (ROLE.test(l)) out.push([]);
    out.at(-1)!.push(l);
  }
  return out;
}

const sameLines = (x: readonly string[], y: readonly string[]): boolean => x.length === y.length && x.every((l, k) => l === y[k]);

/** `later` (a request's whole text) as a continuation of `earlier` (the whole text of request @`offset`), or null when no message carries over. */
export function continuation(offset: number, earlier: string, later: string): string | null {
  const a = earlier.split('\n');
  const b = later.split('\n');
  const sa = segments(a.filter((l) => !CUT.test(l)));
  const sb = segments(b);
  // Segments the same in both, comments included (the earlier request's ✂ line left out).
  let same = 0;
  while (same < sa.length && same < sb.length && sameLines(sa[same]!, sb[same]!)) same++;
  // Carrying m messages takes the head and messages 0 … m − 1: all but the last the same, the last up to the comments at its end.
  for (const m of [same, same - 1]) {
    if (m < 1) continue;
    const text = tryContinuation(offset, a, b, m);
    if (text !== null) return text;
  }
  return null;
}

/** `later` as a continuation carrying `m` messages of `earlier`, when rebuilding it gives `later` back exactly. */
function tryContinuation(offset: number, earlier: readonly string[], later: readonly string[], m: number): string | null {
  const kept = carried(earlier, m);
  const end = messageStart(later, m);
  if (!kept || end < 0) return null;
  const own = withoutTrailingComments(later, end);
  if (!sameLines(own, kept)) return null;
  const text = [continuationHead(offset, m), ...later.slice(own.length)].join('\n');
  return rebuildWith(text, earlier.join('\n')) === later.join('\n') ? text : null;
}

/** A continuation block's whole text, given the whole text of the request it continues (null: a head that does not parse, or too few messages there). */
function rebuildWith(block: string, earlier: string): string | null {
  const nl = block.indexOf('\n');
  const m = HEAD.exec(firstLine(block));
  if (!m) return null;
  const kept = carried(earlier.split('\n'), Number(m[3]));
  if (!kept) return null;
  return nl < 0 ? kept.join('\n') : [...kept, block.slice(nl + 1)].join('\n');
}

/**
 * The whole text of a continuation block: `earlier` holds the whole texts of the blocks before it
 * (by offset); `where` names the block in an error (a block that continues no earlier one, or
 * carries more messages than it has — a fixture edited by hand or cut short).
 */
export function rebuild(block: string, earlier: ReadonlyMap<number, string>, where: string): string {
  const m = HEAD.exec(firstLine(block))!;
  const from = Number(m[2]);
  const n = Number(m[3]);
  const fix = 'rewrite the fixtures with the update command (they are generated, never edited by hand)';
  if (m[1] !== undefined ? Number(m[1]) !== n - 1 : n !== 1)
    throw new UserError(`${where}: its first line names messages that end before message ${n}, where it goes on: ${firstLine(block)}`, { fix });
  const whole = earlier.get(from);
  if (whole === undefined) throw new UserError(`${where} continues request @${from}, which no block before it holds`, { fix });
  const text = rebuildWith(block, whole);
  if (text === null) throw new UserError(`${where} carries ${n} messages over from request @${from}, which has fewer`, { fix });
  return text;
}
