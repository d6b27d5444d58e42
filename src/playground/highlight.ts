/**
 * Highlighting of prompt lines in the browser, for the playground's pane: the YAML parser that the
 * editor already bundles (lezer, via @codemirror/lang-yaml) tags each message's lines, and the
 * annotations' anchored ranges become <mark>s — both merged into escaped HTML per line. Shiki (the
 * build's highlighter) is too heavy to ship to the browser; the token classes are coloured with the
 * same two themes' colours in the playground's CSS. Grouping follows the build: a message's lines
 * are highlighted together (a self-contained YAML chunk).
 */
import { yamlLanguage } from '@codemirror/lang-yaml';
import { classHighlighter, highlightTree } from '@lezer/highlight';
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

/** One line's HTML from its token spans and marks (ranges within the line). */
function lineHtml(text: string, spans: Span[], marks: LineMark[]): string {
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
      if (mark) out += `<mark${Object.entries(mark.attrs).map(([n, v]) => ` ${n}="${escapeHtml(v)}"`).join('')}>`;
      open = mark;
    }
    const cls = spans.find((s) => s.from <= a && s.to >= b)?.cls;
    const piece = escapeHtml(text.slice(a, b));
    out += cls ? `<span class="${cls}">${piece}</span>` : piece;
  }
  return open ? `${out}</mark>` : out;
}

/**
 * Highlighted chunks by text, most recently used last, bounded by characters: picking another
 * event re-renders a pane whose messages are mostly the ones just shown.
 */
const cache = new Map<string, string[]>();
const CACHE_CHARS = 4 * 1024 * 1024;
let cachedChars = 0;

function remember(text: string, html: string[]): void {
  cache.set(text, html);
  cachedChars += text.length;
  for (const [old] of cache) {
    if (cachedChars <= CACHE_CHARS) break;
    cache.delete(old);
    cachedChars -= old.length;
  }
}

/** Escaped, highlighted HTML per line; `groups[i]` is the message line i belongs to. */
export function highlightLines(lines: readonly string[], groups: readonly number[], marks: readonly LineMark[] = []): string[] {
  const out: string[] = [];
  for (let start = 0; start < lines.length; ) {
    let end = start + 1;
    while (end < lines.length && groups[end] === groups[start]) end++;
    const chunk = lines.slice(start, end);
    const text = chunk.join('\n');
    const mine = marks.filter((m) => m.line >= start && m.line < end && m.end > m.start);
    const hit = mine.length ? undefined : cache.get(text);
    if (hit) {
      cache.delete(text);
      cache.set(text, hit);
      out.push(...hit);
      start = end;
      continue;
    }
    const lineStarts: number[] = [];
    let at = 0;
    for (const l of chunk) {
      lineStarts.push(at);
      at += l.length + 1;
    }
    const spans: Span[][] = chunk.map(() => []);
    // Very long chunks are shown plain: highlighting must never be what makes the page slow.
    if (text.length <= 200_000) {
      highlightTree(yamlLanguage.parser.parse(text), classHighlighter, (from, to, cls) => {
        // A token may span lines (block scalars): split it per line.
        let i = lineStarts.findLastIndex((s) => s <= from);
        for (; i < chunk.length && lineStarts[i]! < to; i++) {
          const s = lineStarts[i]!;
          spans[i]!.push({ from: Math.max(0, from - s), to: Math.min(chunk[i]!.length, to - s), cls });
        }
      });
    }
    const html = chunk.map((l, k) => lineHtml(l, spans[k]!, mine.filter((m) => m.line === start + k)));
    if (!mine.length) remember(text, html);
    out.push(...html);
    start = end;
  }
  return out;
}
