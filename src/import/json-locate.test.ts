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

  it('asked in any order, and between other texts, the same offsets: what one scan passed is kept for the next, per text', () => {
    const text = JSON.stringify(value, null, 1);
    const other = JSON.stringify({ messages: [{ content: 'elsewhere' }] });
    const doc = parseDocument(text);
    const all = paths(value);
    // A fixed shuffle: later paths first, keys and values interleaved, another text in between.
    const order = all.map((p, i) => [p, (i * 7919) % all.length] as const).sort((a, b) => a[1] - b[1]);
    for (const [p] of order) {
      expect(jsonOffset(other, ['messages', 0, 'content'])).toBe(other.indexOf('"elsewhere"'));
      const node = p.length ? doc.getIn(p, true) : doc.contents;
      expect(jsonOffset(text, p), JSON.stringify(p)).toBe((node as { range: number[] }).range[0]);
    }
  });

  it('thousands of positions in one long line take one scan, not one each (12,000 secrets in 850 KB took 20 s)', () => {
    const messages = Array.from({ length: 12_000 }, (_, i) => ({ role: 'user', content: `key sk-proj-${String(i).padStart(40, '0')}` }));
    const text = JSON.stringify({ model: 'gpt-5', messages });
    let chars = 0;
    for (let i = 0; i < messages.length; i++) {
      const at = jsonOffset(text, ['messages', i, 'content'])!;
      expect(text.slice(at, at + 13)).toBe('"key sk-proj-');
      chars = Math.max(chars, at);
    }
    // The offsets are where JSON puts them: the last message's content near the end of the line.
    expect(chars).toBeGreaterThan(text.length - 100);
  });

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
