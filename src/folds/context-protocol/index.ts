/**
 * The `context-protocol` fold — the built-in default, modelling a public agent platform's prompt
 * fold (spec: shared/spec/context-protocol-fold.md). This file wires the pieces into the Fold
 * interface: schemas (schema.ts; for authors: reference.ts) → reducer (reduce.ts) → renderer (render.ts).
 */
import type { Fold, Snapshot, StreamEvent } from '../types.ts';
import { collectSnapshots } from '../snapshots.ts';
import { schemaIssues } from '../validate.ts';
import { ABRIDGED_PROTOCOL_PROMPT, protocolPrompt } from './protocol-prompt.ts';
import { derive, describe, expand } from './hooks.ts';
import { Renderer, type ContextProtocolOptions } from './render.ts';
import { SCHEMAS, validatePayload } from './schema.ts';
import { State } from './reduce.ts';
import { OPTIONS_SCHEMA, optionsSchema, payloadSchemas, RULES } from './reference.ts';

export type { ContextProtocolOptions } from './render.ts';

// `satisfies`: checked against Fold, while its own (synchronous) hook types stay visible to the tests.
export const contextProtocol = {
  id: 'context-protocol',
  title: 'Context protocol',
  description: 'An append-only agent stream folded into a standing document of keyed sections plus a timeline (the reference platform’s fold).',
  defaults: { metadataLines: 'synthesized-only' },
  eventTypes: Object.keys(SCHEMAS),
  requestTypes: ['agent/llm-request-requested'],
  validateOptions: (options) => schemaIssues(OPTIONS_SCHEMA, options),
  validateEvent: validatePayload,
  abridgements: (options) => [
    {
      text: protocolPrompt(options.metadataLines),
      standIn: options.metadataLines === 'synthesized-only' ? ABRIDGED_PROTOCOL_PROMPT : ABRIDGED_PROTOCOL_PROMPT.replace(' — ', ' (every item carries a metadata line) — '),
    },
  ],
  expand,
  derive,
  describe,
  snapshots(events: readonly StreamEvent[], options: ContextProtocolOptions, at: ReadonlySet<number>): Snapshot[] {
    const state = new State();
    const renderer = new Renderer(options);
    return collectSnapshots(
      events,
      at,
      (e) => state.apply(e),
      () => renderer.render(state),
    );
  },
  payloadSchemas,
  optionsSchema,
  rules: RULES,
} satisfies Fold<ContextProtocolOptions>;
