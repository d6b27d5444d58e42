/**
 * Strict payload validation shared by the built-in folds: a zod schema checks a payload, and every
 * zod issue becomes an Issue that names the field path, what is wrong and how to fix it — so the
 * loader can point at the exact YAML node. Unknown fields are errors, never silently dropped.
 * Covered: unknown fields, missing fields, wrong types (a `z.int()` is "a whole number"), values
 * outside an enum or a tagged union, bounds (`too_small`/`too_big`: numbers, string and list
 * lengths — an empty required string "must not be empty") and string formats (`invalid_format`:
 * ISO instants and dates, emails, URLs, patterns), each with a fix that shows what to write.
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

/** The schema that applies at `path` for this value (wrappers and tagged unions resolved). */
function schemaAt(schema: z.ZodType, root: unknown, path: Path): z.ZodType | undefined {
  let s: z.ZodType | undefined = schema;
  let v: unknown = root;
  const unwrap = (t: z.ZodType): z.ZodType => {
    let cur = t;
    while (cur.def.type === 'optional' || cur.def.type === 'nullable' || cur.def.type === 'default') {
      cur = (cur as z.ZodOptional<z.ZodType>).unwrap();
    }
    if (cur.def.type === 'union' && v && typeof v === 'object') {
      const opts = (cur as z.ZodUnion<z.ZodType[]>).options;
      const tag = (v as Record<string, unknown>).type;
      const hit = opts.find((o) => o instanceof z.ZodObject && o.shape.type instanceof z.ZodLiteral && o.shape.type.value === tag);
      if (hit) cur = hit;
    }
    return cur;
  };
  for (const k of [...path, null]) {
    if (!s) return undefined;
    s = unwrap(s);
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

/** Validate `value` against `schema`; [] when it conforms. */
export function schemaIssues(schema: z.ZodType, value: unknown, opts: SchemaIssueOptions = {}): Issue[] {
  const where = opts.where ? ` in ${opts.where}` : '';
  const result = schema.safeParse(value);
  if (result.success) return [];
  const out: Issue[] = [];
  for (const iss of result.error.issues) {
    const path = iss.path as Path;
    const got = valueAt(value, path);
    const field = fieldName(path);
    if (iss.code === 'unrecognized_keys') {
      const allowed = objectKeysAt(schema, value, path);
      for (const key of iss.keys) {
        out.push({
          path: [...path, key],
          message: `unknown field \`${[...path, key].join('.')}\`${where}${allowed ? didYouMean(String(key), allowed) : ''}`,
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
      out.push({ path, message: `missing required field \`${field}\`${where}`, fix: addField(schema, value, path, what) });
    } else if (iss.code === 'invalid_type') {
      const want = article(typeWord(expectedType(schema, value, path, iss.expected)));
      out.push({ path, message: `\`${field}\` must be ${want}, got ${describe(got)}`, fix: `make \`${field}\` ${want}` });
    } else if (iss.code === 'invalid_value') {
      const allowed = iss.values.map((x) => JSON.stringify(x)).join(', ');
      const near =
        typeof got === 'string'
          ? didYouMean(
              got,
              iss.values.filter((x): x is string => typeof x === 'string'),
            )
          : '';
      out.push({ path, message: `\`${field}\` is ${describe(got)}, which is not allowed${near}`, fix: `use one of: ${allowed}` });
    } else if (iss.code === 'invalid_union' && 'discriminator' in iss && iss.discriminator) {
      const options = ((iss as { options?: unknown[] }).options ?? []).map((x) => JSON.stringify(x)).join(', ');
      const near =
        typeof got === 'string'
          ? didYouMean(
              got,
              ((iss as { options?: unknown[] }).options ?? []).filter((x): x is string => typeof x === 'string'),
            )
          : '';
      out.push({ path, message: `\`${field}\` is ${describe(got)}, which is not a known kind${near}`, fix: `use one of: ${options}` });
    } else if (iss.code === 'too_small') {
      out.push({ path, ...boundIssue(field, got, true, iss.origin, iss.minimum, iss.inclusive) });
    } else if (iss.code === 'too_big') {
      out.push({ path, ...boundIssue(field, got, false, iss.origin, iss.maximum, iss.inclusive) });
    } else if (iss.code === 'invalid_format') {
      out.push({ path, ...formatIssue(field, got, iss.format, 'pattern' in iss ? (iss.pattern as string | undefined) : undefined) });
    } else {
      out.push({ path, message: `\`${field}\`: ${iss.message}`, fix: 'correct the value as the fold spec describes' });
    }
  }
  return out;
}
