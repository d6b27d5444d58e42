/**
 * Highlighting of printed requests in the browser, for the playground's pane. The printer's output
 * (src/prompt/print.ts) has a fixed shape — `model:`, `messages:`, `  - role:`, `    content:` as a
 * JSON string or a `|-` block indented six spaces, `    files:` with JSON items — so one pass over
 * the lines colours keys, values and block text the way the build's shiki themes do (the token
 * classes get the same two themes' colours in the site's CSS), in linear time: a YAML parser per
 * keystroke made re-rendering a long pane slow. The annotations' anchored ranges become <mark>s.
 * Everything is escaped.
 */
import { escapeHtml } from '../components/pane-markup.ts';

export interface LineMark {
  line: number;
  start: number;
  end: number;
  attrs: Record<string, string>;
}

interface Span {
  from: number;
  to: number;
  cls: string;
}

const KEY_LINE = /^(\s*)(- )?([A-Za-z_][\w-]*)(:)(?: (.*))?$/;

/** Token spans of one printed line; `inBlock`: the line is text of a `|-` block. */
function spansOf(text: string, inBlock: boolean): Span[] {
  if (inBlock) return text.trim() ? [{ from: 0, to: text.length, cls: 'tok-string' }] : [];
  const m = KEY_LINE.exec(text);
  if (!m) {
    const item = /^(\s*)(- )(.*)$/.exec(text);
    if (!item) return [{ from: 0, to: text.length, cls: 'tok-string' }];
    const at = item[1]!.length;
    return [
      { from: at, to: at + 2, cls: 'tok-punctuation' },
      { from: at + 2, to: text.length, cls: 'tok-string' },
    ];
  }
  const spans: Span[] = [];
  let at = m[1]!.length;
  if (m[2]) spans.push({ from: at, to: (at += 2), cls: 'tok-punctuation' });
  spans.push({ from: at, to: (at += m[3]!.length), cls: 'tok-propertyName' });
  spans.push({ from: at, to: (at += 1), cls: 'tok-punctuation' });
  if (m[5] !== undefined) {
    at += 1;
    spans.push({ from: at, to: text.length, cls: /^[|>][-+]?$/.test(m[5]) ? 'tok-keyword' : 'tok-string' });
  }
  return spans;
}

/** One line's HTML from its token spans and marks (ranges within the line). */
function lineHtml(text: string, spans: readonly Span[], marks: readonly LineMark[]): string {
  if (!marks.length && spans.length <= 1 && (!spans[0] || (spans[0].from === 0 && spans[0].to === text.length))) {
    return spans[0] ? `<span class="${spans[0].cls}">${escapeHtml(text)}</span>` : escapeHtml(text);
  }
  const cuts = new Set([0, text.length]);
  for (const s of spans) cuts.add(s.from).add(s.to);
  for (const m of marks) cuts.add(m.start).add(m.end);
  const points = [...cuts].filter((p) => p >= 0 && p <= text.length).sort((a, b) => a - b);
  let out = '';
  let open: LineMark | undefined;
  for (let k = 0; k + 1 < points.length; k++) {
    const [a, b] = [points[k]!, points[k + 1]!];
    const mark = marks.find((m) => m.start <= a && m.end >= b);
    if (mark !== open) {
      if (open) out += '</mark>';
      if (mark)
        out += `<mark${Object.entries(mark.attrs)
          .map(([n, v]) => ` ${n}="${escapeHtml(v)}"`)
          .join('')}>`;
      open = mark;
    }
    const cls = spans.find((s) => s.from <= a && s.to >= b)?.cls;
    const piece = escapeHtml(text.slice(a, b));
    out += cls ? `<span class="${cls}">${piece}</span>` : piece;
  }
  return open ? `${out}</mark>` : out;
}

/** Marks of one line with overlaps merged (their `data-notes` joined), as the build's highlighter does. */
function merged(marks: LineMark[]): LineMark[] {
  const out: LineMark[] = [];
  for (const m of [...marks].sort((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last && m.start < last.end) {
      last.end = Math.max(last.end, m.end);
      last.attrs = { ...last.attrs, 'data-notes': `${last.attrs['data-notes'] ?? ''} ${m.attrs['data-notes'] ?? ''}`.trim() };
    } else out.push({ ...m, attrs: { ...m.attrs } });
  }
  return out;
}

/** Escaped, highlighted HTML for each printed line, with the marks. */
export function highlightLines(lines: readonly string[], marks: readonly LineMark[] = []): string[] {
  const byLine = new Map<number, LineMark[]>();
  for (const m of marks) if (m.end > m.start) byLine.set(m.line, [...(byLine.get(m.line) ?? []), m]);
  for (const [line, ms] of byLine) byLine.set(line, merged(ms));
  let inBlock = false;
  return lines.map((text, i) => {
    // A `|-` block's lines are indented six spaces (or empty); anything else ends it.
    if (inBlock && text !== '' && !text.startsWith('      ')) inBlock = false;
    const html = lineHtml(text, spansOf(text, inBlock), byLine.get(i) ?? []);
    if (/^ {4}content: \|-$/.test(text)) inBlock = true;
    return html;
  });
}
