/**
 * Strict payload validation shared by the built-in folds: a zod schema checks a payload, and every
 * zod issue becomes an Issue that names the field path, what is wrong and how to fix it — so the
 * loader can point at the exact YAML node. Unknown fields are errors, never silently dropped.
 * Covered: unknown fields, missing fields, wrong types (a `z.int()` is "a whole number"), values
 * outside an enum or a tagged union, bounds (`too_small`/`too_big`: numbers, string and list
 * lengths — an empty required string "must not be empty") and string formats (`invalid_format`:
 * ISO instants and dates, emails, URLs, patterns), each with a fix that shows what to write.
 * A value that matches no member of a plain (untagged) union is reported as the member it was
 * most likely meant to be (unionIssues), never zod's bare "Invalid input".
 */
import * as z from 'zod';
import type { Issue } from './types.ts';
import { didYouMean } from './suggest.ts';

type Path = (string | number)[];

function valueAt(root: unknown, path: Path): unknown {
  let v: unknown = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

/** The member of a union whose literal fields (its tag: `type: text`, `kind: image`) all equal the value's, if exactly one does. */
function memberFor(options: readonly z.ZodType[], v: unknown): z.ZodType | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const hits = options.filter((o) => {
    if (!(o instanceof z.ZodObject)) return false;
    const tags = Object.entries(o.shape).filter(([, f]) => f instanceof z.ZodLiteral);
    return tags.length > 0 && tags.every(([k, f]) => (f as z.ZodLiteral).values.has((v as Record<string, unknown>)[k] as never));
  });
  return hits.length === 1 ? hits[0] : undefined;
}

/** `t` without its optional / nullable / default wrappers. */
function unwrapped(t: z.ZodType): z.ZodType {
  let cur = t;
  while (cur.def.type === 'optional' || cur.def.type === 'nullable' || cur.def.type === 'default') cur = (cur as z.ZodOptional<z.ZodType>).unwrap();
  return cur;
}

/**
 * The schema that applies at `path` for this value (wrappers and tagged unions resolved on the
 * way; at `path` itself too unless `keepUnion`, which returns the union as written).
 */
function schemaAt(schema: z.ZodType, root: unknown, path: Path, keepUnion = false): z.ZodType | undefined {
  let s: z.ZodType | undefined = schema;
  let v: unknown = root;
  const unwrap = (t: z.ZodType, last: boolean): z.ZodType => {
    const cur = unwrapped(t);
    if (cur.def.type !== 'union' || (last && keepUnion)) return cur;
    return memberFor((cur as z.ZodUnion<z.ZodType[]>).options, v) ?? cur;
  };
  for (const k of [...path, null]) {
    if (!s) return undefined;
    s = unwrap(s, k === null);
    if (k === null) break;
    if (s instanceof z.ZodObject) s = s.shape[k as string] as z.ZodType | undefined;
    else if (s instanceof z.ZodArray) s = s.element as z.ZodType;
    else return undefined;
    v = v && typeof v === 'object' ? (v as Record<string | number, unknown>)[k] : undefined;
  }
  return s;
}

/** The fields allowed at `path`, when an object schema applies there. */
function objectKeysAt(schema: z.ZodType, root: unknown, path: Path): string[] | undefined {
  const s = schemaAt(schema, root, path);
  return s instanceof z.ZodObject ? Object.keys(s.shape) : undefined;
}

const INT_FORMATS = ['safeint', 'int32', 'uint32'];

/** zod reports a missing or mistyped `z.int()` as expecting a "number": say "whole number" there. */
function expectedType(schema: z.ZodType, root: unknown, path: Path, expected: string): string {
  if (expected === 'number') {
    const s = schemaAt(schema, root, path);
    if (s instanceof z.ZodNumber && INT_FORMATS.includes(s.format ?? '')) return 'int';
  }
  return expected;
}

const fieldName = (path: Path): string => (path.length ? path.join('.') : 'the payload');

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return `${typeof v} ${String(v)}`;
}

const article = (t: string): string => (/^[aeio]/.test(t) ? `an ${t}` : `a ${t}`);
const typeWord = (t: string): string => (({ object: 'mapping', record: 'mapping', array: 'list', int: 'whole number' }) as Record<string, string>)[t] ?? t;

/** What an ISO string format is called in a message, and an example value for the fix. */
const FORMATS: Record<string, { what: string; example: string }> = {
  datetime: { what: 'an ISO-8601 instant', example: '2026-08-24T16:41:30.000Z' },
  date: { what: 'an ISO-8601 date', example: '2026-08-24' },
  time: { what: 'an ISO-8601 time of day', example: '16:41:30' },
  duration: { what: 'an ISO-8601 duration', example: 'PT4M30S' },
  email: { what: 'an email address', example: 'ops@example.org' },
  url: { what: 'a URL', example: 'https://example.org/' },
  uuid: { what: 'a UUID', example: '123e4567-e89b-42d3-a456-426614174000' },
};

const plural = (n: number | bigint, one: string): string => `${n} ${one}${Number(n) === 1 ? '' : 's'}`;

/** The message and fix of a `too_small` / `too_big` issue (number, string length, list length). */
function boundIssue(field: string, got: unknown, small: boolean, origin: string, bound: number | bigint, inclusive: boolean | undefined): Pick<Issue, 'message' | 'fix'> {
  if (origin === 'string' || origin === 'array') {
    const unit = origin === 'string' ? 'character' : 'item';
    const len = typeof got === 'string' || Array.isArray(got) ? got.length : undefined;
    if (small && Number(bound) === 1) {
      return { message: `\`${field}\` must not be empty`, fix: origin === 'string' ? 'give it a value' : 'list at least one item' };
    }
    const limit = small ? `at least ${plural(bound, unit)}` : `at most ${plural(bound, unit)}`;
    return { message: `\`${field}\` must have ${limit}${len === undefined ? '' : `, got ${len}`}`, fix: `${small ? 'lengthen' : 'shorten'} it to ${limit}` };
  }
  const op = small ? (inclusive === false ? '>' : '≥') : inclusive === false ? '<' : '≤';
  return { message: `\`${field}\` must be ${op} ${bound}, got ${describe(got)}`, fix: `make \`${field}\` ${op} ${bound}` };
}

/** The message and fix of an `invalid_format` issue (ISO instants, emails, patterns, …). */
function formatIssue(field: string, got: unknown, format: string, pattern: string | undefined): Pick<Issue, 'message' | 'fix'> {
  const known = FORMATS[format];
  if (known) return { message: `\`${field}\` is not ${known.what}, got ${describe(got)}`, fix: `write e.g. ${known.example}` };
  if (format === 'regex' && pattern) return { message: `\`${field}\` does not match the pattern ${pattern}, got ${describe(got)}`, fix: `write a value that matches ${pattern}` };
  return { message: `\`${field}\` is not a valid ${format}, got ${describe(got)}`, fix: `write a valid ${format}` };
}

/** A value as an author would write it after `key: ` (plain when YAML allows, else JSON). */
function yamlValue(v: unknown): string {
  if (typeof v === 'string') return /^[A-Za-z0-9][\w./-]*$/.test(v) && !/^(true|false|null|yes|no|~)$/i.test(v) ? v : JSON.stringify(v);
  return JSON.stringify(v);
}

/** The fix for a missing field: its example (schema `.meta({examples})`) when it has one. */
function addField(schema: z.ZodType, root: unknown, path: Path, what: string): string {
  const key = String(path.at(-1));
  const example = schemaAt(schema, root, path)?.meta()?.examples as unknown[] | undefined;
  return example?.length ? `add \`${key}: ${yamlValue(example[0])}\`` : `add \`${key}:\` with ${what}`;
}

/**
 * Whether an issue from schemaIssues is about a field's NAME — written but not allowed, or not
 * written at all — rather than its value (an error position then points at the key or the mapping).
 */
export const isFieldNameIssue = (issue: Issue): boolean => /^(unknown field|missing required field) `/.test(issue.message);

export interface SchemaIssueOptions {
  /** Where the value sits, for unknown and missing fields: "unknown field `x` in the scenario". */
  where?: string;
}

/** Where a list of zod issues applies: the schema and value their paths are relative to, and where that value sits. */
interface Context {
  schema: z.ZodType;
  root: unknown;
  prefix: Path;
  where: string;
}

/** Validate `value` against `schema`; [] when it conforms. */
export function schemaIssues(schema: z.ZodType, value: unknown, opts: SchemaIssueOptions = {}): Issue[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return convert(result.error.issues, { schema, root: value, prefix: [], where: opts.where ? ` in ${opts.where}` : '' });
}

/** A union member's failure: whether its tag (a literal field) differs from the value's, or the value is not even its type. */
function offTarget(member: z.ZodType | undefined, issues: readonly z.core.$ZodIssue[]): boolean {
  const shape = member && unwrapped(member) instanceof z.ZodObject ? (unwrapped(member) as z.ZodObject).shape : {};
  return issues.some(
    (e) => (e.code === 'invalid_type' && e.path.length === 0) || (e.code === 'invalid_value' && e.path.length === 1 && shape[String(e.path[0])] instanceof z.ZodLiteral),
  );
}

/**
 * A value that matches no member of a plain union: the issues of the member it was most likely
 * meant to be — the one whose tag matches, else the one with the fewest issues — so a typo inside
 * it gets the same allowed list and did-you-mean as anywhere else. When every member's tag
 * differs (at the same field), that one field is reported with every member's tag allowed; when
 * the value is none of the members' types, one message lists them all.
 */
function unionIssues(iss: z.core.$ZodIssueInvalidUnion, ctx: Context, path: Path): Issue[] {
  const errors = iss.errors;
  const union = schemaAt(ctx.schema, ctx.root, path, true);
  const options = union?.def.type === 'union' ? (union as z.ZodUnion<z.ZodType[]>).options : [];
  const field = fieldName([...ctx.prefix, ...path]);
  const got = valueAt(ctx.root, path);
  // The value is of none of the members' types: "a mapping or a string".
  if (errors.every((e) => e.length === 1 && e[0]!.code === 'invalid_type' && e[0]!.path.length === 0)) {
    const wants = [...new Set(errors.map((e, i) => article(typeWord(expectedType(options[i] ?? ctx.schema, got, [], (e[0] as z.core.$ZodIssueInvalidType).expected)))))];
    const want = wants.join(' or ');
    return [{ path: [...ctx.prefix, ...path], message: `\`${field}\` must be ${want}, got ${describe(got)}`, fix: `make \`${field}\` ${want}` }];
  }
  // Every member's tag differs, at the same field: report that field, allowing each member's tag.
  const tagIssues = errors.map((e) => e.find((x) => x.code === 'invalid_value' && x.path.length === 1) as z.core.$ZodIssueInvalidValue | undefined);
  const tagKey = tagIssues[0]?.path[0];
  if (tagKey !== undefined && tagIssues.every((t, i) => t && t.path[0] === tagKey && offTarget(options[i], [t]))) {
    const values = [...new Set(tagIssues.flatMap((t) => t!.values))];
    return convert([{ ...tagIssues[0]!, values, path: [...path, tagKey] }], ctx);
  }
  let best = 0;
  const rank = (i: number): [number, number] => [offTarget(options[i], errors[i]!) ? 1 : 0, errors[i]!.length];
  for (let i = 1; i < errors.length; i++) {
    const [a, b] = [rank(i), rank(best)];
    if (a[0] < b[0] || (a[0] === b[0] && a[1] < b[1])) best = i;
  }
  // (Without the union's schema — not expected — the member's issues still read as usual, without an allowed list.)
  return convert(errors[best]!, { ...ctx, schema: options[best] ?? z.unknown(), root: got, prefix: [...ctx.prefix, ...path] });
}

/** zod's issues as Issues: each names its field (prefixed by where the value sits), what is wrong and the fix. */
function convert(issues: readonly z.core.$ZodIssue[], ctx: Context): Issue[] {
  const { schema, root: value, where } = ctx;
  const out: Issue[] = [];
  for (const iss of issues) {
    const path = iss.path as Path;
    const full = [...ctx.prefix, ...path];
    const got = valueAt(value, path);
    const field = fieldName(full);
    if (iss.code === 'unrecognized_keys') {
      const allowed = objectKeysAt(schema, value, path);
      for (const key of iss.keys) {
        out.push({
          path: [...full, key],
          message: `unknown field \`${[...full, key].join('.')}\`${where}${allowed ? didYouMean(String(key), allowed) : ''}`,
          fix: allowed ? `remove it or fix its spelling; allowed here: ${allowed.join(', ')}` : 'remove it or fix its spelling',
        });
      }
    } else if (got === undefined && (iss.code === 'invalid_type' || iss.code === 'invalid_value' || iss.code === 'invalid_union')) {
      const what =
        iss.code === 'invalid_value'
          ? `one of ${iss.values.map((x) => JSON.stringify(x)).join(', ')}`
          : iss.code === 'invalid_type'
            ? article(typeWord(expectedType(schema, value, path, iss.expected)))
            : 'a value';
      out.push({ path: full, message: `missing required field \`${field}\`${where}`, fix: addField(schema, value, path, what) });
    } else if (iss.code === 'invalid_type') {
      const want = article(typeWord(expectedType(schema, value, path, iss.expected)));
      out.push({ path: full, message: `\`${field}\` must be ${want}, got ${describe(got)}`, fix: `make \`${field}\` ${want}` });
    } else if (iss.code === 'invalid_value') {
      const allowed = iss.values.map((x) => JSON.stringify(x)).join(', ');
      const near =
        typeof got === 'string'
          ? didYouMean(
              got,
              iss.values.filter((x): x is string => typeof x === 'string'),
            )
          : '';
      out.push({ path: full, message: `\`${field}\` is ${describe(got)}, which is not allowed${near}`, fix: `use one of: ${allowed}` });
    } else if (iss.code === 'invalid_union' && 'discriminator' in iss && iss.discriminator) {
      const options = ((iss as { options?: unknown[] }).options ?? []).map((x) => JSON.stringify(x)).join(', ');
      const near =
        typeof got === 'string'
          ? didYouMean(
              got,
              ((iss as { options?: unknown[] }).options ?? []).filter((x): x is string => typeof x === 'string'),
            )
          : '';
      out.push({ path: full, message: `\`${field}\` is ${describe(got)}, which is not a known kind${near}`, fix: `use one of: ${options}` });
    } else if (iss.code === 'invalid_union' && iss.errors.length) {
      out.push(...unionIssues(iss, ctx, path));
    } else if (iss.code === 'too_small') {
      out.push({ path: full, ...boundIssue(field, got, true, iss.origin, iss.minimum, iss.inclusive) });
    } else if (iss.code === 'too_big') {
      out.push({ path: full, ...boundIssue(field, got, false, iss.origin, iss.maximum, iss.inclusive) });
    } else if (iss.code === 'invalid_format') {
      out.push({ path: full, ...formatIssue(field, got, iss.format, 'pattern' in iss ? (iss.pattern as string | undefined) : undefined) });
    } else {
      out.push({ path: full, message: `\`${field}\`: ${iss.message}`, fix: 'correct the value as the fold spec describes' });
    }
  }
  return out;
}
