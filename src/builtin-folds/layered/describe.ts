/**
 * How the layered fold's events read on their timeline cards: an entry's text (or a request's
 * model) as the preview; its role, layer and sourceType as badges; and where the entry renders
 * under the scenario's options — `→ system fold`, `→ inline`, `→ trailing slot` — the audit's
 * placement question, answered per card (placement.ts).
 */
import type { EventDescription, StreamEvent } from '../../folds/types.ts';
import type { LayeredOptions } from './options.ts';
import { placementsOf } from './placement.ts';

export function describe(events: readonly StreamEvent[], options: LayeredOptions): EventDescription[] {
  const placements = placementsOf(events, options);
  return events.map((e) => {
    const p = (e.payload ?? {}) as Record<string, unknown>;
    const badges = [p.role, p.layer, p.sourceType].filter((v): v is string => typeof v === 'string');
    const placed = placements.get(e.offset);
    if (placed) badges.push(`→ ${placed.label}`);
    const text = typeof p.content === 'string' ? p.content : typeof p.model === 'string' ? p.model : undefined;
    return { badges, ...(text !== undefined && { preview: text }) };
  });
}
