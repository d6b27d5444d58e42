/**
 * Where one event's entry goes, for a badge on its event card and for the placement table page:
 * the leading system fold, the inline transcript or the trailing user slot (plus the steering
 * reminder a system-folded `steeringNote` also gets). Pure and browser-safe: the same rules as
 * place.ts, asked about one entry instead of a whole state.
 *
 * - `placementOf(event, options)` answers for an `entry/added` event (its payload carries the
 *   layer, role and sourceType); any other event type gets undefined.
 * - `placementsOf(events, options)` answers for every entry event of a stream, resolving an
 *   `entry/updated` or `entry/removed` to the entry it targets (the newest live entry with that
 *   ordinal, as the reducer does); one that targets no live entry is left out.
 *
 * A mandate in the trailing slot may still be left out of a given request under
 * `trailingSlot: highest-precedence` (slot.ts); the badge names the destination, not that choice.
 */
import type { StreamEvent } from '../../folds/types.ts';
import type { LayeredOptions } from './options.ts';
import { isSystemFolded, STEERING_NOTE } from './place.ts';
import type { EntryAddedPayload, EntryRemovedPayload, EntryRole, EntryUpdatedPayload, Layer } from './schema.ts';

export type Destination = 'system' | 'inline' | 'slot' | 'mid';

export interface EntryPlacement {
  destination: Destination;
  /** A system-folded steeringNote: also re-emitted as the trailing `## Reminder` turn. */
  reminder: boolean;
  /** The badge text: "system fold", "inline", "trailing slot" or "system fold + reminder". */
  label: string;
}

export const DESTINATION_LABEL: Record<Destination, string> = { system: 'system fold', inline: 'inline', slot: 'trailing slot', mid: 'mid-conversation system' };

/**
 * Placement of an entry with this layer, role and sourceType under these options. `late`: the entry
 * (or the update asked about) arrives after the first send — under `lateSystem: mid-conversation`
 * a system entry then goes out as a mid-conversation system message.
 */
export function placeEntry(
  entry: { layer: Layer; role: EntryRole; sourceType: string },
  options: Pick<LayeredOptions, 'repairMandateSourceTypes'> & Partial<Pick<LayeredOptions, 'lateSystem'>>,
  late = false,
): EntryPlacement {
  const system = isSystemFolded(entry);
  const mid = system && late && options.lateSystem === 'mid-conversation';
  const destination: Destination = mid ? 'mid' : system ? 'system' : options.repairMandateSourceTypes.includes(entry.sourceType) ? 'slot' : 'inline';
  const reminder = system && entry.sourceType === STEERING_NOTE;
  return { destination, reminder, label: `${DESTINATION_LABEL[destination]}${reminder ? ' + reminder' : ''}` };
}

/** The placement of an `entry/added` event's entry; undefined for any other event. */
export function placementOf(
  event: StreamEvent,
  options: Pick<LayeredOptions, 'repairMandateSourceTypes'> & Partial<Pick<LayeredOptions, 'lateSystem'>>,
): EntryPlacement | undefined {
  if (event.type !== 'entry/added') return undefined;
  return placeEntry(event.payload as EntryAddedPayload, options);
}

/** The placement of every entry event (added, updated, removed) by its offset. */
export function placementsOf(
  events: readonly StreamEvent[],
  options: Pick<LayeredOptions, 'repairMandateSourceTypes'> & Partial<Pick<LayeredOptions, 'lateSystem'>>,
): Map<number, EntryPlacement> {
  const out = new Map<number, EntryPlacement>();
  const live = new Map<number, EntryAddedPayload[]>(); // per ordinal, oldest first
  let sent = false; // a request went out with something live (the reducer accepts it)
  for (const e of events) {
    if (e.type === 'request' && live.size) sent = true;
    if (e.type === 'entry/added') {
      const p = e.payload as EntryAddedPayload;
      const ordinal = p.ordinal ?? e.offset;
      live.set(ordinal, [...(live.get(ordinal) ?? []), p]);
      out.set(e.offset, placeEntry(p, options, sent));
    } else if (e.type === 'entry/updated' || e.type === 'entry/removed') {
      const { ordinal } = e.payload as EntryUpdatedPayload | EntryRemovedPayload;
      const list = live.get(ordinal);
      const target = list?.at(-1);
      if (!list || !target) continue;
      out.set(e.offset, placeEntry(target, options, sent && e.type === 'entry/updated'));
      if (e.type === 'entry/removed') {
        list.pop();
        if (!list.length) live.delete(ordinal);
      }
    }
  }
  return out;
}
