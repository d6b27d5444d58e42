/**
 * The timeline's "event YAML", highlighted. Each card shows its event as YAML, and those texts are
 * all different (every event's payload), so shiki — a TextMate grammar run per line — spent as long
 * on them as on every prompt of the build together. The YAML is well-formed (the build wrote it),
 * so the `yaml` package's own parser (its CST: every key, value and indicator with its offset)
 * says what each token is, in one fast pass, and the classes are the ones shiki's themes give the
 * same kinds of token (tokenClassesFor), so the colours match the rest of the site. Text between
 * tokens is kept as it is; everything is HTML-escaped.
 */
import { CST, Parser } from 'yaml';
import { tokenClassesFor } from './highlight.ts';

type Kind = 'key' | 'string' | 'number' | 'literal' | 'punct' | 'header' | 'comment';

let classes: Promise<Record<Kind, string>> | undefined;
const classesOf = (): Promise<Record<Kind, string>> =>
  (classes ??= tokenClassesFor('yaml', 'n: 2\ntype: text\nok: true\nitems:\n  - x\ncontent: |-\n  body\n# c\n', {
    key: 'type',
    string: 'text',
    number: '2',
    literal: 'true',
    punct: '-',
    header: '|-',
    comment: '# c',
  }));

interface Range {
  from: number;
  to: number;
  kind: Kind;
}

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const LITERAL = /^(?:true|false|null|~)$/;
const NUMBER = /^[-+]?(?:\d[\d_]*(?:\.\d*)?(?:e[-+]?\d+)?|\.inf|\.nan)$/i;

function scalarKind(t: CST.Token): Kind {
  if (t.type !== 'scalar') return 'string';
  return LITERAL.test(t.source) ? 'literal' : NUMBER.test(t.source) ? 'number' : 'string';
}

/** The coloured ranges of a YAML text, in order. */
function ranges(source: string): Range[] {
  const out: Range[] = [];
  const sourceTokens = (ts: readonly CST.SourceToken[] | undefined): void => {
    for (const t of ts ?? []) {
      if (t.type === 'map-value-ind' || t.type === 'seq-item-ind' || t.type === 'explicit-key-ind') out.push({ from: t.offset, to: t.offset + t.source.length, kind: 'punct' });
      else if (t.type === 'comment') out.push({ from: t.offset, to: t.offset + t.source.length, kind: 'comment' });
    }
  };
  const node = (t: CST.Token | undefined, asKey: boolean): void => {
    if (!t) return;
    if (t.type === 'scalar' || t.type === 'single-quoted-scalar' || t.type === 'double-quoted-scalar') {
      out.push({ from: t.offset, to: t.offset + t.source.length, kind: asKey ? 'key' : scalarKind(t) });
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
  return out.sort((a, b) => a.from - b.from);
}

/** The YAML text as highlighted HTML (the inside of a <code>). */
export async function highlightYamlSource(source: string): Promise<string> {
  const cls = await classesOf();
  let html = '';
  let at = 0;
  for (const r of ranges(source)) {
    if (r.from < at || r.to > source.length) continue; // never overlap, never past the end
    html += escapeHtml(source.slice(at, r.from));
    const text = source.slice(r.from, r.to);
    html += cls[r.kind] ? `<span class="${cls[r.kind]}">${escapeHtml(text)}</span>` : escapeHtml(text);
    at = r.to;
  }
  return html + escapeHtml(source.slice(at));
}
