/**
 * The shared zod → Issue helper: every kind of zod issue the folds' schemas can raise becomes a
 * message that names the field and a fix that says what to write — never zod's own wording.
 */
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { schemaIssues } from './validate.ts';
import { contextProtocol } from '../builtin-folds/context-protocol/index.ts';

describe('schemaIssues', () => {
  it('conforming values have no issues', () => {
    expect(schemaIssues(z.strictObject({ a: z.int() }), { a: 3 })).toEqual([]);
  });

  it('an empty string where one is required: "must not be empty"', () => {
    const schema = z.strictObject({ key: z.string().min(1) });
    expect(schemaIssues(schema, { key: '' })).toEqual([{ path: ['key'], message: '`key` must not be empty', fix: 'give it a value' }]);
    // the built-in folds' own fields
    expect(contextProtocol.validateEvent('agents/context-rewritten', { op: 'delete', key: '' })).toEqual([
      { path: ['key'], message: '`key` must not be empty', fix: 'give it a value' },
    ]);
  });

  it('a number below its minimum names the bound and the value', () => {
    expect(contextProtocol.validateEvent('agent/llm-request-settled', { requestOffset: -1, result: { status: 'succeeded' } })).toEqual([
      { path: ['requestOffset'], message: '`requestOffset` must be ≥ 0, got number -1', fix: 'make `requestOffset` ≥ 0' },
    ]);
    expect(schemaIssues(z.strictObject({ n: z.number().positive() }), { n: 0 })).toEqual([{ path: ['n'], message: '`n` must be > 0, got number 0', fix: 'make `n` > 0' }]);
    expect(schemaIssues(z.strictObject({ n: z.int().max(5) }), { n: 9 })).toEqual([{ path: ['n'], message: '`n` must be ≤ 5, got number 9', fix: 'make `n` ≤ 5' }]);
  });

  it('string and list lengths', () => {
    expect(schemaIssues(z.strictObject({ s: z.string().min(3) }), { s: 'ab' })).toEqual([
      { path: ['s'], message: '`s` must have at least 3 characters, got 2', fix: 'lengthen it to at least 3 characters' },
    ]);
    expect(schemaIssues(z.strictObject({ s: z.string().max(2) }), { s: 'abc' })).toEqual([
      { path: ['s'], message: '`s` must have at most 2 characters, got 3', fix: 'shorten it to at most 2 characters' },
    ]);
    expect(schemaIssues(z.strictObject({ l: z.array(z.string()).min(1) }), { l: [] })).toEqual([{ path: ['l'], message: '`l` must not be empty', fix: 'list at least one item' }]);
  });

  it('an instant that is not ISO-8601 says so and shows one', () => {
    expect(contextProtocol.validateEvent('agent/llm-request-requested', { model: 'm', expiresAt: 'tomorrow' })).toEqual([
      { path: ['expiresAt'], message: '`expiresAt` is not an ISO-8601 instant, got the string "tomorrow"', fix: 'write e.g. 2026-08-24T16:41:30.000Z' },
    ]);
    expect(contextProtocol.validateEvent('agent/llm-request-requested', { model: 'm', expiresAt: '2026-08-24T16:41:30.000Z' })).toEqual([]);
  });

  it('other string formats', () => {
    expect(schemaIssues(z.strictObject({ d: z.iso.date() }), { d: '24.08.2026' })).toEqual([
      { path: ['d'], message: '`d` is not an ISO-8601 date, got the string "24.08.2026"', fix: 'write e.g. 2026-08-24' },
    ]);
    expect(schemaIssues(z.strictObject({ r: z.string().regex(/^a/) }), { r: 'b' })).toEqual([
      { path: ['r'], message: '`r` does not match the pattern /^a/, got the string "b"', fix: 'write a value that matches /^a/' },
    ]);
  });

  it('an int field is "a whole number" when missing, mistyped or fractional', () => {
    const schema = z.strictObject({ ordinal: z.int(), size: z.int().nonnegative().optional(), ratio: z.number().optional() });
    expect(schemaIssues(schema, {})).toEqual([{ path: ['ordinal'], message: 'missing required field `ordinal`', fix: 'add `ordinal:` with a whole number' }]);
    expect(schemaIssues(schema, { ordinal: 'seven' })).toEqual([
      { path: ['ordinal'], message: '`ordinal` must be a whole number, got the string "seven"', fix: 'make `ordinal` a whole number' },
    ]);
    expect(schemaIssues(schema, { ordinal: 1.5 })).toEqual([
      { path: ['ordinal'], message: '`ordinal` must be a whole number, got number 1.5', fix: 'make `ordinal` a whole number' },
    ]);
    expect(schemaIssues(schema, { ordinal: 1, size: 'big' })).toEqual([
      { path: ['size'], message: '`size` must be a whole number, got the string "big"', fix: 'make `size` a whole number' },
    ]);
    // a plain number stays "a number"
    expect(schemaIssues(schema, { ordinal: 1, ratio: 'half' })).toEqual([
      { path: ['ratio'], message: '`ratio` must be a number, got the string "half"', fix: 'make `ratio` a number' },
    ]);
  });

  it('an int inside a list or a tagged union is found too', () => {
    const schema = z.strictObject({
      refs: z.array(z.discriminatedUnion('type', [z.strictObject({ type: z.literal('event'), offset: z.int() }), z.strictObject({ type: z.literal('file'), path: z.string() })])),
    });
    expect(schemaIssues(schema, { refs: [{ type: 'file', path: 'a' }, { type: 'event' }] })).toEqual([
      { path: ['refs', 1, 'offset'], message: 'missing required field `refs.1.offset`', fix: 'add `offset:` with a whole number' },
    ]);
  });

  it('several problems are all reported', () => {
    const schema = z.strictObject({ key: z.string().min(1), at: z.iso.datetime(), n: z.int().nonnegative() });
    expect(schemaIssues(schema, { key: '', at: 'x', n: -2 }).map((i) => i.path)).toEqual([['key'], ['at'], ['n']]);
  });

  describe('a plain union: the member the value was meant to be', () => {
    const text = z.strictObject({ kind: z.literal('text'), text: z.string(), style: z.enum(['plain', 'bold']).optional() });
    const image = z.strictObject({ kind: z.literal('image'), url: z.string() });
    const schema = z.strictObject({ parts: z.array(z.union([text, image])) });

    it('a bad value inside the member whose tag matches gets its allowed values and a did-you-mean', () => {
      expect(schemaIssues(schema, { parts: [{ kind: 'text', text: 'y', style: 'bolt' }] })).toEqual([
        { path: ['parts', 0, 'style'], message: '`parts.0.style` is the string "bolt", which is not allowed — did you mean `bold`?', fix: 'use one of: "plain", "bold"' },
      ]);
    });

    it('a misspelt field inside a member gets the member’s fields and a did-you-mean', () => {
      expect(
        schemaIssues(schema, {
          parts: [
            { kind: 'image', url: 'u' },
            { kind: 'text', text: 'x', stlye: 'bold' },
          ],
        }),
      ).toEqual([
        {
          path: ['parts', 1, 'stlye'],
          message: 'unknown field `parts.1.stlye` — did you mean `style`?',
          fix: 'remove it or fix its spelling; allowed here: kind, text, style',
        },
      ]);
    });

    it('a missing field of the member whose tag matches is named, not "Invalid input"', () => {
      expect(schemaIssues(schema, { parts: [{ kind: 'image' }] })).toEqual([
        { path: ['parts', 0, 'url'], message: 'missing required field `parts.0.url`', fix: 'add `url:` with a string' },
      ]);
    });

    it('a tag that is no member’s lists every member’s tag, with a did-you-mean', () => {
      expect(schemaIssues(schema, { parts: [{ kind: 'imag', url: 'u' }] })).toEqual([
        { path: ['parts', 0, 'kind'], message: '`parts.0.kind` is the string "imag", which is not allowed — did you mean `image`?', fix: 'use one of: "text", "image"' },
      ]);
    });

    it('a value of none of the members’ types names them all', () => {
      expect(schemaIssues(schema, { parts: ['str'] })).toEqual([
        { path: ['parts', 0], message: '`parts.0` must be a mapping, got the string "str"', fix: 'make `parts.0` a mapping' },
      ]);
      expect(schemaIssues(z.strictObject({ n: z.union([z.string(), z.int()]) }), { n: true })).toEqual([
        { path: ['n'], message: '`n` must be a string or a whole number, got boolean true', fix: 'make `n` a string or a whole number' },
      ]);
    });

    it('untagged members: the one with the fewest issues', () => {
      const byShape = z.strictObject({
        at: z.union([z.strictObject({ line: z.int(), col: z.int() }), z.strictObject({ file: z.string(), line: z.int(), col: z.int(), end: z.int() })]),
      });
      expect(schemaIssues(byShape, { at: { line: 1, colum: 2 } })).toEqual([
        { path: ['at', 'col'], message: 'missing required field `at.col`', fix: 'add `col:` with a whole number' },
        { path: ['at', 'colum'], message: 'unknown field `at.colum` — did you mean `col`?', fix: 'remove it or fix its spelling; allowed here: line, col' },
      ]);
    });
  });
});
