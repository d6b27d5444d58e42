/**
 * The wire views' JSON tokens: their text is JSON.stringify's own, byte for byte (for every JSON
 * value fast-check can make, and for the real mappings), and each token's kind is what it prints.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toWire, WIRE_FORMATS } from './index.ts';
import { jsonTokens } from './json-tokens.ts';
import type { Json } from './types.ts';

const text = (v: Json): string =>
  jsonTokens(v)
    .map((t) => t.text)
    .join('');

describe('jsonTokens', () => {
  it('prints exactly what JSON.stringify(value, null, 2) prints', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(text(v as Json)).toBe(JSON.stringify(v, null, 2));
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  it('tags keys, strings, numbers and literals; escapes like the serialiser', () => {
    const v: Json = { 'a"b': 'x</script>\n', n: -1.5e-7, t: true, z: null, e: [], o: {}, l: [1, 'two'] };
    expect(text(v)).toBe(JSON.stringify(v, null, 2));
    const kinds = jsonTokens(v).filter((t) => t.kind !== 'punct');
    expect(kinds).toEqual([
      { kind: 'key', text: '"a\\"b"' },
      { kind: 'string', text: '"x</script>\\n"' },
      { kind: 'key', text: '"n"' },
      { kind: 'number', text: '-1.5e-7' },
      { kind: 'key', text: '"t"' },
      { kind: 'literal', text: 'true' },
      { kind: 'key', text: '"z"' },
      { kind: 'literal', text: 'null' },
      { kind: 'key', text: '"e"' },
      { kind: 'key', text: '"o"' },
      { kind: 'key', text: '"l"' },
      { kind: 'number', text: '1' },
      { kind: 'string', text: '"two"' },
    ]);
    // Punctuation next to punctuation is one token.
    const all = jsonTokens(v);
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.kind === 'punct' && all[i]!.kind === 'punct').toBe(false);
  });

  it('prints each provider body as wireJson does', () => {
    const src = {
      model: 'openai/gpt-5',
      messages: [
        { role: 'system', content: 'You are "terse".', parts: [] },
        { role: 'user', content: 'hi\n<b>', parts: [] },
      ],
    };
    for (const f of WIRE_FORMATS) expect(text(toWire(f, src))).toBe(JSON.stringify(toWire(f, src), null, 2));
  });
});
