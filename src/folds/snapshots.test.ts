/**
 * The shared snapshot loop takes the model of a request from the fold's outcome, so a fold whose
 * request payload names it otherwise (here `engine`) gets the model it says — the loop reads no
 * payload field itself; a rejected request carries its reason, other events the state alone.
 */
import { describe, expect, it } from 'vitest';
import { collectSnapshots, reduceAndRender, type Outcome } from './snapshots.ts';
import type { StreamEvent } from './types.ts';

const events: StreamEvent[] = [
  { offset: 1, type: 'note', createdAt: '2026-01-01T00:00:00Z', payload: { text: 'hi' } },
  { offset: 2, type: 'send', createdAt: '2026-01-01T00:00:01Z', payload: { engine: 'model-a' } },
  { offset: 3, type: 'send', createdAt: '2026-01-01T00:00:02Z', payload: {} },
];

class Notes {
  texts: string[] = [];
  apply(e: StreamEvent): Outcome {
    const p = e.payload as { text?: string; engine?: string };
    if (e.type === 'note') this.texts.push(p.text!);
    if (e.type !== 'send') return undefined;
    return p.engine ? { accepted: true, model: p.engine } : { accepted: false, reason: 'no engine' };
  }
}

describe('collectSnapshots', () => {
  it('takes the model from the outcome, the reason of a rejection, and the state for other events', () => {
    const state = new Notes();
    const snaps = collectSnapshots(
      events,
      new Set([1, 2, 3]),
      (e) => state.apply(e),
      () => state.texts.map((t) => ({ role: 'user', content: t, parts: [] })),
      () => [{ message: 0 }],
    );
    expect(snaps).toEqual([
      { offset: 1, messages: [{ role: 'user', content: 'hi', parts: [] }] },
      { offset: 2, messages: [{ role: 'user', content: 'hi', parts: [] }], request: { model: 'model-a' }, breakpoints: [{ message: 0 }] },
      { offset: 3, messages: [{ role: 'user', content: 'hi', parts: [] }], rejected: { reason: 'no engine' } },
    ]);
  });

  it('reduceAndRender is the same loop over a reducer and its renderer, snapshotting only the offsets asked for', () => {
    const renderer = { render: (s: Notes) => s.texts.map((t) => ({ role: 'user', content: t, parts: [] })) };
    expect(reduceAndRender(events, new Set([2]), new Notes(), renderer)).toEqual([
      { offset: 2, messages: [{ role: 'user', content: 'hi', parts: [] }], request: { model: 'model-a' } },
    ]);
  });
});
