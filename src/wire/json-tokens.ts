/**
 * A JSON value as the tokens of its pretty-printed text (2-space indent, exactly what
 * `JSON.stringify(value, null, 2)` prints), each tagged with what it is: an object key, a string,
 * a number, a literal (true / false / null) or punctuation and whitespace. The wire views colour
 * these tokens in the browser: they print values the mappings built, so they know each token's
 * kind as they write it — nothing is parsed, and the text is the serialiser's own (JSON.stringify
 * escapes every string), which a test checks byte for byte. Pure and browser-safe.
 */
import type { Json } from './types.ts';

export type JsonTokenKind = 'key' | 'string' | 'number' | 'literal' | 'punct';
export interface JsonToken {
  kind: JsonTokenKind;
  text: string;
}

/** The tokens of `JSON.stringify(value, null, 2)`; neighbouring punctuation is one token. */
export function jsonTokens(value: Json): JsonToken[] {
  const out: JsonToken[] = [];
  const push = (kind: JsonTokenKind, text: string): void => {
    const last = out[out.length - 1];
    if (kind === 'punct' && last?.kind === 'punct') last.text += text;
    else out.push({ kind, text });
  };
  const write = (v: Json, indent: string): void => {
    if (v === null || typeof v === 'boolean') push('literal', String(v));
    else if (typeof v === 'number') push(Number.isFinite(v) ? 'number' : 'literal', JSON.stringify(v));
    else if (typeof v === 'string') push('string', JSON.stringify(v));
    else if (Array.isArray(v)) writeList(v, indent);
    else writeObject(v, indent);
  };
  const writeList = (v: Json[], indent: string): void => {
    if (v.length === 0) {
      push('punct', '[]');
      return;
    }
    const inner = `${indent}  `;
    push('punct', `[\n${inner}`);
    v.forEach((item, i) => {
      if (i > 0) push('punct', `,\n${inner}`);
      write(item, inner);
    });
    push('punct', `\n${indent}]`);
  };
  const writeObject = (v: { [key: string]: Json }, indent: string): void => {
    // Like JSON.stringify: keys whose value is undefined are left out.
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    if (entries.length === 0) {
      push('punct', '{}');
      return;
    }
    const inner = `${indent}  `;
    push('punct', `{\n${inner}`);
    entries.forEach(([k, x], i) => {
      if (i > 0) push('punct', `,\n${inner}`);
      push('key', JSON.stringify(k));
      push('punct', ': ');
      write(x, inner);
    });
    push('punct', `\n${indent}}`);
  };
  write(value, '');
  return out;
}
