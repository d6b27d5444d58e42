/**
 * The incremental snapshot loop every fold shares: reduce the events once, in order, and after
 * each event whose offset was asked for, render the state — as the request sent (an accepted
 * request event, with the cache breakpoints the fold marks on it, when it marks any), the reason
 * it was not sent (a rejected one), or the state as of that event.
 */
import type { Breakpoint, RenderedMessage, Snapshot, StreamEvent } from './types.ts';

/** What reducing one event says about it: undefined unless the event is a request. */
export type Outcome = { accepted: boolean; reason?: string } | undefined;

export function collectSnapshots(
  events: readonly StreamEvent[],
  at: ReadonlySet<number>,
  apply: (e: StreamEvent) => Outcome,
  render: () => RenderedMessage[],
  /** Optional: the breakpoints of the request just rendered (called after `render`, for sends only). */
  breakpoints?: () => Breakpoint[],
): Snapshot[] {
  const out: Snapshot[] = [];
  for (const e of events) {
    const outcome = apply(e);
    if (!at.has(e.offset)) continue;
    const snap: Snapshot = { offset: e.offset, messages: render() };
    if (outcome?.accepted) {
      snap.request = { model: (e.payload as { model: string }).model };
      const marks = breakpoints?.();
      if (marks?.length) snap.breakpoints = marks;
    } else if (outcome) snap.rejected = { reason: outcome.reason ?? 'not accepted' };
    out.push(snap);
  }
  return out;
}
