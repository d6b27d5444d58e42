/**
 * Strict payload validation shared by the built-in folds: a zod schema checks a payload, and every
 * zod issue becomes an Issue that names the field path, what is wrong and how to fix it — so the
 * loader can point at the exact YAML node. Unknown fields are errors, never silently dropped.
 */
import * as z from 'zod';
import type { Issue } from './types.ts';

type Path = (string | number)[];

function valueAt(root: unknown, path: Path): unknown {
  let v: unknown = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

/** The object schema that applies at `path` for this value, to list the fields allowed there. */
function objectKeysAt(schema: z.ZodType, root: unknown, path: Path): string[] | undefined {
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
  return s instanceof z.ZodObject ? Object.keys(s.shape) : undefined;
}

const fieldName = (path: Path): string => (path.length ? path.join('.') : 'the payload');

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  return `${typeof v} ${String(v)}`;
}

const article = (t: string): string => (/^[aeio]/.test(t) ? `an ${t}` : `a ${t}`);
const typeWord = (t: string): string =>
  ({ object: 'mapping', array: 'list', int: 'whole number' } as Record<string, string>)[t] ?? t;

/** Validate `value` against `schema`; [] when it conforms. */
export function schemaIssues(schema: z.ZodType, value: unknown): Issue[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  const out: Issue[] = [];
  for (const iss of result.error.issues) {
    const path = iss.path as Path;
    const got = valueAt(value, path);
    if (iss.code === 'unrecognized_keys') {
      const allowed = objectKeysAt(schema, value, path);
      for (const key of iss.keys) {
        out.push({
          path: [...path, key],
          message: `unknown field \`${[...path, key].join('.')}\``,
          fix: allowed ? `remove it or fix its spelling; allowed here: ${allowed.join(', ')}` : 'remove it or fix its spelling',
        });
      }
    } else if (got === undefined && (iss.code === 'invalid_type' || iss.code === 'invalid_value' || iss.code === 'invalid_union')) {
      const what = iss.code === 'invalid_value' ? `one of ${iss.values.map((x) => JSON.stringify(x)).join(', ')}` : iss.code === 'invalid_type' ? article(typeWord(iss.expected)) : 'a value';
      out.push({ path, message: `missing required field \`${fieldName(path)}\``, fix: `add \`${path.at(-1)}:\` with ${what}` });
    } else if (iss.code === 'invalid_type') {
      out.push({ path, message: `\`${fieldName(path)}\` must be ${article(typeWord(iss.expected))}, got ${describe(got)}`, fix: `make \`${fieldName(path)}\` ${article(typeWord(iss.expected))}` });
    } else if (iss.code === 'invalid_value') {
      const allowed = iss.values.map((x) => JSON.stringify(x)).join(', ');
      out.push({ path, message: `\`${fieldName(path)}\` is ${describe(got)}, which is not allowed`, fix: `use one of: ${allowed}` });
    } else if (iss.code === 'invalid_union' && 'discriminator' in iss && iss.discriminator) {
      const options = ((iss as { options?: unknown[] }).options ?? []).map((x) => JSON.stringify(x)).join(', ');
      out.push({ path, message: `\`${fieldName(path)}\` is ${describe(got)}, which is not a known kind`, fix: `use one of: ${options}` });
    } else {
      out.push({ path, message: `\`${fieldName(path)}\`: ${iss.message}`, fix: 'correct the value as the fold spec describes' });
    }
  }
  return out;
}
