/**
 * Before/after diffs of a printed request, for review: line-level (the `diff` package's array
 * diff) with word-level segments inside changed lines. One row model serves both the unified and
 * the side-by-side views, and the +/− counts of the changes page and the PR summary. Every diff of
 * the project goes through here, each within a bound on its work (lineChanges, MAX_WORD_EDITS): the
 * texts are untrusted, and the diff's time grows with their size times their differences.
 */
import { type ArrayChange, diffArrays, diffWordsWithSpace } from 'diff';

export interface Segment {
  text: string;
  /** True for the words that differ from the other side. */
  changed: boolean;
}

export interface DiffRow {
  kind: 'same' | 'added' | 'removed' | 'changed';
  /** Line on the before side (absent for an added line). */
  before?: { line: number; segments: Segment[] };
  /** Line on the after side (absent for a removed line). */
  after?: { line: number; segments: Segment[] };
}

export interface RequestDiff {
  rows: DiffRow[];
  /** Lines only in after (changed lines count on both sides, as in git). */
  added: number;
  removed: number;
}

const whole = (text: string, changed: boolean): Segment[] => [{ text, changed }];

/**
 * How much work a line diff may do: Myers' diff takes time in proportion to (lines) × (edits), and
 * two 10,000-line requests with nothing in common took 9 s. Past this budget — lines × edits, the
 * same for the same texts on any machine, never a timer — two texts are one removal and one
 * insertion, which is what such a diff would show anyway (at 10,000 lines each: 56 ms).
 */
const LINE_EDIT_BUDGET = 20_000_000;

/** The line changes from `before` to `after` (the `diff` package's array diff, within LINE_EDIT_BUDGET). */
export function lineChanges<T>(before: readonly T[], after: readonly T[]): ArrayChange<T>[] {
  const maxEditLength = Math.max(100, Math.floor(LINE_EDIT_BUDGET / Math.max(1, before.length + after.length)));
  return (
    diffArrays([...before], [...after], { maxEditLength }) ?? [
      ...(before.length ? [{ value: [...before], count: before.length, added: false, removed: true }] : []),
      ...(after.length ? [{ value: [...after], count: after.length, added: true, removed: false }] : []),
    ]
  );
}

/** Word edits a changed line's diff looks for before it marks the whole line changed (wordParts, wordSegments). */
const MAX_WORD_EDITS = 400;

function wordSegments(a: string, b: string): [Segment[], Segment[]] {
  const left: Segment[] = [];
  const right: Segment[] = [];
  // Two long lines with nothing in common (a minified tool result, rewritten) took minutes word by word.
  const parts = diffWordsWithSpace(a, b, { maxEditLength: MAX_WORD_EDITS });
  if (!parts) return [whole(a, true), whole(b, true)];
  for (const part of parts) {
    if (!part.added) left.push({ text: part.value, changed: !!part.removed });
    if (!part.removed) right.push({ text: part.value, changed: !!part.added });
  }
  return [left, right];
}

/** A piece of a changed line: unchanged (`=`), only in the old text (`-`), only in the new (`+`). */
export interface WordPart {
  op: '=' | '-' | '+';
  text: string;
}

/**
 * A changed line as one run of words: what stayed, what went, what came (the `diff` package's word
 * diff, whitespace kept). Two lines with nothing in common beyond `maxEdits` word edits are one
 * removal and one insertion (the diff gives up instead of spending quadratic time on them).
 */
export function wordParts(before: string, after: string, maxEdits = MAX_WORD_EDITS): WordPart[] {
  const changes = diffWordsWithSpace(before, after, { maxEditLength: maxEdits });
  if (!changes) return [...(before ? [{ op: '-' as const, text: before }] : []), ...(after ? [{ op: '+' as const, text: after }] : [])];
  const parts: WordPart[] = [];
  for (const c of changes) {
    const op = c.added ? '+' : c.removed ? '-' : '=';
    const last = parts.at(-1);
    if (last?.op === op) last.text += c.value;
    else parts.push({ op, text: c.value });
  }
  return parts;
}

export function diffLines(before: readonly string[], after: readonly string[]): RequestDiff {
  const rows: DiffRow[] = [];
  let i = 0;
  let j = 0;
  let added = 0;
  let removed = 0;
  const changes = lineChanges(before, after);
  for (let c = 0; c < changes.length; c++) {
    const change = changes[c]!;
    if (!change.added && !change.removed) {
      for (const text of change.value) rows.push({ kind: 'same', before: { line: i++, segments: whole(text, false) }, after: { line: j++, segments: whole(text, false) } });
      continue;
    }
    if (change.removed) {
      const next = changes[c + 1];
      const adds = next?.added ? next.value : [];
      if (next?.added) c++;
      removed += change.value.length;
      added += adds.length;
      const paired = Math.min(change.value.length, adds.length);
      for (let k = 0; k < paired; k++) {
        const [l, r] = wordSegments(change.value[k]!, adds[k]!);
        rows.push({ kind: 'changed', before: { line: i++, segments: l }, after: { line: j++, segments: r } });
      }
      for (let k = paired; k < change.value.length; k++) rows.push({ kind: 'removed', before: { line: i++, segments: whole(change.value[k]!, true) } });
      for (let k = paired; k < adds.length; k++) rows.push({ kind: 'added', after: { line: j++, segments: whole(adds[k]!, true) } });
      continue;
    }
    added += change.value.length;
    for (const text of change.value) rows.push({ kind: 'added', after: { line: j++, segments: whole(text, true) } });
  }
  return { rows, added, removed };
}

/** A diff cut to its changes: runs of unchanged rows beyond `context` lines from a change become gaps. */
export type HunkRow = DiffRow | { kind: 'gap'; lines: number };

export function hunks(rows: readonly DiffRow[], context = 3): HunkRow[] {
  const near = rows.map(() => false);
  rows.forEach((r, i) => {
    if (r.kind === 'same') return;
    for (let k = Math.max(0, i - context); k <= Math.min(rows.length - 1, i + context); k++) near[k] = true;
  });
  const out: HunkRow[] = [];
  let gap = 0;
  rows.forEach((r, i) => {
    if (near[i]) {
      if (gap) out.push({ kind: 'gap', lines: gap });
      gap = 0;
      out.push(r);
    } else gap++;
  });
  if (gap) out.push({ kind: 'gap', lines: gap });
  return out;
}
