/**
 * The `layered` fold — a second built-in fold, modelling the layer/role prompt renderer that the
 * context-role audit describes (its reference page: src/pages/reference/layered.mdx). This file wires the pieces into
 * the Fold interface: schemas (schema.ts) and options (options.ts) → reducer (reduce.ts) →
 * placement (place.ts, slot.ts) → renderer (render.ts).
 */
import type { Snapshot, StreamEvent } from '../../folds/types.ts';
import { defineFold } from '../../folds/define.ts';
import { reduceAndRender } from '../../folds/snapshots.ts';
import { DEFAULT_OPTIONS, OPTIONS_SCHEMA, optionRelations, type LayeredOptions } from './options.ts';
import { describe } from './describe.ts';
import { Renderer } from './render.ts';
import { payloadRules, REQUEST_TYPE, SCHEMAS } from './schema.ts';
import { State } from './reduce.ts';
import { NOTES, RULES } from './reference.ts';

export type { LayeredOptions } from './options.ts';
/** For an event card's placement badge (system fold / inline / trailing slot): see placement.ts. */
export { placementOf, placementsOf, type EntryPlacement } from './placement.ts';

// Written with the kit's defineFold: validation, the editor schema and the payload reference come
// from the zod schemas (schema.ts, options.ts) and the notes (reference.ts).
export const layered = defineFold({
  id: 'layered',
  title: 'Layered context entries',
  description:
    'Context entries with a layer (L0–L3) and a role, folded into a leading system message, an inline transcript and a trailing user slot for repair mandates (the orchestrator renderer of the context-role audit on the fold’s reference page).',
  defaults: DEFAULT_OPTIONS,
  requestTypes: [REQUEST_TYPE],
  payloads: SCHEMAS,
  notes: NOTES,
  options: OPTIONS_SCHEMA,
  checkOptions: optionRelations,
  checkEvent: payloadRules,
  describe,
  snapshots(events: readonly StreamEvent[], options: LayeredOptions, at: ReadonlySet<number>): Snapshot[] {
    return reduceAndRender(events, at, new State(), new Renderer(options));
  },
  rules: RULES,
});
