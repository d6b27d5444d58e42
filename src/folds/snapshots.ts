/**
 * The incremental snapshot loop every fold shares: reduce the events once, in order, and after
 * each event whose offset was asked for, render the state — as the request sent (an accepted
 * request event, with the cache breakpoints the fold marks on it, when it marks any), the reason
 * it was not sent (a rejected one), or the state as of that event. The model a request asks for is
 * the fold's to say (its outcome carries it), so a fold's payload may name it as it likes.
 * `reduceAndRender` is the same loop wired as the built-in folds write it: a reducer state that
 * applies events and a renderer of that state.
 */
import type { Breakpoint, RenderedMessage, Snapshot, StreamEvent } from './types.ts';

/** What reducing one event says about it: undefined unless the event is a request; an accepted request names the model it asks for. */
export type Outcome = { accepted: true; model: string } | { accepted: false; reason?: string } | undefined;

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
      snap.request = { model: outcome.model };
      const marks = breakpoints?.();
      if (marks?.length) snap.breakpoints = marks;
    } else if (outcome) snap.rejected = { reason: outcome.reason ?? 'not accepted' };
    out.push(snap);
  }
  return out;
}

/** A fold's reducer state: applies one validated event at a time. */
export interface Reducer {
  apply(e: StreamEvent): Outcome;
}

/** Renders a reducer's state as the request's messages (and, optionally, the breakpoints of the request just rendered). */
export interface StateRenderer<S> {
  render(state: S): RenderedMessage[];
  breakpoints?(): Breakpoint[];
}

/** collectSnapshots over a fresh reducer state and its renderer: the built-in folds' `snapshots`. */
export function reduceAndRender<S extends Reducer>(events: readonly StreamEvent[], at: ReadonlySet<number>, state: S, renderer: StateRenderer<S>): Snapshot[] {
  return collectSnapshots(
    events,
    at,
    (e) => state.apply(e),
    () => renderer.render(state),
    renderer.breakpoints && (() => renderer.breakpoints!()),
  );
}
