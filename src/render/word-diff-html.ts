/**
 * A changed line, shown down to the word: what went (`<del>`), what came (`<ins>`), and only a
 * little of what stayed — an unchanged run longer than a few words of context either side of a
 * change becomes a gap that says how much was left out ("⋯ 10,652 unchanged characters ⋯").
 * A timestamp inserted into a 10,800-character system line is then one short row, not the whole
 * line struck out (and the page does not carry the line a second time).
 *
 * One writer for every view of a changed line: the pane's "changed words" row (pane-markup.ts —
 * at build time, and from the page's data for panes the browser builds), the review's unified and
 * side-by-side diffs (Review.astro), reference before/afters (TextDiff.astro) and /changes/ rows.
 * Pure and free of the diff package (the parts come from prompt/diff.ts), so the page script can
 * carry it. Every piece of text is escaped here. `<del>`/`<ins>` are the semantics; the stylesheet
 * adds their spoken words ("removed", "added") as generated content (site.css).
 */
import type { Segment, WordPart } from '../prompt/diff.ts';
import { escapeHtml } from './escape.ts';

/** Characters of unchanged text kept on each side of a change. */
export const CONTEXT = 40;

const esc = escapeHtml;

/** Cut `text` at `i` without splitting a surrogate pair (moves the cut one unit left if needed). */
const at = (text: string, i: number): number => (i > 0 && i < text.length && /[\uDC00-\uDFFF]/.test(text[i]!) ? i - 1 : i);

const gap = (n: number): string => `<span class="gap">⋯ ${n.toLocaleString('en')} unchanged character${n === 1 ? '' : 's'} ⋯</span>`;

/** An unchanged run, its middle left out when it is long (first: nothing before it; last: nothing after). */
function same(text: string, first: boolean, last: boolean, context: number): string {
  const keepHead = first ? 0 : context;
  const keepTail = last ? 0 : context;
  // A gap must save more than it costs to say.
  if (text.length <= keepHead + keepTail + 40) return esc(text);
  const head = at(text, keepHead);
  const tail = at(text, text.length - keepTail);
  return `${esc(text.slice(0, head))}${gap(tail - head)}${esc(text.slice(tail))}`;
}

/** The parts of a changed line as HTML: unchanged runs shortened, removed words in `<del>`, added in `<ins>`. */
export function wordDiffHtml(parts: readonly WordPart[], context = CONTEXT): string {
  let out = '';
  parts.forEach((p, i) => {
    if (p.op === '=') out += same(p.text, i === 0, i === parts.length - 1, context);
    else out += p.op === '-' ? `<del>${esc(p.text)}</del>` : `<ins>${esc(p.text)}</ins>`;
  });
  return out;
}

/**
 * One side of a changed line in a two-sided diff (prompt/diff.ts segments: `changed` words are the
 * ones the other side does not have), as `wordDiffHtml` writes it: `del` marks the before side's
 * changed words, `ins` the after side's; `none` writes a whole added or removed line as it is.
 */
export function sideHtml(segments: readonly Segment[], mark: 'del' | 'ins' | 'none', context = CONTEXT): string {
  if (mark === 'none') return esc(segments.map((s) => s.text).join(''));
  const op = mark === 'del' ? '-' : '+';
  return wordDiffHtml(
    segments.map((s) => ({ op: s.changed ? op : '=', text: s.text })),
    context,
  );
}
