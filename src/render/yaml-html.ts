/**
 * YAML text as coloured HTML lines, from its token ranges (yaml-tokens.ts) and the element each
 * kind of token is written as (`<y-k>role</y-k>`: highlight.ts yamlTokenTags, coloured in
 * tokens.css as the shiki themes colour that kind). Strings — most of the text — and the text
 * between tokens carry no tag: the block's own colour is the string colour (site.css). One writer
 * for the two places that show a scenario's YAML as written: the timeline's event YAML
 * (yaml-source.ts, at build time) and the playground's source view (in the browser). Pure; its one
 * import is the escaper (escape.ts), so the page bundle that uses it gets nothing else. Everything is escaped, and a tag name
 * that is not a custom element's (the browser receives the mapping as data) writes no tag.
 */
import { escapeHtml } from './escape.ts';

/** Kind → element name ('' or missing: no tag). */
export type YamlTags<K extends string = string> = Partial<Record<K, string>>;

/** A custom element name of the kind yamlTokenTags makes: lower-case letters and digits around a hyphen. */
export const TAG_NAME = /^[a-z][a-z0-9]*-[a-z0-9-]+$/;

/** The HTML of each line of `text` (`ranges`: in order, not overlapping, may span lines; out-of-order ones are skipped). */
export function yamlHtmlLines<K extends string>(text: string, ranges: readonly { from: number; to: number; kind: K }[], tags: YamlTags<K>): string[] {
  const lines: string[] = [''];
  const emit = (piece: string, tag: string | undefined): void => {
    piece.split('\n').forEach((part, i) => {
      if (i > 0) lines.push('');
      if (part) lines[lines.length - 1] += tag ? `<${tag}>${escapeHtml(part)}</${tag}>` : escapeHtml(part);
    });
  };
  let at = 0;
  for (const r of ranges) {
    if (r.from < at || r.to > text.length) continue;
    emit(text.slice(at, r.from), undefined);
    const tag = tags[r.kind];
    emit(text.slice(r.from, r.to), tag && TAG_NAME.test(tag) ? tag : undefined);
    at = r.to;
  }
  emit(text.slice(at), undefined);
  return lines;
}
