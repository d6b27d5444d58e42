/**
 * Placement (spec "Placement — three destinations, not four"): which live entry goes where, and in
 * what order. Pure: entries in, destinations out; no text is produced here (that is render.ts).
 *
 * 1. Leading system fold — `layer == L0` or `role == SYSTEM`, ordered by (layer, ordinal), then by
 *    add offset (stable tie-break).
 * 2. Inline transcript — every other entry, ordered by ordinal; when every one of them has ordinal
 *    0 (router chat) layer is the tie-break; otherwise, and after that, the add offset.
 * 3. Trailing user slot — inline entries whose sourceType is a repair mandate, pulled out of the
 *    transcript (in transcript order; slot.ts picks what the slot emits). A mandate-typed entry
 *    that is system-folded stays in the system fold: rule 1 wins.
 * 4. Steering reminder — system-folded `steeringNote` entries, re-emitted as a trailing user turn
 *    placed BEFORE the slot (the mandate is the final message).
 * With the `lateSystem: mid-conversation` option, a system-folded entry added after the first send
 * is a transcript entry (a `system` message at its ordinal), and a steering note among them is
 * still re-emitted as the reminder.
 */
import type { Entry } from './reduce.ts';
import type { Layer } from './schema.ts';

export const STEERING_NOTE = 'steeringNote';

export interface Placement {
  system: Entry[];
  inline: Entry[];
  /** Mandate candidates in transcript order (before slot.ts selects). */
  mandates: Entry[];
  reminders: Entry[];
}

const LAYER_RANK: Record<Layer, number> = { L0: 0, L1: 1, L2: 2, L3: 3 };

export const isSystemFolded = (e: Pick<Entry, 'layer' | 'role'>): boolean => e.layer === 'L0' || e.role === 'SYSTEM';

const bySystemOrder = (a: Entry, b: Entry): number => LAYER_RANK[a.layer] - LAYER_RANK[b.layer] || a.ordinal - b.ordinal || a.offset - b.offset;

/** Transcript order of the given (non-system) entries. */
export function transcriptOrder(entries: Entry[]): Entry[] {
  const allZero = entries.every((e) => e.ordinal === 0);
  return [...entries].sort((a, b) => a.ordinal - b.ordinal || (allZero ? LAYER_RANK[a.layer] - LAYER_RANK[b.layer] : 0) || a.offset - b.offset);
}

/**
 * `midConversationAfter`: with the `mid-conversation` option, the offset of the first send — a
 * system-folded entry added after it goes inline, in transcript order, as a `system` message
 * (never into the slot: it is a system entry), instead of into the leading system fold.
 */
export function place(entries: Iterable<Entry>, repairMandateSourceTypes: readonly string[], midConversationAfter?: number): Placement {
  const system: Entry[] = [];
  const rest: Entry[] = [];
  const late = (e: Entry): boolean => midConversationAfter !== undefined && e.offset > midConversationAfter;
  for (const e of entries) (isSystemFolded(e) && !late(e) ? system : rest).push(e);
  system.sort(bySystemOrder);
  const mandateTypes = new Set(repairMandateSourceTypes);
  const inline: Entry[] = [];
  const mandates: Entry[] = [];
  for (const e of transcriptOrder(rest)) (mandateTypes.has(e.sourceType) && !isSystemFolded(e) ? mandates : inline).push(e);
  const reminders = [...system, ...inline.filter(isSystemFolded)].filter((e) => e.sourceType === STEERING_NOTE);
  return { system, inline, mandates, reminders };
}
