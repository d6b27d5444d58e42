/**
 * A scenario's events as written → its stream events, through the fold's optional hooks: `expand`
 * (a fold's batch syntax: one written event standing for several) and `derive` (fields the author
 * may omit). Then the stream's own rules, which hold for every fold: offsets strictly increase and
 * time never runs backwards. Errors point into the written event (a batch item's own fields at
 * that item).
 */
import { derivePayload, expandEvent } from '../folds/hooks.ts';
import type { AnyFold, Expansion } from '../folds/types.ts';
import { located, type InputError, type SourcePos } from './errors.ts';
import { batchEndProblem } from './limits.ts';
import type { ScenarioEvent } from './model.ts';
import type { WrittenEvent } from './parse.ts';

/** How a batch is named in messages: `@3–@5 (batch)`. */
export const batchLabel = (e: ScenarioEvent): string => (e.batch ? `@${e.batch.first}–@${e.batch.first + e.batch.size - 1} (batch)` : `@${e.offset}`);

/** Expands every written event with `fold`'s hooks (none given: each event as written). */
export async function expandEvents(written: WrittenEvent[], fold: AnyFold | undefined, errors: InputError[]): Promise<WrittenEvent[]> {
  const out: WrittenEvent[] = [];
  for (const w of written) {
    const authored = { offset: w.offset, type: w.type, createdAt: w.createdAt, elapsedMs: w.elapsedMs, payload: w.payload as Record<string, unknown> };
    const x: Expansion | undefined = fold
      ? await located(expandEvent(fold, authored), errors, w.typePos, `expanding @${w.offset} ${w.type}`)
      : { events: [{ payload: authored.payload }] };
    if (!x) continue;
    if (x.issues?.length) {
      for (const i of x.issues) errors.push({ pos: w.locate(i.path), message: `@${w.offset} ${w.type}: ${i.message}`, fix: i.fix });
      continue;
    }
    const size = x.events.length;
    const tooFar = batchEndProblem(w.offset, size);
    if (tooFar) {
      errors.push({ pos: w.offPos, message: `@${w.offset} ${w.type}: ${tooFar}`, fix: 'start the batch at a smaller offset' });
      continue;
    }
    for (const [index, item] of x.events.entries()) {
      const offset = w.offset + index;
      const payload = fold
        ? await located(derivePayload(fold, { ...authored, offset, payload: item.payload }), errors, w.typePos, `deriving the fields of @${offset} ${w.type}`)
        : item.payload;
      if (!payload) continue;
      const own = new Set(item.ownFields ?? []);
      const locate = (path: (string | number)[]): SourcePos => (item.at && own.has(String(path[0])) ? w.locate([...item.at, ...path]) : w.locate(path));
      out.push({ ...w, offset, payload, locate, ...(x.batch && { batch: { first: w.offset, size, index, ownFields: [...own] } }) });
    }
  }
  for (let i = 1; i < out.length; i++) {
    const prev = out[i - 1]!,
      e = out[i]!;
    if (e.batch && e.batch.index > 0) continue; // inside one batch offsets and times are right by construction
    for (const err of [checkOrder(prev, e), checkTime(prev, e)]) if (err) errors.push(err);
  }
  return out;
}

/** How the event an offset must follow is named in ordering errors (a batch: its last offset). */
function previousEvent(prev: ScenarioEvent, baseId: string | undefined): string {
  const span = prev.batch ? `@${prev.batch.first}–@${prev.offset}` : '';
  if (baseId === undefined) return prev.batch ? `@${prev.offset}, the last offset of the previous event's batch (${span})` : `@${prev.offset}, the previous event`;
  return prev.batch ? `@${prev.offset}, the last offset of base \`${baseId}\` (its final batch takes ${span})` : `@${prev.offset}, the last event of base \`${baseId}\``;
}

/** Offsets strictly increase: `e` must come after `prev` (the event before it, or a base's last event). */
export function checkOrder(prev: ScenarioEvent, e: ScenarioEvent, baseId?: string): InputError | undefined {
  if (e.offset > prev.offset) return undefined;
  return {
    pos: e.offPos,
    message: `offset @${e.offset} is not after ${previousEvent(prev, baseId)}`,
    fix:
      baseId === undefined
        ? `give this event an offset greater than ${prev.offset} — offsets strictly increase (a batch takes one offset per item)`
        : `start this scenario's offsets above ${prev.offset} — offsets strictly increase across the base chain`,
  };
}

/** Time never runs backwards: a stream stamps createdAt as it appends. */
export function checkTime(prev: ScenarioEvent, e: ScenarioEvent, baseId?: string): InputError | undefined {
  if (e.elapsedMs >= prev.elapsedMs) return undefined;
  const where = baseId === undefined ? 'the previous event' : `the last event of base \`${baseId}\``;
  return {
    pos: e.tPos,
    message: `time ${JSON.stringify(e.t)} is before ${JSON.stringify(prev.t)} of @${prev.offset} (${where}) — createdAt would run backwards`,
    fix: `give this event a time of ${prev.t} or later: events are appended in time order`,
  };
}
