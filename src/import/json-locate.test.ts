/**
 * The one-pass JSON locator gives the offset the yaml parser's source ranges give (the general
 * path it replaces for trace lines), for every value and key of a line with escapes, brackets
 * inside strings, nesting and whitespace; a path that is not there is undefined.
 */
import { describe, expect, it } from 'vitest';
import { isMap, isScalar, parseDocument } from 'yaml';
import { jsonOffset } from './json-locate.ts';

const value = {
  model: 'gpt-5',
  'we"ird\\key': { '[not]': '}{', n: [1, -2.5e3, true, null, { deep: ['x', 'y \\"z\\" ]'] }] },
  messages: [
    { role: 'user', content: 'a "quoted" {brace} [bracket] \\ back' },
    { role: 'tool', content: [{ type: 'text', text: '\u00e9\u2028' }] },
  ],
  empty: {},
  list: [],
};

function paths(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(v))
    v.forEach((x, i) => {
      out.push(...paths(x, [...at, i]));
    });
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...at, k]));
  return out;
}

describe('jsonOffset', () => {
  for (const [name, text] of [
    ['compact', JSON.stringify(value)],
    ['pretty', JSON.stringify(value, null, 2)],
  ] as const) {
    it(`${name}: every value and key where the yaml parser puts it`, () => {
      const doc = parseDocument(text);
      for (const p of paths(value)) {
        const node = p.length ? doc.getIn(p, true) : doc.contents;
        expect(jsonOffset(text, p), JSON.stringify(p)).toBe((node as { range: number[] }).range[0]);
        const last = p.at(-1);
        if (typeof last === 'string') {
          const parent = p.length === 1 ? doc.contents : doc.getIn(p.slice(0, -1), true);
          const pair = isMap(parent) ? parent.items.find((x) => isScalar(x.key) && x.key.value === last) : undefined;
          expect(jsonOffset(text, p, true), `key ${JSON.stringify(p)}`).toBe((pair!.key as { range: number[] }).range[0]);
        }
      }
    });
  }

  it('a path that is not there, or a step of the wrong kind, is undefined', () => {
    const text = JSON.stringify(value);
    expect(jsonOffset(text, ['nope'])).toBeUndefined();
    expect(jsonOffset(text, ['messages', 2])).toBeUndefined();
    expect(jsonOffset(text, ['messages', 'role'])).toBeUndefined();
    expect(jsonOffset(text, ['model', 0])).toBeUndefined();
    expect(jsonOffset(text, ['list', 0])).toBeUndefined();
    expect(jsonOffset(text, ['empty', 'a'])).toBeUndefined();
  });
});
