/**
 * The build's colouring of printed YAML (printed-tokens.ts, from js-yaml's events) gives each line
 * the tokens the `yaml` package's CST gives it (yaml-tokens.ts) — so every pane's HTML is the same — on
 * requests printed from generated messages (any text, roles, files, tool calls) and on
 * hand-written shapes; a text they cannot colour is coloured by the CST.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RenderedMessage } from '../folds/types.ts';
import { printRequest } from '../prompt/print.ts';
import { tokenLines } from './highlight.ts';
import { eventRanges, printedRanges } from './printed-tokens.ts';
import { yamlRanges } from './yaml-tokens.ts';

/** Distinct tags per kind, so any difference in what a character is shows. */
const TAGS = { key: 'k', string: 's', number: 'n', literal: 'l', punct: 'p', header: 'h', comment: 'c' } as const;

/** The chunks highlight.ts colours: the header lines, then each message's lines. */
function chunks(messages: RenderedMessage[]): string[] {
  const lines = printRequest('provider/model-1', messages, []);
  const out = new Map<number, string[]>();
  for (const l of lines) out.set(l.message, [...(out.get(l.message) ?? []), l.text]);
  return [...out.values()].map((ls) => ls.join('\n'));
}

const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\n', ' ', ':', '#', '-', '"', "'", '|', '>', '{', '}', '[', ']', ',', '&', '*', '!', '%', '@', '`', '\t', '\\', 'é', '😀'),
    fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' }),
  ),
  maxLength: 60,
});
const message = fc.record(
  {
    role: fc.constantFrom('system', 'user', 'assistant', 'tool'),
    content: text,
    files: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 2 }),
    toolCalls: fc.array(fc.record({ id: fc.string(), name: text, input: fc.jsonValue({ maxDepth: 2 }) }), { maxLength: 2 }),
    toolCallId: fc.string(),
  },
  { requiredKeys: ['role', 'content'] },
);

describe('printed YAML is coloured from js-yaml’s events as from the yaml package’s CST', () => {
  it('requests printed from generated messages: the same tokens on every line, read from the events', () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 4 }), (msgs) => {
        for (const chunk of chunks(msgs.map((m) => ({ ...m, parts: [{ text: m.content, from: 0 }] }) as unknown as RenderedMessage))) {
          expect(eventRanges(chunk), chunk).toBeDefined();
          expect(tokenLines(chunk, printedRanges(chunk), TAGS), chunk).toEqual(tokenLines(chunk, yamlRanges(chunk), TAGS));
        }
      }),
      { numRuns: 400, seed: 48 },
    );
  });

  it.each([
    ['keys, literals, numbers and strings', 'model: m\nmessages:\n  - role: user\n    n: 12\n    ok: true\n    none: null\n    s: "a # b"'],
    ['a block scalar with its header', '  - role: system\n    content: |-\n      line one\n\n      # not a comment\n      - not an item'],
    ['JSON flow lines', '    toolCalls:\n      - {"id":"c1","name":"grep","input":{"q":"a: b","n":[1,2.5,-3e4,true,null]}}'],
    ['quoted keys and single quotes', "'a': 'it''s'\n\"b\": \"\\u00e9\""],
  ])('%s', (_name, source) => {
    expect(eventRanges(source)).toBeDefined();
    expect(tokenLines(source, printedRanges(source), TAGS)).toEqual(tokenLines(source, yamlRanges(source), TAGS));
  });

  it.each([
    ['a comment', 'a: 1 # note\n'],
    ['an anchor', 'a: &x 1\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a half-typed text', 'a: "open\n'],
  ])('a text with %s is coloured by the CST', (_name, source) => {
    expect(eventRanges(source)).toBeUndefined();
    expect(printedRanges(source)).toEqual(yamlRanges(source));
  });
});
