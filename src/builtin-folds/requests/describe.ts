/**
 * How a captured request reads on its timeline card: the model and the newest message it carries
 * as the preview; its wire format, how many messages it sends and how many of them it sends for the
 * first time as badges — a re-sent transcript and a turn that rewrote history look different at a
 * glance.
 */
import type { EventDescription, StreamEvent } from '../../folds/types.ts';
import { normalise } from './normalise.ts';
import type { SentPayload } from './schema.ts';
import { modelOf } from '../../providers/registry.ts';

export function describe(events: readonly StreamEvent[]): EventDescription[] {
  const seen = new Set<string>();
  return events.map((e) => {
    const p = e.payload as SentPayload;
    const messages = normalise(p.format, p.body);
    let fresh = 0;
    for (const m of messages) {
      const key = `${m.role}\u0000${m.text}`;
      if (!seen.has(key)) fresh++;
      seen.add(key);
    }
    const last = messages.at(-1);
    return {
      preview: `${modelOf(p.format, p.body)}${last ? ` — ${last.role}: ${last.text}` : ''}`,
      badges: [p.format, `${messages.length} message${messages.length === 1 ? '' : 's'}`, `${fresh} new`],
    };
  });
}
