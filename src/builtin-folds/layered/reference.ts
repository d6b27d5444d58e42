/**
 * What the layered fold tells authors about its input (the Fold hooks `payloadSchemas`,
 * `optionsSchema` and `rules`): each event type's payload as JSON Schema, made from the zod schemas
 * the fold validates with (schema.ts, options.ts), with notes, a minimal valid example per type and
 * the rules no schema shows (its reference page: src/pages/reference/layered.mdx). The payload reference page and the
 * editor schema are generated from these.
 */
import type { PayloadNotes } from '../../folds/json-schema.ts';
import { LAYERED_EXAMPLE_MODEL } from './schema.ts';

export const NOTES: Record<string, PayloadNotes> = {
  'entry/added': {
    description:
      'Adds a context entry. Where it lands depends on its layer, role and sourceType: L0 or SYSTEM entries join the leading system message; the rest are transcript messages; mandate sourceTypes go to the trailing user slot.',
    fields: {
      layer: 'L0 (always system) to L3.',
      role: 'SYSTEM entries join the leading system message; USER, ASSISTANT and TOOL become messages of that role.',
      sourceType: 'The producer’s name for the entry, one word (printed as a `## <sourceType>` header in the trailing slot).',
      ordinal: 'Order key (defaults to the event’s offset); `entry/updated` and `entry/removed` name the entry by it.',
    },
    example: { layer: 'L1', role: 'USER', sourceType: 'userMessage', content: 'Summarise the open tickets.' },
  },
  'entry/updated': {
    description: 'Replaces the content of the entry with this ordinal; it keeps its place. An ordinal no live entry has changes nothing.',
    example: { ordinal: 3, content: 'Two tickets remain.' },
  },
  'entry/removed': {
    description: 'Removes the entry with this ordinal. An ordinal no live entry has changes nothing.',
    example: { ordinal: 3 },
  },
  request: {
    description: 'A send: the request as of this offset is a request of the scenario (pinned in the fixtures).',
    fields: { model: 'The model this request goes to (not empty).' },
    example: { model: LAYERED_EXAMPLE_MODEL },
  },
};

export const RULES: readonly string[] = [
  '**Every `request` is sent.** There is no trigger or settlement: each `request` event renders the entries so far.',
  '**Ordinals.** `ordinal` defaults to the event’s offset; two entries may share one (order then falls back to layer and the order they were added). `entry/updated` and `entry/removed` act on the live entry with that ordinal, and on nothing when there is none.',
  '**Late system entries.** With `lateSystem: mid-conversation`, a system entry (role SYSTEM, or layer L0) added after the first send is sent as a `system` message at its place in the transcript, not folded into the leading system message; an update of a system entry already sent is appended as a `system` message where it happened (the sent text stays as it was sent); and the steering reminder is re-emitted as a trailing `system` message instead of a user turn: every earlier message stays what the previous request sent. A provider may accept mid-conversation system messages only on the models its documentation lists (the economics mark a request to any other as rejected); the default, `leading-system`, is today’s placement.',
  '**Breakpoints.** By default the last cache breakpoint sits on the last transcript message, before the reminder and the slot, which are re-rendered every turn. `lastBreakpoint: final-message` puts it on the request’s final message instead: when that is a re-rendered turn (a trailing reminder), the entry written there is never read again — the trap of a trailing reminder carrying the last breakpoint. `breakpointTtl: 1h` asks for the one-hour retention on every breakpoint (on a provider whose breakpoints carry their own TTL).',
  '**Options.** `repairMandateSourceTypes` lists the sourceTypes pulled into the trailing user slot; with `trailingSlot: highest-precedence` or `consolidated`, each of them must be ranked in `precedence` (highest first). No list may name a sourceType twice.',
];
