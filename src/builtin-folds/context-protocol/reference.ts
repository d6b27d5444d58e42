/**
 * What the context-protocol fold tells authors about its input (the Fold hooks `payloadSchemas`,
 * `optionsSchema` and `rules`): each event type's payload as JSON Schema, made from the same zod
 * schemas the fold validates with (schema.ts), with a sentence per type, notes on the fields that
 * need one and a minimal valid example — plus the rules across events that no payload schema can
 * show (src/pages/reference/context-protocol.mdx). The payload reference page and the
 * editor schema are generated from these.
 */
import * as z from 'zod';
import type { PayloadNotes } from '../../folds/json-schema.ts';
import { exampleModel } from '../../providers/registry.ts';
import { SCHEMAS } from './schema.ts';
import { SUPERSEDING_SECTIONS } from './supersede.ts';

export const OPTIONS_SCHEMA = z.strictObject({
  metadataLines: z
    .enum(['synthesized-only', 'every-item'])
    .describe(
      'Which message items start with an `@<offset>` metadata line: `synthesized-only` (system and developer items, and items with refs — the current rule) or `every-item` (the previous rule).',
    ),
  supersedingSections: z
    .enum(SUPERSEDING_SECTIONS)
    .describe(
      'Where a keyed re-add goes once the key’s previous occurrence was sent: `timeline` (the reference platform’s rule: appended at the tail with `supersedes="@P"`, in its own role — a system section there is a mid-conversation system message, which a provider may accept only on the models its documentation lists) or `standing-document` (the new text replaces the key’s first occurrence, in the leading system message: every model accepts it, and the cache after the protocol prompt is lost).',
    ),
});

/**
 * The `sections:` batch an author may write instead of `key`/`content`: one keyed event per entry
 * at consecutive offsets, every other field shared (the authored form; the stream sees the events).
 */
function authoredContextAdded(single: z.ZodType): z.ZodType {
  const obj = single as z.ZodObject;
  const batch = obj.omit({ key: true, content: true }).extend({
    sections: z
      .array(z.strictObject({ key: z.string().min(1), content: z.string() }))
      .min(1)
      .describe('A batch: one keyed event per entry, at this offset and the following ones (all at the same time). Instead of `key` and `content`.'),
  });
  return z.union([single, batch]);
}

export const NOTES: Record<string, PayloadNotes> = {
  'agent/created': {
    description: 'The agent exists (its birth certificate). Free-form; nothing here reaches the prompt.',
    example: { streamPath: '/agents/web/harbor' },
  },
  'agent/configured': {
    description: 'A configuration patch, deep-merged into the agent’s config. Nothing here reaches the prompt.',
    example: { config: { llmRequestDebounceMs: 45000 } },
  },
  'agents/context-added': {
    description:
      'Appends an item to the context: a keyed **section** (with `key`) or an unkeyed **message**. Re-adding a key is the update. Write one `sections:` list instead of `key`/`content` to add several sections at consecutive offsets.',
    fields: {
      role: 'The stored role. `user` and `developer` items trigger a request (unless `llmRequestPolicy: dont-trigger-request`); `system` and `assistant` items never do.',
      content: 'The item’s text, as the model reads it.',
      key: 'Makes the item a section (standing instructions). Re-adding the same key replaces the text: in place before it was sent, at the tail with `supersedes` after.',
      actor:
        'Who produced the item, tagged by `type`. A developer item from anyone but `agent`/`script` (or no actor) renders as `user`: third-party text never gains instruction precedence.',
      refs: 'Exact coordinates the item points at, each tagged by `type`; shown in the metadata line.',
      files: 'Attachments carried on the rendered message.',
      llmRequestPolicy: 'Whether this item asks for a request: `after-current-request` (the default for triggering items), `interrupt-current-request`, or `dont-trigger-request`.',
      llmRequestOffset: 'On an assistant reply only: the offset of the request it answers (that request must still be open — write the reply before its settlement).',
      compaction:
        'Makes the item a compaction summary (unkeyed, `role: developer`, `llmRequestPolicy: dont-trigger-request`): the history through `replacesHistoryThrough` is replaced by it.',
    },
    example: { role: 'user', content: 'can you give me a quick tour of the repo?', actor: { type: 'user', origin: 'web' } },
  },
  'agents/context-rewritten': {
    description:
      'Deliberately rewrites history (never triggers a request): `replace` puts new text at the key’s first slot and drops its other occurrences; `delete` removes every occurrence (`key: "*"`: everything).',
    fields: { content: 'The replacement text: required for `op: replace`, not allowed for `op: delete`.' },
    example: { op: 'delete', key: 'scratchpad' },
  },
  'agent/llm-request-requested': {
    description:
      'A send. Accepted only when a trigger is pending, no request is open and the agent is not paused; an accepted request adds a `Requested at:` stamp and is a request of the scenario (pinned in the fixtures).',
    fields: {
      model: `The model this request goes to, e.g. \`${exampleModel()}\`.`,
      expiresAt: 'Optional: derived as the event’s time + 30 s when omitted.',
    },
    example: { model: exampleModel() },
  },
  'agent/llm-request-settled': {
    description: 'Closes the open request. No later request is accepted until the open one is settled.',
    fields: {
      requestOffset: 'The offset of the request this settles (the open one).',
      result: 'How it ended: `status` (`succeeded`, `failed`, `cancelled`) and, optionally, the reply `text`.',
    },
    example: { requestOffset: 21, result: { status: 'succeeded', text: 'Here is a quick tour…' } },
  },
  'capability-host/script-run-requested': {
    description: 'The capability host starts running a script the model wrote. Nothing here reaches the prompt.',
    fields: { expiresAt: 'Optional: derived as the event’s time + 30 s when omitted.' },
    example: { executionId: 'exec-1', code: 'return 1 + 1;' },
  },
  'capability-host/script-run-settled': {
    description:
      'The script finished. Nothing here reaches the prompt: its result reaches the model as a developer `agents/context-added` item with actor `{type: script, executionId}`.',
    example: { executionId: 'exec-1', settlement: { status: 'succeeded', result: 2 } },
  },
  'agent/paused': { description: 'Pauses the agent: no request is accepted until `agent/resumed`. Free-form.', example: {} },
  'agent/resumed': { description: 'Resumes a paused agent. Free-form.', example: {} },
  'agent/token-usage-reported': { description: 'Token usage of a request, as reported. Free-form; nothing here reaches the prompt.', example: {} },
  'agent/summary-updated': { description: 'A summary of the agent for listings. Free-form; nothing here reaches the prompt.', example: {} },
};

/** The payloads as an author may write them, where that is more than the validated form (the `sections:` batch). */
export const AUTHORED: Record<string, z.ZodType> = { 'agents/context-added': authoredContextAdded(SCHEMAS['agents/context-added']!) };

export const RULES: readonly string[] = [
  '**A request needs a trigger.** `agent/llm-request-requested` is accepted only when a trigger is pending — a `user` item, or a `developer` item, added since the last request without `llmRequestPolicy: dont-trigger-request` — no request is open, and the agent is not paused. A request the fold does not accept renders nothing, and the check says why (no pending trigger, an unsettled open request, paused).',
  '**Settle a request before the next one is sent.** Write `agent/llm-request-settled` with `requestOffset: <the request’s offset>` and `result: {status: succeeded}` (or `failed`, `cancelled`; optionally `text:` with the reply). A `failed` settlement, under three attempts, is itself a trigger for a retry.',
  '**An assistant reply points at its request.** Write the model’s reply as `agents/context-added` with `role: assistant` and `llmRequestOffset: <the request’s offset>`, *before* the settlement, while that request is still open; a reply naming any other request reduces to nothing.',
  '**A script result comes back as a developer item.** The model’s script runs as `capability-host/script-run-requested` then `capability-host/script-run-settled` (same `executionId`; neither reaches the prompt); what it returned is then appended as `agents/context-added` with `role: developer`, `content:` the result as text, and `actor: {type: script, executionId: <the same id>}` — an agent-loop trigger, so the next request needs no human message.',
  '**Sections.** An item with `key` is a section; re-adding a key is the update (in place while unsent, at the tail with `supersedes="@P"` once sent). `sections:` writes several at consecutive offsets (`off: 10` with three entries takes @10–@12); the next event’s offset must be above the last.',
  '**Compaction.** A compaction summary is an unkeyed `role: developer` item with `llmRequestPolicy: dont-trigger-request` and `compaction: {replacesHistoryThrough: <offset>}` below its own offset.',
  '**Derived fields.** `expiresAt` of a request or script run is the event’s time + 30 s when omitted.',
];
