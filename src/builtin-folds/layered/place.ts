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

/** What the `lateSystem: mid-conversation` option places from (reduce.ts State). */
export interface MidConversation {
  /** Offset of the first send: a system entry added after it is a mid-conversation message. */
  after: number;
  /** Each entry as first sent: a system entry keeps that text where it was sent. */
  sent: ReadonlyMap<number, Entry>;
  /** Updates of sent entries: a system entry's update is appended as a message of its own. */
  updates: readonly Entry[];
}

/**
 * With `mid` (the `mid-conversation` option): a system-folded entry added after the first send goes
 * inline, in transcript order, as a `system` message (never into the slot: it is a system entry);
 * a sent system entry keeps its sent text where it was sent, and each later update of it is
 * appended as a `system` message at the update's place — nothing sent is rewritten.
 */
export function place(entries: Iterable<Entry>, repairMandateSourceTypes: readonly string[], mid?: MidConversation): Placement {
  const system: Entry[] = [];
  const rest: Entry[] = [];
  const late = (e: Entry): boolean => mid !== undefined && e.offset > mid.after;
  const live = new Set<number>();
  const steering: Entry[] = [];
  for (const current of entries) {
    live.add(current.offset);
    if (isSystemFolded(current) && current.sourceType === STEERING_NOTE) steering.push(current);
    const e = mid && isSystemFolded(current) ? (mid.sent.get(current.offset) ?? current) : current;
    (isSystemFolded(e) && !late(e) ? system : rest).push(e);
  }
  if (mid) for (const u of mid.updates) if (isSystemFolded(u) && live.has(u.updates!)) rest.push(u);
  system.sort(bySystemOrder);
  const mandateTypes = new Set(repairMandateSourceTypes);
  const inline: Entry[] = [];
  const mandates: Entry[] = [];
  for (const e of transcriptOrder(rest)) (mandateTypes.has(e.sourceType) && !isSystemFolded(e) ? mandates : inline).push(e);
  // The reminder re-emits each live steering note as it reads now, in system order.
  return { system, inline, mandates, reminders: steering.sort(bySystemOrder) };
}
