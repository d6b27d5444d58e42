/**
 * JSON Schemas of a fold's payloads and options, made from its zod schemas (zod 4's
 * `z.toJSONSchema`), for the optional Fold hooks `payloadSchemas()` and `optionsSchema()` — the
 * generated payload reference and the editor schema read them, so the docs, the editor and the
 * validator cannot disagree. Also a minimal valid example made from a schema, for event types whose
 * fold gives none. Pure and browser-safe like every fold module.
 */
import * as z from 'zod';
import { UserError } from '../errors.ts';
import type { JsonSchema } from './types.ts';

/** What a fold says about one event type beyond its schema: prose, field notes, an example. */
export interface PayloadNotes {
  /** One or two sentences: what the event means. */
  description?: string;
  /** Notes per field path (`actor`, `result.status`, …). */
  fields?: Record<string, string>;
  /** A minimal valid payload, as an author writes it (tests check the fold accepts it). */
  example?: Record<string, unknown>;
}

/** The JSON Schema (draft 2020-12) of a zod schema, as an author writes the value (`io: input`). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** The sub-schema at a dotted path of properties (through `oneOf`/`anyOf` branches that have it). */
function propertiesAt(schema: JsonSchema, path: string[]): JsonSchema[] {
  if (!path.length) return [schema];
  const [head, ...rest] = path;
  const out: JsonSchema[] = [];
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (props?.[head!]) out.push(...propertiesAt(props[head!]!, rest));
  for (const k of ['oneOf', 'anyOf'] as const) for (const b of (schema[k] as JsonSchema[] | undefined) ?? []) out.push(...propertiesAt(b, path));
  if (schema.items && typeof schema.items === 'object') out.push(...propertiesAt(schema.items as JsonSchema, path));
  return out;
}

/** Payload JSON Schemas from zod schemas, with each type's notes attached as `description`/`examples`. */
export function payloadJsonSchemas(schemas: Readonly<Record<string, z.ZodType>>, notes: Readonly<Record<string, PayloadNotes>> = {}): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const [type, schema] of Object.entries(schemas)) {
    const s = jsonSchemaOf(schema);
    const n = notes[type];
    if (n?.description) s.description = n.description;
    for (const [path, text] of Object.entries(n?.fields ?? {})) {
      const hits = propertiesAt(s, path.split('.'));
      if (!hits.length)
        throw new UserError(`payload notes for ${type}: no field ${path} in its schema`, {
          fix: `name a field of the \`${type}\` schema in \`notes.${type}.fields\` (a dotted path, e.g. \`content.text\`), or remove the note`,
        });
      for (const h of hits) h.description = text;
    }
    if (n?.example) s.examples = [n.example];
    out[type] = s;
  }
  return out;
}

/**
 * A minimal value the schema accepts: required properties only, the first allowed value of an
 * enum, the first branch of a union, placeholders for free text. Used when a fold gives no example.
 */
export function minimalExample(schema: JsonSchema): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if ('default' in schema) return schema.default;
  for (const k of ['oneOf', 'anyOf'] as const) {
    const branches = schema[k] as JsonSchema[] | undefined;
    if (branches?.length) return minimalExample(branches[0]!);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const out: Record<string, unknown> = {};
      for (const k of (schema.required ?? []) as string[]) out[k] = props[k] ? minimalExample(props[k]) : '…';
      return out;
    }
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return Array.from({ length: min }, () => minimalExample((schema.items ?? {}) as JsonSchema));
    }
    case 'string':
      if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
      return '…';
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return {};
  }
}
