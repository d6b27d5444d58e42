/**
 * How the layered fold's events read on their timeline cards: an entry's text (or a request's
 * model) as the preview, and its role, layer and sourceType as badges.
 */
import type { EventDescription, StreamEvent } from '../types.ts';

export function describe(events: readonly StreamEvent[]): EventDescription[] {
  return events.map((e) => {
    const p = (e.payload ?? {}) as Record<string, unknown>;
    const badges = [p.role, p.layer, p.sourceType].filter((v): v is string => typeof v === 'string');
    const text = typeof p.content === 'string' ? p.content : typeof p.model === 'string' ? p.model : undefined;
    return { badges, ...(text !== undefined && { preview: text }) };
  });
}
