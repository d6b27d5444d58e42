/**
 * The playground's source view: the scenario text as plain DOM that looks like the editor (the same
 * box, line numbers, lint column, font, line height and wrapping), shown until the reader starts
 * editing — most readers open a shared link to READ a "what if", so CodeMirror (most of the page's
 * JavaScript) is loaded only on the first intent to edit (main.ts). The text is coloured from the
 * worker's YAML ranges (src/render/yaml-tokens.ts: the yaml package's parse) as the element of
 * each kind of token (yamlTokenTags, from corpus.json), exactly like the scenario pages' event YAML — strings, most
 * of the text, without a tag: the text's own colour is the string colour (site.css) — and the lines
 * with errors get a marker and a highlight. Everything is escaped: the text is untrusted.
 * `positionAt` turns a click into the line:column the editor's cursor goes to.
 */
import { type YamlTags, yamlHtmlLines } from '../render/yaml-html.ts';
import type { YamlKind, YamlRange } from '../render/yaml-tokens.ts';

export type TokenTags = YamlTags<YamlKind>;

const MARKER = '<span class="pg-src-marker"></span>';

/** One line's content (number, lint column, text: the three children renderSource updates) — the inside of its `.pg-src-ln` element. */
function lineInner(n: number, html: string, err: boolean): string {
  return `<span class="pg-src-no" aria-hidden="true">${n}</span><span class="pg-src-lint" aria-hidden="true">${err ? MARKER : ''}</span><span class="pg-src-text">${html}</span>`;
}

const lineClass = (err: boolean): string => `pg-src-ln${err ? ' pg-src-err' : ''}`;

/**
 * The lines of `text` as HTML: one `.pg-src-ln` per line (number, lint column, text), coloured from
 * `ranges` as the timeline's event YAML is (src/render/yaml-html.ts). Lines in `errorLines`
 * (1-based) are marked. Without ranges the text is plain.
 */
export function sourceHtml(text: string, ranges: readonly YamlRange[] | undefined, tags: TokenTags, errorLines: ReadonlySet<number> = new Set()): string {
  return yamlHtmlLines(text, ranges ?? [], tags)
    .map((html, i) => `<div class="${lineClass(errorLines.has(i + 1))}">${lineInner(i + 1, html, errorLines.has(i + 1))}</div>`)
    .join('');
}

/** What each line element of a source view shows: its text's markup and whether it is marked. */
const shown = new WeakMap<Element, { html: string; err: boolean }>();

/**
 * Writes the source view: its lines, and the width of its number column (as many digits as the last
 * line's number). Line elements are kept, and of each only what changed is rewritten (a line's text
 * when the colours arrive; its mark when the errors do). Two things below the source depend on it —
 * the errors and their "Go to line" buttons, where the reader is about to click: a line out of view
 * is not laid out (content-visibility) and keeps the height it last had only while its element
 * lives, and the browser keeps the view still across a re-layout (scroll anchoring) only while the
 * element it anchored to lives. Replacing every line collapsed the wrapped lines above the view and
 * moved the buttons under the pointer.
 */
export function renderSource(box: HTMLElement, text: string, ranges: readonly YamlRange[] | undefined, tags: TokenTags, errorLines: ReadonlySet<number> = new Set()): void {
  const lines = yamlHtmlLines(text, ranges ?? [], tags);
  const rows = box.children;
  lines.forEach((html, i) => {
    const err = errorLines.has(i + 1);
    const row = rows[i] ?? box.appendChild(document.createElement('div'));
    const was = shown.get(row);
    shown.set(row, { html, err });
    if (!was) {
      row.className = lineClass(err);
      row.innerHTML = lineInner(i + 1, html, err);
      return;
    }
    if (was.err !== err) {
      row.className = lineClass(err);
      row.children[1]!.innerHTML = err ? MARKER : '';
    }
    if (was.html !== html) row.children[2]!.innerHTML = html;
  });
  while (rows.length > lines.length) box.lastElementChild!.remove();
  box.style.setProperty('--pfe-digits', String(String(lines.length).length));
}

/** The caret position under a point, by whichever API the browser has. */
function caretAt(x: number, y: number): { node: Node; offset: number } | undefined {
  const doc = document as Document & {
    caretPositionFromPoint?: (x: number, y: number) => { offsetNode: Node; offset: number } | null;
    caretRangeFromPoint?: (x: number, y: number) => Range | null;
  };
  const p = doc.caretPositionFromPoint?.(x, y);
  if (p) return { node: p.offsetNode, offset: p.offset };
  const r = doc.caretRangeFromPoint?.(x, y);
  return r ? { node: r.startContainer, offset: r.startOffset } : undefined;
}

/**
 * The 1-based line and column of the text at a point of the source view (a click): the character
 * the caret would be before. A point on a line's number or lint column is its first column; a point
 * below the last line is the last line.
 */
export function positionAt(box: HTMLElement, x: number, y: number): { line: number; col: number } {
  const rows = [...box.children] as HTMLElement[];
  if (!rows.length) return { line: 1, col: 1 };
  const caret = caretAt(x, y);
  const el = caret && (caret.node.nodeType === Node.ELEMENT_NODE ? (caret.node as Element) : caret.node.parentElement);
  let row = el?.closest<HTMLElement>('.pg-src-ln');
  if (!row || row.parentElement !== box) row = rows.find((r) => r.getBoundingClientRect().bottom > y) ?? rows.at(-1)!;
  const line = rows.indexOf(row) + 1;
  const textEl = row.querySelector('.pg-src-text')!;
  if (!caret || !textEl.contains(caret.node)) {
    // Right of a line's text (or where the caret API found nothing inside it): its end.
    const end = x > textEl.getBoundingClientRect().left && el && !el.closest('.pg-src-no, .pg-src-lint');
    return { line, col: end ? (textEl.textContent ?? '').length + 1 : 1 };
  }
  const range = document.createRange();
  range.setStart(textEl, 0);
  range.setEnd(caret.node, caret.offset);
  return { line, col: range.toString().length + 1 };
}
