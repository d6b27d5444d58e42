/**
 * Markdown for untrusted prose (scenario intros, titles, card notes, annotation comments):
 * micromark with its safe defaults — raw HTML is shown as text, and only http(s), mailto and
 * relative link targets survive (no `javascript:`). Browser-safe (the page script uses none of it,
 * but nothing here needs node).
 */
import { micromark } from 'micromark';

export function safeMarkdown(source: string): string {
  return micromark(source, { allowDangerousHtml: false, allowDangerousProtocol: false });
}

/**
 * Inline Markdown for one line of prose (a title, a note, a comment): `code`, *emphasis*, links —
 * without the paragraph around it. Text that is several paragraphs keeps them.
 */
export function inlineMarkdown(source: string): string {
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
  return inlineMarkdown(source)
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, n: string) =>
      n[0] === '#' ? String.fromCodePoint(n[1] === 'x' || n[1] === 'X' ? parseInt(n.slice(2), 16) : Number(n.slice(1))) : (ENTITIES[n] ?? m),
    );
}
