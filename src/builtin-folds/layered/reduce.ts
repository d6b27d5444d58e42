/**
 * The `layered` reducer: folds events one at a time into the live context entries (what the
 * orchestrator's ContextEntry list holds at that moment). Placement is not decided here — that is
 * place.ts — so the same state renders under any option set.
 *
 * - `entry/added` adds an entry; its ordinal defaults to the event offset. Duplicate ordinals are
 *   allowed (router chat gives every entry ordinal 0).
 * - `entry/updated` replaces the content of the newest live entry with that ordinal; the entry
 *   keeps its place (layer, role, sourceType, ordinal). No live entry with that ordinal: a no-op.
 * - `entry/removed` removes the newest live entry with that ordinal; none: a no-op.
 * - `request` is a send: accepted when there is something to send, rejected with a reason when no
 *   entry is live.
 *
 * Entries are immutable values (an update puts a NEW entry in place), so a renderer may cache per
 * entry. `version` changes on every change to the live set, so a renderer may cache per state.
 */
import type { Outcome } from '../../folds/snapshots.ts';
import type { StreamEvent } from '../../folds/types.ts';
import type { EntryAddedPayload, EntryRemovedPayload, EntryRole, EntryUpdatedPayload, Layer } from './schema.ts';
import { REQUEST_TYPE } from './schema.ts';

export interface Entry {
  /** Offset of the `entry/added` event: its identity and the stable tie-break. */
  offset: number;
  ordinal: number;
  layer: Layer;
  role: EntryRole;
  sourceType: string;
  content: string;
  /** Offset of the newest `entry/updated` that rewrote the content, when there was one. */
  updatedAt?: number;
  /** On an update record (State.updates): the add offset of the entry it updated. */
  updates?: number;
}

export class State {
  /** Live entries by their add offset; Map iteration order is add order (an update keeps its slot). */
  readonly entries = new Map<number, Entry>();
  /** Bumped on every change to the live entries. */
  version = 0;
  /** Offset of the first accepted request (entries added after it arrived mid-conversation). */
  firstSend: number | undefined;
  /** Each entry as the first accepted request that carried it sent it, by add offset. */
  readonly sent = new Map<number, Entry>();
  /**
   * Every update of an entry that had been sent, as a record of its own (offset and ordinal = the
   * update's offset, `updates` = the entry's add offset): what a renderer that never rewrites sent
   * text appends instead (the `lateSystem: mid-conversation` option).
   */
  readonly updates: Entry[] = [];
  /** Live entries per ordinal, oldest first — the last one is what updated/removed target. */
  private readonly byOrdinal = new Map<number, Entry[]>();

  /** Apply one validated event. Returns, for a request event, whether it was accepted and why not. */
  apply(e: StreamEvent): Outcome {
    switch (e.type) {
      case 'entry/added':
        this.add(e.offset, e.payload as EntryAddedPayload);
        return;
      case 'entry/updated':
        this.update(e.offset, e.payload as EntryUpdatedPayload);
        return;
      case 'entry/removed':
        this.remove(e.payload as EntryRemovedPayload);
        return;
      case REQUEST_TYPE:
        if (this.entries.size === 0) {
          return {
            accepted: false,
            reason: 'nothing to send: no context entry is live at this point — add an `entry/added` event before the request (or do not remove every entry)',
          };
        }
        this.firstSend ??= e.offset;
        for (const [at, entry] of this.entries) if (!this.sent.has(at)) this.sent.set(at, entry);
        return { accepted: true, model: (e.payload as { model: string }).model };
      default:
        return;
    }
  }

  private add(offset: number, p: EntryAddedPayload): void {
    const entry: Entry = { offset, ordinal: p.ordinal ?? offset, layer: p.layer, role: p.role, sourceType: p.sourceType, content: p.content };
    this.entries.set(offset, entry);
    const list = this.byOrdinal.get(entry.ordinal);
    if (list) list.push(entry);
    else this.byOrdinal.set(entry.ordinal, [entry]);
    this.version++;
  }

  private update(offset: number, p: EntryUpdatedPayload): void {
    const list = this.byOrdinal.get(p.ordinal);
    const prev = list?.at(-1);
    if (!list || !prev) return; // no live entry has this ordinal (yet, or any more): nothing to update
    const next: Entry = { ...prev, content: p.content, updatedAt: offset };
    list[list.length - 1] = next;
    this.entries.set(prev.offset, next);
    if (this.sent.has(prev.offset)) this.updates.push({ ...prev, offset, ordinal: offset, content: p.content, updatedAt: undefined, updates: prev.offset });
    this.version++;
  }

  private remove(p: EntryRemovedPayload): void {
    const list = this.byOrdinal.get(p.ordinal);
    const prev = list?.pop();
    if (!list || !prev) return; // no live entry has this ordinal: nothing to remove
    if (list.length === 0) this.byOrdinal.delete(p.ordinal);
    this.entries.delete(prev.offset);
    this.sent.delete(prev.offset);
    this.version++;
  }
}
