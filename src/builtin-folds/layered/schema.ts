/**
 * Payload schemas of the events the `layered` fold consumes (its reference page: src/pages/reference/layered.mdx,
 * "Entries"), plus the rules a schema cannot say. Strict: an unknown field, a wrong type or a
 * missing required field is an input error, reported through the shared `schemaIssues` so the
 * loader can point at the exact YAML node.
 *
 * What validation cannot know: it sees one payload at a time, so an `entry/updated` or
 * `entry/removed` naming an ordinal that no live entry has is handled by the reducer (a no-op), and
 * a duplicate ordinal in `entry/added` is allowed (router chat gives every entry ordinal 0; order
 * then falls back to the stable tie-breaks of place.ts).
 */
import * as z from 'zod';
import type { Issue } from '../../folds/types.ts';
import { exampleModel } from '../../providers/registry.ts';

/** The model the fold's examples send to: one whose provider's breakpoints carry their own TTL (the fold's `breakpointTtl`). */
export const LAYERED_EXAMPLE_MODEL = exampleModel((a) => a.cacheStrategies.some((c) => c.perBreakpointTtl));

export const LAYERS = ['L0', 'L1', 'L2', 'L3'] as const;
export type Layer = (typeof LAYERS)[number];
export const ENTRY_ROLES = ['SYSTEM', 'USER', 'ASSISTANT', 'TOOL'] as const;
export type EntryRole = (typeof ENTRY_ROLES)[number];

const ordinal = z.int();

const entryAdded = z.strictObject({
  layer: z.enum(LAYERS),
  role: z.enum(ENTRY_ROLES),
  sourceType: z.string(),
  content: z.string(),
  ordinal: ordinal.optional(),
});
export type EntryAddedPayload = z.infer<typeof entryAdded>;

const entryUpdated = z.strictObject({ ordinal, content: z.string() });
export type EntryUpdatedPayload = z.infer<typeof entryUpdated>;

const entryRemoved = z.strictObject({ ordinal });
export type EntryRemovedPayload = z.infer<typeof entryRemoved>;

const request = z.strictObject({ model: z.string() });
export type RequestPayload = z.infer<typeof request>;

export const SCHEMAS: Record<string, z.ZodType> = {
  'entry/added': entryAdded,
  'entry/updated': entryUpdated,
  'entry/removed': entryRemoved,
  request,
};

export const REQUEST_TYPE = 'request';

/** A sourceType becomes a `## <sourceType>` header: one word, no whitespace. */
export const SOURCE_TYPE = /^\S+$/;

/** Issue for a sourceType (payload field or option list item) that is not one word. */
export function sourceTypeIssue(path: (string | number)[], value: string): Issue | undefined {
  if (SOURCE_TYPE.test(value)) return undefined;
  return {
    path,
    message: `\`${path.join('.')}\` is ${JSON.stringify(value)}, which is not a sourceType: it must be one word with no spaces (it is matched exactly and printed as a \`## <sourceType>\` header)`,
    fix: "write the producer's sourceType as one word, e.g. `retryFeedback` or `remainingDelta`",
  };
}

/** The rules a payload's schema cannot say (run once the schema passes: defineFold's `checkEvent`). */
export function payloadRules(type: string, payload: unknown): Issue[] {
  if (type === 'entry/added') {
    const issue = sourceTypeIssue(['sourceType'], (payload as EntryAddedPayload).sourceType);
    return issue ? [issue] : [];
  }
  if (type === REQUEST_TYPE && (payload as RequestPayload).model.trim() === '') {
    return [{ path: ['model'], message: '`model` is empty', fix: `name the model this send goes to, e.g. \`model: ${LAYERED_EXAMPLE_MODEL}\`` }];
  }
  return [];
}
