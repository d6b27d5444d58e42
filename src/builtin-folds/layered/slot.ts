/**
 * The trailing slot's selection (spec "Options" → `trailingSlot`, audit recommendation 2, the
 * scarcity invariant): given the mandate candidates in transcript order, which entries the final
 * user message carries, in what order, and under which framing.
 *
 * - `join-all` (today): every candidate, transcript order, each under its own `## <sourceType>`.
 * - `highest-precedence`: the single highest-ranked candidate (among several of the same
 *   sourceType, the newest in transcript order), plus the newest `remainingDelta` candidate
 *   appended when the winner is something else — "the completion signal, not a competing mandate".
 *   Candidates not emitted are dropped from the request (they do not fall back inline).
 * - `consolidated`: every candidate ordered by rank (ties: transcript order), as one block under a
 *   single `## Repair mandates` header.
 */
import type { LayeredOptions } from './options.ts';
import type { Entry } from './reduce.ts';

/** Appended unconditionally under `highest-precedence` (audit: it is the completion signal). */
export const ALWAYS_APPENDED = 'remainingDelta';
/** The one header of a `consolidated` slot. */
export const CONSOLIDATED_HEADER = '## Repair mandates';

export interface SlotSelection {
  /** Entries the slot emits, in emission order ([] = no slot message). */
  entries: Entry[];
  /** true: one `## <sourceType>` header per entry; false: one CONSOLIDATED_HEADER for the block. */
  perEntryHeaders: boolean;
}

export function selectSlot(candidates: Entry[], options: Pick<LayeredOptions, 'trailingSlot' | 'precedence'>): SlotSelection {
  if (candidates.length === 0) return { entries: [], perEntryHeaders: true };
  const rank = (e: Entry): number => {
    const r = options.precedence.indexOf(e.sourceType);
    return r < 0 ? options.precedence.length : r; // validation ranks every mandate; unranked sorts last
  };
  switch (options.trailingSlot) {
    case 'join-all':
      return { entries: candidates, perEntryHeaders: true };
    case 'highest-precedence': {
      let winner = candidates[0]!;
      for (const c of candidates) if (rank(c) <= rank(winner)) winner = c; // `<=`: the newest of equal rank wins
      const entries = [winner];
      if (winner.sourceType !== ALWAYS_APPENDED) {
        const delta = candidates.findLast((c) => c.sourceType === ALWAYS_APPENDED);
        if (delta) entries.push(delta);
      }
      return { entries, perEntryHeaders: true };
    }
    case 'consolidated': {
      const order = new Map(candidates.map((c, i) => [c, i]));
      return { entries: [...candidates].sort((a, b) => rank(a) - rank(b) || order.get(a)! - order.get(b)!), perEntryHeaders: false };
    }
  }
}
