/**
 * The two ways a scenario's YAML is read (outline.ts) agree: js-yaml's events, read for every
 * well-formed file, and the `yaml` package's document, read for a file with a problem. Where the
 * fast reader takes a file, the `yaml` package must find nothing wrong with it, read the same
 * values, and place every node at the same character — on every bundled scenario, the reference
 * scenarios' fences, hand-written shapes, generated documents and real files mutated at random.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument, stringify } from 'yaml';
import { HAS_REFERENCE, NEEDS_REFERENCE, REFERENCE_DIR } from '../../tests/support/shared.ts';
import { fromDocument, readFast, type Outline } from './outline.ts';
import { readMarkdown } from './source.ts';

const SCENARIOS = resolve(import.meta.dirname, '../../scenarios');
const bundled = readdirSync(SCENARIOS)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => ({ name: f, text: readFileSync(resolve(SCENARIOS, f), 'utf8') }));

/** A node's text as the page shows an event: with a comment on its last line, without the comment lines the `yaml` package sometimes runs on over. */
function shown(text: string, node: Outline): string {
  let end = node.end;
  while (text[end] === ' ' || text[end] === '\t') end++;
  if (text[end] === '#') end = text.indexOf('\n', end) < 0 ? text.length : text.indexOf('\n', end);
  else end = node.end;
  return text
    .slice(node.start, end)
    .split('\n')
    .filter((l) => !l.trimStart().startsWith('#'))
    .join('\n')
    .trimEnd();
}

/** Every difference between the fast reading of `text` and the `yaml` package's; [] when they agree (or the fast reader declines). */
function differences(text: string): string[] {
  const fast = readFast(text);
  if (!fast) return [];
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, strict: true });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) return [`read by js-yaml, but the yaml package says ${problem.code}: ${problem.message.split('\n')[0]}`];
  const out: string[] = [];
  const compare = (x: Outline, y: Outline, path: string): void => {
    if (x.start !== y.start) out.push(`${path || '/'} starts at ${x.start}, the yaml package's at ${y.start}`);
    if (shown(text, x) !== shown(text, y)) out.push(`${path || '/'} reads ${JSON.stringify(shown(text, x))}, the yaml package's ${JSON.stringify(shown(text, y))}`);
    if (JSON.stringify(x.keys) !== JSON.stringify(y.keys)) out.push(`${path || '/'} has keys ${x.keys}, the yaml package's ${y.keys}`);
    if ((x.kids?.length ?? 0) !== (y.kids?.length ?? 0)) out.push(`${path || '/'} has ${x.kids?.length} children, the yaml package's ${y.kids?.length}`);
    else for (const [i, k] of (x.kids ?? []).entries()) compare(k, y.kids![i]!, `${path}/${i}`);
  };
  compare(fast.outline, fromDocument(doc), '');
  if (!Object.is(JSON.stringify(fast.value), JSON.stringify(doc.toJS()))) out.push('the values differ');
  return out;
}

describe('a scenario file read by js-yaml reads as the yaml package reads it', () => {
  it('every bundled scenario: read by the fast reader, the same values and positions', () => {
    expect(bundled.length).toBeGreaterThan(20);
    for (const { name, text } of bundled) {
      expect(readFast(text), name).toBeDefined();
      expect(differences(text), name).toEqual([]);
    }
  });

  it.skipIf(!HAS_REFERENCE)(`every fence of the reference scenarios${NEEDS_REFERENCE}`, () => {
    const files = readdirSync(REFERENCE_DIR).filter((f) => f.endsWith('.md'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files)
      for (const fence of readMarkdown(readFileSync(resolve(REFERENCE_DIR, f), 'utf8')).fences) expect(differences(fence.body), `${f} (${fence.path})`).toEqual([]);
  });

  it.each([
    ['quoted scalars start at their quote', "title: \"T\"   # c\nnote: 'it''s'\n"],
    ['block scalars start at their header, whatever its indicators and comment', 'a: |-  # why\n  one\n  two\n\nb: >+\n  x\n\n\nc: |2\n    indented\n'],
    ['a block scalar then a comment less indented', 'a:\n  t: |\n    text\n  # a note\n  u: 1\n'],
    ['empty values after a key, an item, in a flow mapping', 'a:\n  b: 1\n  c:\nd:\n  - x\n  -\ne: {f: , g: }\nh:   # c\n'],
    ['flow collections over lines, nested, with comments', 'a: {b: [1, 2, {c: d}],\n  e: f}  # c\ng: [\n  h, # one\n  i\n  ]\n'],
    [
      'events as written, comments between them',
      'events:\n  - off: 0\n    payload: {text: hi}  # trailing\n  # between\n  - off: 1\n    payload:\n      text: |\n        a\n\n  - {off: 2, t: 2s}\n',
    ],
    ['sequences in sequences, explicit keys, a document start', '---\n- - a\n  - b\n-\n- ? k\n  : v\n'],
    ['quoted and odd-looking keys', '"a b": 1\n\'c\': 2\nd-e: 3\n'],
    ['CRLF line ends', 'a: 1\r\nb:\r\n  - x\r\n  - "y"\r\n'],
    ['a comment before a nested mapping', 'a:\n  # c\n  b: x\n'],
    ['keys that name Object’s own properties (each an own field, nothing polluted)', '__proto__: {polluted: 1}\nconstructor: {prototype: {x: 1}}\n'],
  ])('%s', (_name, text) => {
    expect(readFast(text)).toBeDefined();
    expect(differences(text)).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['an anchor', 'a: &x 1\nb: 2\n'],
    ['an alias', 'a: &x 1\nb: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a custom tag', 'a: !secret x\n'],
    ['an empty key', ': x\n'],
    ['a key the schema reads as a number', '1: x\n'],
    ['a key the schema reads as a boolean', 'true: x\n'],
    ['a document end line', '...\na: 1\n'],
    ['two documents', 'a: 1\n---\nb: 2\n'],
    ['an empty text', ''],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a syntax error', 'a: {b: 1\n'],
  ])('the yaml package reads a file with %s', (_name, text) => {
    expect(readFast(text)).toBeUndefined();
  });

  it('generated documents, in every style the yaml package writes', () => {
    const style = fc.record({
      indent: fc.integer({ min: 1, max: 4 }),
      lineWidth: fc.constantFrom(0, 20, 80),
      defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'),
      collectionStyle: fc.constantFrom('any', 'block', 'flow'),
    });
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), style, (value, options) => {
        const text = stringify({ events: [value, { payload: value }] }, { ...options, aliasDuplicateObjects: false } as never);
        expect(readFast(text)).toBeDefined();
        expect(differences(text)).toEqual([]);
      }),
      { numRuns: 300, seed: 48 },
    );
  });

  it('bundled scenarios mutated at random: what the fast reader takes, the yaml package takes and reads alike', () => {
    const seeds = bundled.map((b) => b.text.slice(0, 3000));
    const inserts = [
      ':',
      '-',
      '#',
      "'",
      '"',
      '|',
      '>',
      '{',
      '}',
      '[',
      ']',
      ',',
      '?',
      '\t',
      '\n',
      ' ',
      '%',
      '@',
      '`',
      '\\',
      '!',
      '&',
      '*',
      '0x1',
      '~',
      '- ',
      ': ',
      ' #',
      '|-\n',
      '\n  ',
      '---\n',
      '...\n',
    ];
    const edit = fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.constantFrom(...inserts));
    fc.assert(
      fc.property(fc.nat({ max: seeds.length - 1 }), fc.array(edit, { minLength: 1, maxLength: 3 }), (which, edits) => {
        let text = seeds[which]!;
        for (const [at, remove, insert] of edits) {
          const p = at % (text.length + 1);
          text = text.slice(0, p) + insert + text.slice(p + remove);
        }
        expect(differences(text)).toEqual([]);
      }),
      { numRuns: 1500, seed: 48 },
    );
  });
});
