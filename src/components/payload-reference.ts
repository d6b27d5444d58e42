/**
 * The payload reference of one fold, as a page model: every event type it consumes with its
 * fields (path, type, allowed values, required or optional, notes), a minimal valid example, the
 * fold's options and the rules its schemas cannot show — all generated from the fold's own hooks
 * (`payloadSchemas`, `optionsSchema`, `rules`; src/folds/types.ts), so the page and the validator
 * cannot disagree. A fold without the hooks still gets a page listing its event types.
 */
import { stringify } from 'yaml';
import type { AnyFold, JsonSchema } from '../folds/types.ts';
import { minimalExample } from '../folds/json-schema.ts';
import { optionsSchemaOf, payloadSchemasOf } from '../folds/hooks.ts';

export interface FieldRow {
  /** Dotted path inside the payload; `[]` marks a list's entries, `(type: x)` a tagged variant. */
  path: string;
  /** What to write, in words: "text", "whole number ≥ 0", "one of …", "list of mappings", … */
  type: string;
  /** Allowed values, when the schema lists them. */
  allowed?: string[];
  required: boolean;
  description?: string;
  /** Nesting depth (0 = a top-level field). */
  depth: number;
}

export interface EventTypeReference {
  type: string;
  /** A send: each one in a scenario is a request. */
  isRequest: boolean;
  description?: string;
  /** False when the fold gives no payload schema for this type. */
  documented: boolean;
  /** The payload takes any fields. */
  freeForm: boolean;
  fields: FieldRow[];
  /** The payload as JSON Schema (for readers who want it whole). */
  schema?: JsonSchema;
  /** A minimal valid example payload (the fold's own, or one made from the schema). */
  example?: Record<string, unknown>;
  /** The example written as a scenario event, YAML. */
  exampleYaml?: string;
}

export interface FoldReference {
  id: string;
  title: string;
  description: string;
  types: EventTypeReference[];
  options: FieldRow[];
  defaults: Record<string, unknown>;
  rules: string[];
}

const asSchema = (v: unknown): JsonSchema => (v && typeof v === 'object' ? (v as JsonSchema) : {});

function branches(s: JsonSchema): JsonSchema[] | undefined {
  const b = (s.oneOf ?? s.anyOf) as JsonSchema[] | undefined;
  return Array.isArray(b) && b.length ? b : undefined;
}

/** The `type` constant of a tagged-union branch. */
function tagOf(s: JsonSchema): string | undefined {
  const t = asSchema(asSchema(s.properties).type);
  return typeof t.const === 'string' ? t.const : undefined;
}

const isFreeForm = (s: JsonSchema): boolean => s.type === 'object' && !s.properties && s.additionalProperties !== false;

/** The allowed values of a schema, when it enumerates them. */
function allowedOf(s: JsonSchema): string[] | undefined {
  if (Array.isArray(s.enum)) return s.enum.map(String);
  if ('const' in s) return [String(s.const)];
  const b = branches(s);
  if (b?.every((x) => 'const' in x || Array.isArray(x.enum))) return b.flatMap((x) => allowedOf(x)!);
  return undefined;
}

/** What to write, in words. */
export function typeWords(s: JsonSchema): string {
  const b = branches(s);
  if (b) {
    const tags = b.map(tagOf);
    if (tags.every((t) => t !== undefined)) return `mapping, tagged by \`type\`: ${tags.map((t) => `\`${t}\``).join(', ')}`;
    if (allowedOf(s)) return 'one of the values listed';
    return b.map(typeWords).join(', or ');
  }
  if (Array.isArray(s.enum) || 'const' in s) return allowedOf(s)!.length === 1 ? 'exactly' : 'one of';
  switch (s.type) {
    case 'string': {
      if (s.format === 'date-time') return 'ISO-8601 instant (e.g. 2026-01-01T00:00:00Z)';
      return typeof s.minLength === 'number' && s.minLength > 0 ? 'text (not empty)' : 'text';
    }
    case 'integer': {
      const min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : undefined;
      return min === undefined ? 'whole number' : `whole number ≥ ${min}`;
    }
    case 'number':
      return 'number';
    case 'boolean':
      return 'true or false';
    case 'array': {
      const item = asSchema(s.items);
      const min = typeof s.minItems === 'number' && s.minItems > 0 ? ` (at least ${s.minItems})` : '';
      return `list of ${item.type === 'object' || branches(item) ? 'mappings' : typeWords(item)}${min}`;
    }
    case 'object':
      return isFreeForm(s) ? 'mapping (any fields)' : 'mapping';
    default:
      return 'any value';
  }
}

/** Field rows of an object schema, depth first (nested mappings, list entries, tagged variants). */
export function fieldRows(s: JsonSchema, prefix = '', depth = 0, out: FieldRow[] = []): FieldRow[] {
  const props = asSchema(s.properties) as Record<string, JsonSchema>;
  const required = new Set((s.required ?? []) as string[]);
  for (const [k, raw] of Object.entries(props)) {
    const f = asSchema(raw);
    const path = prefix ? `${prefix}.${k}` : k;
    const allowed = allowedOf(f);
    out.push({ path, type: typeWords(f), required: required.has(k), depth, ...(allowed && { allowed }), ...(typeof f.description === 'string' && { description: f.description }) });
    nested(f, path, depth + 1, out);
  }
  return out;
}

function nested(f: JsonSchema, path: string, depth: number, out: FieldRow[]): void {
  const b = branches(f);
  if (b?.every((x) => tagOf(x) !== undefined)) {
    for (const x of b) {
      const { type: _t, ...rest } = asSchema(x.properties);
      fieldRows({ ...x, properties: rest, required: ((x.required ?? []) as string[]).filter((r) => r !== 'type') }, `${path} (type: ${tagOf(x)})`, depth, out);
    }
  } else if (f.type === 'object' && f.properties) fieldRows(f, path, depth, out);
  else if (f.type === 'array') nested(asSchema(f.items), `${path}[]`, depth, out);
}

/** The example written as one scenario event (YAML). */
function eventYaml(type: string, offset: number, payload: Record<string, unknown>): string {
  return stringify([{ off: offset, t: '1.5s', type, payload }], { lineWidth: 0, flowCollectionPadding: false }).trimEnd();
}

/** The whole reference of one fold. */
export async function foldReference(fold: AnyFold): Promise<FoldReference> {
  const schemas = await payloadSchemasOf(fold);
  const types: EventTypeReference[] = fold.eventTypes.map((type: string) => {
    const isRequest = fold.requestTypes.includes(type);
    const raw = schemas[type];
    if (!raw) return { type, isRequest, documented: false, freeForm: true, fields: [] };
    const schema = asSchema(raw);
    const b = branches(schema);
    // An authored alternative (e.g. a batch form): document the first form's fields, then the
    // fields only the others have.
    const rows = b ? fieldRows(b[0]!) : fieldRows(schema);
    for (const alt of b?.slice(1) ?? [])
      for (const r of fieldRows(alt)) if (!rows.some((x) => x.path === r.path)) rows.push({ ...r, description: `${r.description ?? ''} (alternative form)`.trim() });
    const example = minimalExample(schema) as Record<string, unknown>;
    return {
      type,
      isRequest,
      documented: true,
      freeForm: isFreeForm(schema),
      fields: rows,
      schema,
      ...(typeof schema.description === 'string' && { description: schema.description }),
      example,
      exampleYaml: eventYaml(type, 12, example),
    };
  });
  const optionsSchema = await optionsSchemaOf(fold);
  const options = optionsSchema ? fieldRows(asSchema(optionsSchema)).map((r) => (r.depth === 0 ? { ...r, required: false } : r)) : [];
  return { id: fold.id, title: fold.title, description: fold.description, types, options, defaults: { ...fold.defaults }, rules: [...(fold.rules ?? [])] };
}
