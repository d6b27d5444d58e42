/**
 * Build-time highlighting of printed requests with shiki: ONE highlighter for the whole build, both
 * themes at once (CSS variables --shiki-light / --shiki-dark, switched by the page theme), anchors
 * marked with shiki decorations. Highlighting is done per message — a message's lines are a
 * self-contained YAML chunk — and cached by text, so the panes of a long scenario (which repeat
 * most messages event after event) cost the distinct messages, not the sum of all panes. The cache
 * keeps the most recently used chunks only (messages rarely repeat across scenarios, and a build
 * renders one scenario after another), so its memory does not grow with the corpus.
 * Text is escaped by shiki's HTML serialiser: prompt text can never become markup.
 */
import { createHighlighter, hastToHtml, type DecorationItem, type Highlighter } from 'shiki';
import type { Element, ElementContent } from 'hast';

export const THEMES = { light: 'github-light', dark: 'github-dark' } as const;
let instance: Promise<Highlighter> | undefined;

export function highlighter(): Promise<Highlighter> {
  return (instance ??= createHighlighter({ themes: Object.values(THEMES), langs: ['yaml'] }));
}

export interface Mark {
  /** Line index within the lines passed to highlightLines. */
  line: number;
  start: number;
  end: number;
  /** Attributes of the <mark> element. */
  attrs: Record<string, string>;
}

/** Least-recently-used cache of highlighted chunks (Map order = use order), bounded by characters. */
const chunkCache = new Map<string, string[]>();
const CACHE_CHARS = 16 * 1024 * 1024;
let cachedChars = 0;

function cached(text: string): string[] | undefined {
  const hit = chunkCache.get(text);
  if (hit) {
    chunkCache.delete(text);
    chunkCache.set(text, hit);
  }
  return hit;
}

function remember(text: string, html: string[]): void {
  chunkCache.set(text, html);
  cachedChars += text.length;
  for (const [old] of chunkCache) {
    if (cachedChars <= CACHE_CHARS) break;
    chunkCache.delete(old);
    cachedChars -= old.length;
  }
}

function linesOf(hl: Highlighter, text: string, decorations: DecorationItem[]): string[] {
  const root = hl.codeToHast(text, { lang: 'yaml', themes: THEMES, defaultColor: false, decorations });
  const pre = root.children[0] as Element;
  const code = pre.children[0] as Element;
  return code.children.filter((n): n is Element => n.type === 'element').map((line) => hastToHtml(line.children as ElementContent[]));
}

/** Merges overlapping marks of one line (shiki rejects partially overlapping decorations). */
function mergeMarks(marks: Mark[]): Mark[] {
  const sorted = [...marks].sort((a, b) => a.line - b.line || a.start - b.start);
  const out: Mark[] = [];
  for (const m of sorted) {
    const last = out.at(-1);
    if (last && last.line === m.line && m.start < last.end) {
      last.end = Math.max(last.end, m.end);
      last.attrs = { ...last.attrs, 'data-notes': `${last.attrs['data-notes'] ?? ''} ${m.attrs['data-notes'] ?? ''}`.trim() };
    } else out.push({ ...m, attrs: { ...m.attrs } });
  }
  return out;
}

/**
 * HTML (inner spans) for each line. `groups[i]` says which message line i belongs to: consecutive
 * lines of one group are highlighted together.
 */
export async function highlightLines(lines: readonly string[], groups: readonly number[], marks: readonly Mark[] = []): Promise<string[]> {
  const hl = await highlighter();
  const merged = mergeMarks(marks.filter((m) => m.end > m.start));
  const out: string[] = [];
  for (let start = 0; start < lines.length; ) {
    let end = start + 1;
    while (end < lines.length && groups[end] === groups[start]) end++;
    const text = lines.slice(start, end).join('\n');
    const mine = merged.filter((m) => m.line >= start && m.line < end);
    let html: string[] | undefined;
    if (!mine.length) html = cached(text);
    if (!html) {
      const decorations: DecorationItem[] = mine.map((m) => ({
        start: { line: m.line - start, character: m.start },
        end: { line: m.line - start, character: m.end },
        tagName: 'mark',
        properties: m.attrs,
      }));
      html = linesOf(hl, text, decorations);
      if (!mine.length) remember(text, html);
    }
    out.push(...html);
    start = end;
  }
  return out;
}
