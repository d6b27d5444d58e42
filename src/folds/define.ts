/**
 * `defineFold` — the kit for writing a fold from zod schemas (exported to fold authors as
 * `prompt-fold-explainer/kit`). A fold author writes the fold's logic (snapshots, and any optional
 * hooks) and one zod schema per event type and for the options; the kit derives everything that
 * would otherwise be a second, hand-kept copy of those schemas: the event types, payload
 * validation (every zod issue as an Issue that names the field and the fix, validate.ts), options
 * validation, the payloads' JSON Schemas for the editor schema and the generated payload reference
 * (json-schema.ts). So the validator, the editor and the docs cannot disagree. Pure and
 * browser-safe like every fold module.
 */
import type * as z from 'zod';
import { UserError } from '../errors.ts';
import { jsonSchemaOf, payloadJsonSchemas, type PayloadNotes } from './json-schema.ts';
import type { DerivedMember } from './check.ts';
import type { Fold, Issue, JsonSchema } from './types.ts';
import { schemaIssues } from './validate.ts';

/** What a fold author writes: the Fold minus what the kit derives, plus the schemas. */
export type FoldDefinition<Options extends object> = Omit<Fold<Options>, DerivedMember> & {
  /** One zod schema per event type, for the payload as validated (after `expand`/`derive`). Its keys are the event types. */
  payloads: Readonly<Record<string, z.ZodType>>;
  /** The payload as an author may write it, where `expand` accepts more than the validated form (a
   *  batch syntax): the editor schema and the reference show these. Default: `payloads`. */
  authored?: Readonly<Record<string, z.ZodType>>;
  /** Prose, field notes and an example per event type, for the payload reference. */
  notes?: Readonly<Record<string, PayloadNotes>>;
  /** The options object's schema (after the defaults are merged in). */
  options?: z.ZodType;
  /** Checks beyond the options schema (relations between options); run only when the schema passes. */
  checkOptions?(options: Options): Issue[];
  /** Checks beyond a payload's schema (rules a schema cannot say); run only when the schema passes. */
  checkEvent?(type: string, payload: unknown): Issue[];
};

/** What defineFold returns: a Fold whose derived members are synchronous (the schemas are). */
export type DefinedFold<Options extends object> = Omit<Fold<Options>, 'validateEvent' | 'validateOptions' | 'payloadSchemas'> & {
  validateEvent(type: string, payload: unknown): Issue[];
  validateOptions(options: Options): Issue[];
  payloadSchemas(): Readonly<Record<string, JsonSchema>>;
};

/** What only a definition has (the kit turns it into the derived members). */
type DefinitionOnly = 'payloads' | 'authored' | 'notes' | 'options' | 'checkOptions' | 'checkEvent';

/**
 * A fold from its logic and its zod schemas (see the header). The result keeps the definition's own
 * hook types — a synchronous `snapshots` stays synchronous for the fold's own tests — and is a Fold.
 */
export function defineFold<Options extends object, Def extends FoldDefinition<Options> = FoldDefinition<Options>>(
  def: Def & FoldDefinition<Options>,
): Omit<Def, DefinitionOnly> & DefinedFold<Options> {
  const { payloads, authored, notes, options: optionsZod, checkOptions, checkEvent, ...logic } = def;
  const eventTypes = Object.keys(payloads);
  const unknownRequest = logic.requestTypes.filter((t) => !eventTypes.includes(t));
  // The fold author's mistake, reported like any input error (the message and its fix, no stack trace).
  if (unknownRequest.length)
    throw new UserError(`defineFold(${def.id}): request types ${unknownRequest.join(', ')} have no payload schema`, {
      fix: `add a zod schema for ${unknownRequest.map((t) => `\`${t}\``).join(', ')} to \`payloads\` (a request is an event, validated like the others), or remove it from \`requestTypes\``,
    });
  const jsonSchemas = payloadJsonSchemas({ ...payloads, ...authored }, notes);
  return {
    ...logic,
    eventTypes,
    validateEvent: (type, payload) => {
      const schema = payloads[type];
      if (!schema) return [{ path: [], message: `unknown event type \`${type}\``, fix: `use one of: ${eventTypes.join(', ')}` }];
      const issues = schemaIssues(schema, payload);
      return issues.length || !checkEvent ? issues : checkEvent(type, payload);
    },
    validateOptions: (o) => {
      const issues = optionsZod ? schemaIssues(optionsZod, o) : [];
      return issues.length || !checkOptions ? issues : checkOptions(o);
    },
    payloadSchemas: () => jsonSchemas,
    ...(optionsZod && { optionsSchema: () => jsonSchemaOf(optionsZod) }),
  } as Omit<Def, DefinitionOnly> & DefinedFold<Options>;
}
