/**
 * The JSON Schema of a scenario file for one fold — what editors use (the YAML language server's
 * `# yaml-language-server: $schema=…` modeline) to complete and check a scenario while it is typed.
 * Made from the same schemas `npm run check` uses: the scenario file's structure (schema.ts, zod)
 * and the fold's own hooks (`payloadSchemas`, `optionsSchema`): each event's `payload` is checked
 * against its `type`'s schema. What needs the whole corpus (offsets in order across a base chain,
 * stale anchors, requests the fold refuses) stays the check's job.
 */
import * as z from 'zod';
import { optionsSchemaOf, payloadSchemasOf } from '../folds/hooks.ts';
import type { AnyFold, JsonSchema } from '../folds/types.ts';
import { annotationSchema, compareSchema, deploySchema, eventSchema, expectSchema, ID_PATTERN, scenarioFileSchema, sharesCacheSchema } from './schema.ts';
import { runCommand } from '../project.ts';

const REQUEST_NAME = '^@\\d+$';

function json(schema: z.ZodType): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const props = (s: JsonSchema): Record<string, JsonSchema> => s.properties as Record<string, JsonSchema>;

/** Whether a payload schema needs fields (so the event needs a `payload:`). */
function needsFields(s: JsonSchema): boolean {
  const branches = (s.oneOf ?? s.anyOf) as JsonSchema[] | undefined;
  if (branches?.length) return branches.every(needsFields);
  return Array.isArray(s.required) && s.required.length > 0;
}

/** An event of this fold: `type` one of its types, `payload` checked against that type's schema. */
async function eventJsonSchema(fold: AnyFold): Promise<JsonSchema> {
  const s = json(eventSchema);
  const payloads = await payloadSchemasOf(fold);
  props(s).type = { ...props(s).type, enum: [...fold.eventTypes], description: `An event type of the \`${fold.id}\` fold (see its payload reference).` };
  delete props(s).type!.examples;
  const cases: JsonSchema[] = [];
  for (const type of fold.eventTypes as string[]) {
    const p = payloads[type];
    if (!p) continue;
    const needed = needsFields(p);
    cases.push({
      if: { properties: { type: { const: type } }, required: ['type'] },
      // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword of if/then, not a thenable
      then: {
        properties: { payload: needed ? p : { anyOf: [p, { type: 'null' }] } },
        ...(needed && { required: ['payload'] }),
      },
    });
  }
  if (cases.length) s.allOf = cases;
  return s;
}

/** The fold's options as a scenario writes them: any subset, each with its default. */
async function optionsJsonSchema(fold: AnyFold): Promise<JsonSchema> {
  const o = await optionsSchemaOf(fold);
  if (!o) return { anyOf: [{ type: 'object' }, { type: 'null' }], description: 'Fold options, shallow-merged over the fold’s defaults.' };
  const { required: _all, ...rest } = o;
  const properties = { ...((rest.properties ?? {}) as Record<string, JsonSchema>) };
  for (const [k, v] of Object.entries(fold.defaults as Record<string, unknown>)) if (properties[k]) properties[k] = { ...properties[k], default: v };
  return { anyOf: [{ ...rest, properties }, { type: 'null' }], description: `Options of the \`${fold.id}\` fold, shallow-merged over its defaults.` };
}

export interface ScenarioSchemaOptions {
  /** Ids of every fold the project knows (for `compare.fold`). */
  foldIds: readonly string[];
  /** Whether this fold is the project's default (then `fold:` may be omitted). */
  isDefault: boolean;
  /** The schema's own URL or path, written as `$id` when given. */
  id?: string;
}

/** The JSON Schema (draft 2020-12) of a native YAML scenario file that uses `fold`. */
export async function scenarioJsonSchema(fold: AnyFold, opts: ScenarioSchemaOptions): Promise<JsonSchema> {
  const s = json(scenarioFileSchema);
  const p = props(s);
  p.id = { ...p.id, pattern: ID_PATTERN.source };
  p.fold = { ...p.fold, const: fold.id };
  p.options = await optionsJsonSchema(fold);
  p.events = { ...p.events, type: 'array', minItems: 1, items: await eventJsonSchema(fold) };
  const annotation = json(annotationSchema);
  props(annotation).request = { ...props(annotation).request, pattern: REQUEST_NAME };
  p.annotations = { anyOf: [{ type: 'array', items: annotation }, { type: 'null' }], description: 'Comments anchored to text of the scenario’s own requests.' };
  const compare = json(compareSchema);
  props(compare).fold = { ...props(compare).fold, enum: [...opts.foldIds] };
  p.compare = { ...compare, description: 'Show every request under a second fold variant, side by side.' };
  const expect = json(expectSchema);
  props(expect).busts = { ...props(expect).busts, items: { type: 'string', pattern: REQUEST_NAME } };
  p.expect = { ...expect, description: `The scenario’s promise about the cache, checked by \`${runCommand('check')}\`.` };
  const deploy = json(deploySchema);
  props(deploy).at = { ...props(deploy).at, pattern: REQUEST_NAME };
  props(deploy).fold = { ...props(deploy).fold, enum: [...opts.foldIds] };
  p.deploy = { ...deploy, description: 'A deploy mid-stream: from one of the own events on, requests render under other fold options (or another fold).' };
  const shared = json(sharesCacheSchema);
  props(shared).at = { ...props(shared).at, pattern: REQUEST_NAME };
  props(shared).scenario = { ...props(shared).scenario, pattern: ID_PATTERN.source };
  p.sharesCache = {
    ...shared,
    description:
      'Send to the same provider cache as another scenario (a subagent and its parent), starting at one of its events: the economics simulate both over one cache on one clock.',
  };
  if (!opts.isDefault) s.required = [...new Set([...((s.required ?? []) as string[]), 'fold'])];
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...(opts.id && { $id: opts.id }),
    title: `Scenario file (fold: ${fold.id})`,
    description: `A prompt-fold-explainer scenario rendered by the \`${fold.id}\` fold. Generated from the schemas \`${runCommand('check')}\` uses; regenerate with \`${runCommand('schemas')}\`.`,
    ...s,
  };
}

/** The file name a fold's schema is published and committed under. */
export const schemaFileName = (foldId: string): string => `scenario.${foldId}.json`;

/** Every configured fold's schema, as the text written to disk and served (stable: sorted keys as built). */
export async function scenarioSchemaFiles(folds: ReadonlyMap<string, AnyFold>, defaultFold: string): Promise<{ name: string; text: string }[]> {
  const ids = [...folds.keys()];
  const out: { name: string; text: string }[] = [];
  for (const id of ids)
    out.push({ name: schemaFileName(id), text: `${JSON.stringify(await scenarioJsonSchema(folds.get(id)!, { foldIds: ids, isDefault: id === defaultFold }), null, 2)}\n` });
  return out;
}
