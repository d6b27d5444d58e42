/**
 * What each token of a YAML text is — key, string, number, literal, indicator, block-scalar
 * header, comment — with its offsets, from the `yaml` package's own parse (its CST), in one fast
 * pass. The site's YAML is written by the build (printed requests, events), so it is well-formed;
 * the colouring (highlight.ts, yaml-html.ts) writes each kind as its element (highlight.ts
 * yamlTokenTags), coloured as shiki's themes colour it. Pure.
 */
import { CST, Parser } from 'yaml';

export type YamlKind = 'key' | 'string' | 'number' | 'literal' | 'punct' | 'header' | 'comment';

export interface YamlRange {
  from: number;
  to: number;
  kind: YamlKind;
}

const LITERAL = /^(?:true|false|null|~)$/;
const NUMBER = /^[-+]?(?:\d[\d_]*(?:\.\d*)?(?:e[-+]?\d+)?|\.inf|\.nan)$/i;

/** The kind of a value scalar: a plain one by what it reads as (`type` 'scalar'), a quoted or block one a string. */
export function scalarKind(type: string, source: string): YamlKind {
  if (type !== 'scalar') return 'string';
  return LITERAL.test(source) ? 'literal' : NUMBER.test(source) ? 'number' : 'string';
}

/** The coloured ranges of a YAML text, in order, never overlapping. */
export function yamlRanges(source: string): YamlRange[] {
  const out: YamlRange[] = [];
  const sourceTokens = (ts: readonly CST.SourceToken[] | undefined): void => {
    for (const t of ts ?? []) {
      if (t.type === 'map-value-ind' || t.type === 'seq-item-ind' || t.type === 'explicit-key-ind') out.push({ from: t.offset, to: t.offset + t.source.length, kind: 'punct' });
      else if (t.type === 'comment') out.push({ from: t.offset, to: t.offset + t.source.length, kind: 'comment' });
    }
  };
  const node = (t: CST.Token | undefined, asKey: boolean): void => {
    if (!t) return;
    if (t.type === 'scalar' || t.type === 'single-quoted-scalar' || t.type === 'double-quoted-scalar') {
      out.push({ from: t.offset, to: t.offset + t.source.length, kind: asKey ? 'key' : scalarKind(t.type, t.source) });
      sourceTokens(t.end);
    } else if (t.type === 'block-scalar') {
      let end = t.offset;
      for (const p of t.props) {
        if (!('source' in p) || typeof p.source !== 'string') continue;
        if (p.type === 'block-scalar-header') out.push({ from: p.offset, to: p.offset + p.source.length, kind: 'header' });
        else if (p.type === 'comment') out.push({ from: p.offset, to: p.offset + p.source.length, kind: 'comment' });
        end = p.offset + p.source.length;
      }
      if (t.source) out.push({ from: end, to: end + t.source.length, kind: 'string' });
    }
  };
  for (const doc of new Parser().parse(source)) {
    if (doc.type !== 'document') continue;
    sourceTokens(doc.start);
    node(doc.value, false);
    CST.visit(doc, (item) => {
      sourceTokens(item.start);
      node(item.key ?? undefined, true);
      sourceTokens(item.sep);
      node(item.value, false);
    });
  }
  out.sort((a, b) => a.from - b.from);
  return out.filter((r, i) => r.to <= source.length && (i === 0 || r.from >= out[i - 1]!.to));
}
