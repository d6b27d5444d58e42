/**
 * YAML text as coloured HTML lines, from its token ranges (yaml-tokens.ts) and the classes each
 * kind of token gets (the shiki themes' colours: highlight.ts yamlTokenClasses). Strings — most of
 * the text — and the text between tokens carry no tag: the block's own colour is the string colour
 * (site.css). One writer for the two places that show a scenario's YAML as written: the timeline's
 * event YAML (yaml-source.ts, at build time) and the playground's source view (in the browser).
 * Pure, with no imports, so the page bundle that uses it gets nothing else. Everything is escaped,
 * the classes too (the browser receives them as data).
 */

export type YamlClasses<K extends string = string> = Partial<Record<K, string>> & { string?: string };

const escapeText = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string): string => escapeText(s).replace(/"/g, '&quot;');

/** The HTML of each line of `text` (`ranges`: in order, not overlapping, may span lines; out-of-order ones are skipped). */
export function yamlHtmlLines<K extends string>(text: string, ranges: readonly { from: number; to: number; kind: K }[], classes: YamlClasses<K>): string[] {
  const lines: string[] = [''];
  const emit = (piece: string, cls: string | undefined): void => {
    piece.split('\n').forEach((part, i) => {
      if (i > 0) lines.push('');
      if (part) lines[lines.length - 1] += cls ? `<span class="${escapeAttr(cls)}">${escapeText(part)}</span>` : escapeText(part);
    });
  };
  let at = 0;
  for (const r of ranges) {
    if (r.from < at || r.to > text.length) continue;
    emit(text.slice(at, r.from), undefined);
    const cls = classes[r.kind];
    emit(text.slice(r.from, r.to), cls && cls !== classes.string ? cls : undefined);
    at = r.to;
  }
  emit(text.slice(at), undefined);
  return lines;
}
