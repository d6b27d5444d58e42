/**
 * Weaves comments into a printed request (src/pages/reference/writing-scenarios.mdx): the ✂ provider-cache line where this
 * request first differs from the previous one in its chain, each annotation's `# comment` above
 * the line its `find` anchors to, and a `# ⚑ cache breakpoint` comment under the line each of the
 * request's cache breakpoints ends on (breakpoints.ts; first among the comments there). Anchors are resolved here once; both the fixture text and the
 * site's highlighted pane use the same resolved positions. A stale anchor is an input error.
 */
import type { InputError } from '../scenarios/errors.ts';
import type { Annotation } from '../scenarios/model.ts';
import { BREAKPOINT_COMMENT_PREFIX, breakpointIndent, type PrintedBreakpoint } from './breakpoints.ts';
import { BLOCK_INDENT, type PrintedLine } from './print.ts';

export const CUT_COMMENT = '✂ provider cache: every token above this line is a byte-stable prefix (cached)';

/** An annotation resolved to the exact substring it marks. */
export interface Anchor {
  annotation: Annotation;
  /** Index into the printed (plain) lines. */
  line: number;
  /** Character range of the match within that line. */
  start: number;
  end: number;
  /** How many lines matched `find` (more than one without `occurrence` is ambiguous). */
  matches: number;
}

/** First line index where `lines` differs from `prev`; null when identical or there is no previous. */
export function cacheCut(lines: readonly PrintedLine[], prev: readonly string[] | null): number | null {
  if (!prev) return null;
  const n = Math.min(lines.length, prev.length);
  for (let i = 0; i < n; i++) if (lines[i]!.text !== prev[i]) return i;
  return lines.length === prev.length ? null : n;
}

const indentOf = (s: string): string => /^ */.exec(s)![0];

/**
 * Indentation of a comment woven above line `i`: the line's own. An empty line of a message is
 * always inside a `|-` block (the printer writes no other empty lines), and a comment there at
 * column 0 would end the block for every YAML reader — so it takes the block's indentation.
 */
function commentIndent(lines: readonly PrintedLine[], i: number): string {
  const line = lines[i];
  if (!line) return '';
  return line.text === '' && line.message >= 0 ? BLOCK_INDENT : indentOf(line.text);
}

/** Resolves annotations against the lines; stale ones become errors naming the closest lines. */
export function resolveAnchors(lines: readonly PrintedLine[], annotations: readonly Annotation[], errors: InputError[]): Anchor[] {
  const out: Anchor[] = [];
  for (const a of annotations) {
    const hits: number[] = [];
    lines.forEach((l, i) => {
      if (l.text.includes(a.find)) hits.push(i);
    });
    const want = a.occurrence ?? 1;
    const line = hits[want - 1];
    if (line === undefined) {
      errors.push(staleAnchor(a, lines, hits.length));
      continue;
    }
    const start = lines[line]!.text.indexOf(a.find);
    out.push({ annotation: a, line, start, end: start + a.find.length, matches: hits.length });
  }
  return out;
}

function staleAnchor(a: Annotation, lines: readonly PrintedLine[], count: number): InputError {
  const closest = closestLines(
    a.find,
    lines.map((l) => l.text),
    3,
  );
  if (count > 0) {
    return {
      pos: a.findPos,
      message: `find ${JSON.stringify(a.find)} matches ${count} line${count === 1 ? '' : 's'} of request @${a.request}, but occurrence is ${a.occurrence}`,
      fix: `use an occurrence from 1 to ${count}, or remove \`occurrence:\``,
    };
  }
  return {
    pos: a.findPos,
    message: `stale anchor: find ${JSON.stringify(a.find)} matches no line of request @${a.request}`,
    detail: closest.length ? ['closest rendered lines:', ...closest.map((l) => `  | ${l.trim()}`)] : [],
    fix: 'change `find:` to text the rendered request contains (see the closest lines), or remove the annotation if what it explained is gone',
  };
}

/** The `n` lines most similar to `needle` (shared character bigrams), best first. */
export function closestLines(needle: string, lines: readonly string[], n: number): string[] {
  const grams = (s: string): Map<string, number> => {
    const m = new Map<string, number>();
    const t = s.toLowerCase();
    for (let i = 0; i < t.length - 1; i++) m.set(t.slice(i, i + 2), (m.get(t.slice(i, i + 2)) ?? 0) + 1);
    return m;
  };
  const want = grams(needle);
  const size = Math.max(
    1,
    [...want.values()].reduce((x, y) => x + y, 0),
  );
  const scored = [...new Set(lines.filter((l) => l.trim()))].map((l) => {
    const have = grams(l);
    let shared = 0;
    for (const [g, c] of want) shared += Math.min(c, have.get(g) ?? 0);
    return { l, score: shared / size };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((x, y) => y.score - x.score)
    .slice(0, n)
    .map((s) => s.l);
}

/** Weaves the breakpoint comments, the ✂ line and annotation comments into the printed lines. */
export function weave(lines: readonly PrintedLine[], cut: number | null, anchors: readonly Anchor[], breakpoints: readonly PrintedBreakpoint[] = []): string {
  const above = new Map<number, string[]>();
  const add = (i: number, text: string, indent = commentIndent(lines, i)): void => {
    const list = above.get(i) ?? [];
    for (const t of text.split('\n')) list.push(`${indent}# ${t}`);
    above.set(i, list);
  };
  for (const b of breakpoints) add(b.after + 1, `${BREAKPOINT_COMMENT_PREFIX}${b.label}`, breakpointIndent(lines, b.after));
  if (cut !== null) add(cut, CUT_COMMENT);
  for (const a of anchors) add(a.line, a.annotation.comment);
  const out: string[] = [];
  lines.forEach((l, i) => {
    for (const c of above.get(i) ?? []) out.push(c);
    out.push(l.text);
  });
  for (const c of above.get(lines.length) ?? []) out.push(c);
  return out.join('\n');
}
