/**
 * Highlighting of printed requests in the browser, for the playground's pane. The printer's output
 * (src/prompt/print.ts) has a fixed shape — `model:`, `messages:`, `  - role:`, `    content:` as a
 * JSON string or a `|-` block indented six spaces, `    files:` and `    toolCalls:` with JSON items, `    toolCallId:` — so one pass over
 * the lines finds its keys, indicators, block headers and strings, in linear time (a YAML parser per
 * keystroke made re-rendering a long pane slow), and writes each kind as the build does: as the
 * element the build's highlighter names for it (`tags`: highlight.ts yamlTokenTags, received in
 * corpus.json; coloured by tokens.css), strings untagged in the line's own string colour. The
 * annotations' anchored ranges become <mark>s. Everything is escaped.
 */
import { escapeHtml } from '../render/escape.ts';
import { TAG_NAME } from '../render/yaml-html.ts';
import type { YamlKind } from '../render/yaml-tokens.ts';
import type { TokenTags } from './source-view.ts';

export interface LineMark {
  line: number;
  start: number;
  end: number;
  attrs: Record<string, string>;
}

interface Span {
  from: number;
  to: number;
  kind: YamlKind;
}

const KEY_LINE = /^(\s*)(- )?([A-Za-z_][\w-]*)(:)(?: (.*))?$/;

/** Token spans of one printed line (strings and the spaces between tokens are left out: they carry no tag); `inBlock`: the line is text of a `|-` block. */
function spansOf(text: string, inBlock: boolean): Span[] {
  if (inBlock) return [];
  const m = KEY_LINE.exec(text);
  if (!m) {
    const item = /^(\s*)(- )(.*)$/.exec(text);
    if (!item) return [];
    const at = item[1]!.length;
    return [{ from: at, to: at + 1, kind: 'punct' }];
  }
  const spans: Span[] = [];
  let at = m[1]!.length;
  if (m[2]) spans.push({ from: at, to: at + 1, kind: 'punct' });
  at += m[2]?.length ?? 0;
  spans.push({ from: at, to: (at += m[3]!.length), kind: 'key' });
  spans.push({ from: at, to: (at += 1), kind: 'punct' });
  if (m[5] !== undefined && /^[|>][-+]?$/.test(m[5])) spans.push({ from: at + 1, to: text.length, kind: 'header' });
  return spans;
}

/** One line's HTML from its token spans and marks (ranges within the line). */
function lineHtml(text: string, spans: readonly Span[], marks: readonly LineMark[], tags: TokenTags): string {
  const tagOf = (kind: YamlKind | undefined): string | undefined => {
    const tag = kind && tags[kind];
    return tag && TAG_NAME.test(tag) ? tag : undefined;
  };
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
    const tag = tagOf(spans.find((s) => s.from <= a && s.to >= b)?.kind);
    const piece = escapeHtml(text.slice(a, b));
    out += tag ? `<${tag}>${piece}</${tag}>` : piece;
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

/** Escaped, highlighted HTML for each printed line, with the marks; `tags`: each kind of token's element. */
export function highlightLines(lines: readonly string[], tags: TokenTags, marks: readonly LineMark[] = []): string[] {
  const byLine = new Map<number, LineMark[]>();
  for (const m of marks) if (m.end > m.start) byLine.set(m.line, [...(byLine.get(m.line) ?? []), m]);
  for (const [line, ms] of byLine) byLine.set(line, merged(ms));
  let inBlock = false;
  return lines.map((text, i) => {
    // A `|-` block's lines are indented six spaces (or empty); anything else ends it.
    if (inBlock && text !== '' && !text.startsWith('      ')) inBlock = false;
    const html = lineHtml(text, spansOf(text, inBlock), byLine.get(i) ?? [], tags);
    if (/^ {4}content: \|-$/.test(text)) inBlock = true;
    return html;
  });
}
