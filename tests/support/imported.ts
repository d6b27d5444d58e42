/**
 * An imported scenario's events with every body whole: a request the import wrote as `extends:`
 * (what it adds to the previous one) gets the body the `requests` fold rebuilds from it, through the
 * same code (src/providers/body-delta.ts) — so tests of what an import captured read the bodies as
 * sent, whichever way they are stored.
 */
import { applyDelta, type BodyDelta } from '../../src/providers/body-delta.ts';

type Payload = { format: string; body?: Record<string, unknown>; extends?: BodyDelta };

export function withBodies<E extends { payload: unknown }>(events: E[]): E[] {
  let prev: { format: string; body: Record<string, unknown> } | undefined;
  return events.map((e) => {
    const p = e.payload as Payload;
    if (!p.extends) {
      prev = p.body ? { format: p.format, body: p.body } : undefined;
      return e;
    }
    const { extends: delta, ...rest } = p;
    const r = applyDelta(p.format, prev, delta, { prev: 'the previous request' });
    if ('issue' in r) throw new Error(`an imported delta does not apply: ${r.issue.message}`);
    prev = { format: p.format, body: r.body };
    return { ...e, payload: { ...rest, body: r.body } };
  });
}
