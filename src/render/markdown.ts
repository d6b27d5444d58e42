/**
 * Markdown for untrusted prose (scenario intros, titles, card notes, annotation comments):
 * micromark with its safe defaults — raw HTML is shown as text, and only http(s), mailto and
 * relative link targets survive (no `javascript:`). Browser-safe (the page script uses none of it,
 * but nothing here needs node).
 *
 * Cost: a build renders a note, a title or a comment for every card and pane of every page, and
 * micromark sets its parser up again on every call (most of a short text's time). Most of that
 * prose is one plain line — no character Markdown gives a meaning to — whose HTML is the text
 * itself, escaped, in a paragraph: `plainLine` says when, and that text skips micromark (the same
 * output: markdown.test.ts compares the two over generated text). Other text is rendered once per
 * distinct source and kept (a bounded cache: the same notes recur on page after page).
 *
 * Bound: micromark's emphasis matching slows down much faster than the text grows on long runs of
 * `*` and `_` (40,000 characters of `*a`: 15 s; 20,000: 1.5 s), so a scenario could stall every
 * build that renders it. A text with more than MAX_EMPHASIS_MARKS of them is shown as plain text
 * — escaped, its paragraphs kept — not as Markdown. No prose a person writes comes near it.
 */
import { micromark } from 'micromark';
import { escapeHtml } from './escape.ts';

/**
 * One line whose Markdown is its own text: letters, digits, spaces between words and punctuation
 * that starts no construct (no `` ` * _ [ ] ! < > & \ # ~ | ``), not starting with a list, heading or
 * quote marker (`-`, `+`, `1.`, `1)`), no leading or trailing space.
 */
const PLAIN_LINE = /^(?![-+]|\d+[.)])[\p{L}\p{N},.;:'"?%$@/()=+—–’‘“”…·×→←≈-]+(?: [\p{L}\p{N},.;:'"?%$@/()=+—–’‘“”…·×→←≈-]+)*$/u;
export const plainLine = (source: string): boolean => PLAIN_LINE.test(source);

/** micromark's HTML of a plain line's text: `"` is the only character of PLAIN_LINE it encodes. */
const plainHtml = (source: string): string => source.replaceAll('"', '&quot;');

const rendered = new Map<string, string>();
const KEEP = 4096;

/** `*` and `_` characters above which a text is not given to micromark (the bound, above). */
export const MAX_EMPHASIS_MARKS = 1000;

const tooManyMarks = (source: string): boolean => {
  let n = 0;
  for (let i = source.indexOf('*'); i >= 0 && n <= MAX_EMPHASIS_MARKS; i = source.indexOf('*', i + 1)) n++;
  for (let i = source.indexOf('_'); i >= 0 && n <= MAX_EMPHASIS_MARKS; i = source.indexOf('_', i + 1)) n++;
  return n > MAX_EMPHASIS_MARKS;
};

/** The text as paragraphs of plain, escaped text (blank lines separate them, as in Markdown). */
const plainParagraphs = (source: string): string =>
  source
    .split(/\n[ \t]*\n+/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join('\n');

export function safeMarkdown(source: string): string {
  if (plainLine(source)) return `<p>${plainHtml(source)}</p>`;
  let html = rendered.get(source);
  if (html === undefined) {
    html = tooManyMarks(source) ? plainParagraphs(source) : micromark(source, { allowDangerousHtml: false, allowDangerousProtocol: false });
    // Bounded: forget everything when full (a build's recurring notes come back at once).
    if (rendered.size >= KEEP) rendered.clear();
    rendered.set(source, html);
  }
  return html;
}

/**
 * Inline Markdown for one line of prose (a title, a note, a comment): `code`, *emphasis*, links —
 * without the paragraph around it. Text that is several paragraphs keeps them.
 */
export function inlineMarkdown(source: string): string {
  if (plainLine(source)) return plainHtml(source);
  const html = safeMarkdown(source).trim();
  const m = /^<p>([\s\S]*)<\/p>$/.exec(html);
  return m && !m[1]!.includes('<p>') ? m[1]! : html;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Inline Markdown as the plain text a reader sees (`code` without its backticks, *emphasis*
 * without its stars): for places that take text, not markup — a page's `<title>`, its
 * description, a `<select>` option.
 */
export function markdownText(source: string): string {
  if (plainLine(source)) return source;
  return inlineMarkdown(source)
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, n: string) =>
      n[0] === '#' ? String.fromCodePoint(n[1] === 'x' || n[1] === 'X' ? parseInt(n.slice(2), 16) : Number(n.slice(1))) : (ENTITIES[n] ?? m),
    );
}
