/**
 * The `context-protocol` fold — the built-in default, modelling a public agent platform's prompt
 * fold (its reference page: src/pages/reference/context-protocol.mdx). This file wires the pieces into the Fold
 * interface: schemas (schema.ts; for authors: reference.ts) → reducer (reduce.ts) → renderer (render.ts).
 */
import type { Snapshot, StreamEvent } from '../../folds/types.ts';
import { defineFold } from '../../folds/define.ts';
import { reduceAndRender } from '../../folds/snapshots.ts';
import { ABRIDGED_PROTOCOL_PROMPT, protocolPrompt } from './protocol-prompt.ts';
import { derive, describe, expand } from './hooks.ts';
import { Renderer, type ContextProtocolOptions } from './render.ts';
import { payloadRules, SCHEMAS } from './schema.ts';
import { State } from './reduce.ts';
import { AUTHORED, NOTES, OPTIONS_SCHEMA, RULES } from './reference.ts';

export type { ContextProtocolOptions } from './render.ts';

/** The protocol prompt's one-line stand-in: the golden files' line, marked for each non-default option. */
function abridged(options: ContextProtocolOptions): string {
  const marks = [
    ...(options.metadataLines === 'every-item' ? ['every item carries a metadata line'] : []),
    ...(options.supersedingSections === 'standing-document' ? ['sections updated in place'] : []),
  ];
  return marks.length ? ABRIDGED_PROTOCOL_PROMPT.replace(' — ', ` (${marks.join('; ')}) — `) : ABRIDGED_PROTOCOL_PROMPT;
}

// Written with the kit's defineFold, as a team's fold would be: validation, the editor schema and
// the payload reference come from the zod schemas (schema.ts, reference.ts).
export const contextProtocol = defineFold({
  id: 'context-protocol',
  title: 'Context protocol',
  description: 'An append-only agent stream folded into a standing document of keyed sections plus a timeline (the reference platform’s fold).',
  defaults: { metadataLines: 'synthesized-only', supersedingSections: 'timeline' } as ContextProtocolOptions,
  requestTypes: ['agent/llm-request-requested'],
  payloads: SCHEMAS,
  authored: AUTHORED,
  notes: NOTES,
  options: OPTIONS_SCHEMA,
  checkEvent: payloadRules,
  abridgements: (options: ContextProtocolOptions) => [
    {
      text: protocolPrompt(options.metadataLines, options.supersedingSections),
      standIn: abridged(options),
    },
  ],
  expand,
  derive,
  describe,
  snapshots(events: readonly StreamEvent[], options: ContextProtocolOptions, at: ReadonlySet<number>): Snapshot[] {
    return reduceAndRender(events, at, new State(), new Renderer(options));
  },
  rules: RULES,
});
