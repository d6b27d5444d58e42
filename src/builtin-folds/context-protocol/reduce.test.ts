/**
 * Request bookkeeping of the context-protocol reducer (src/pages/reference/context-protocol.mdx): which items trigger a request,
 * which trigger wins the pending slot, failed settlements retrying up to the limit, and assistant
 * items that answer a request other than the open one. Observed both through snapshots (accepted
 * or rejected requests) and, for the trigger kind, through the State directly.
 */
import { describe, expect, it } from 'vitest';
import { State } from './reduce.ts';
import type { ContextPayload } from './schema.ts';
import { snap, stamp, Stream, timeline } from '../../../tests/support/context-protocol.ts';

/** Does a request right after this one item get accepted? */
function triggers(payload: ContextPayload): boolean {
  const s = new Stream();
  s.ctx(payload);
  s.request();
  return snap(s).request !== undefined;
}

describe('triggers', () => {
  it('system and assistant items never trigger, keyed or not', () => {
    expect(triggers({ role: 'system', content: 'x' })).toBe(false);
    expect(triggers({ role: 'system', content: 'x', key: 'k' })).toBe(false);
    expect(triggers({ role: 'system', content: 'x', llmRequestPolicy: 'interrupt-current-request' })).toBe(false);
    expect(triggers({ role: 'assistant', content: 'x' })).toBe(false);
    expect(triggers({ role: 'assistant', content: 'x', llmRequestPolicy: 'interrupt-current-request' })).toBe(false);
  });

  it('`dont-trigger-request` never triggers, whatever the role', () => {
    for (const role of ['user', 'developer'] as const) {
      expect(triggers({ role, content: 'x', llmRequestPolicy: 'dont-trigger-request' })).toBe(false);
      expect(triggers({ role, content: 'x', key: 'k', llmRequestPolicy: 'dont-trigger-request' })).toBe(false);
    }
    expect(triggers({ role: 'developer', content: 'x', actor: { type: 'slack' }, llmRequestPolicy: 'dont-trigger-request' })).toBe(false);
  });

  it('user and developer items trigger under the other policies (keyed items too)', () => {
    for (const role of ['user', 'developer'] as const) {
      expect(triggers({ role, content: 'x' })).toBe(true);
      expect(triggers({ role, content: 'x', llmRequestPolicy: 'after-current-request' })).toBe(true);
      expect(triggers({ role, content: 'x', llmRequestPolicy: 'interrupt-current-request' })).toBe(true);
      expect(triggers({ role, content: 'x', key: 'k' })).toBe(true);
    }
  });

  it('a compaction summary never triggers', () => {
    const s = new Stream();
    s.user('hi');
    s.exchange('hello');
    s.compact('summary', s.last);
    s.request();
    expect(snap(s).rejected?.reason).toMatch(/no trigger is pending/);
  });

  it('the trigger kind: agent-loop for a developer item with no actor, agent or script; external otherwise', () => {
    const kindAfter = (p: ContextPayload): string | undefined => {
      const state = new State();
      state.apply({ offset: 7, type: 'agents/context-added', createdAt: '2026-08-24T16:41:00.000Z', payload: p });
      return state.pendingTrigger?.kind;
    };
    expect(kindAfter({ role: 'developer', content: 'x' })).toBe('agent-loop');
    expect(kindAfter({ role: 'developer', content: 'x', actor: { type: 'agent', path: '/a' } })).toBe('agent-loop');
    expect(kindAfter({ role: 'developer', content: 'x', actor: { type: 'script', executionId: 'e' } })).toBe('agent-loop');
    for (const actor of [
      { type: 'slack' },
      { type: 'telegram' },
      { type: 'email' },
      { type: 'github' },
      { type: 'integration', name: 'n' },
      { type: 'user', origin: 'web' },
    ] as const) {
      expect(kindAfter({ role: 'developer', content: 'x', actor })).toBe('external');
    }
    expect(kindAfter({ role: 'user', content: 'x' })).toBe('external');
    expect(kindAfter({ role: 'user', content: 'x', actor: { type: 'agent', path: '/a' } })).toBe('external');
    expect(kindAfter({ role: 'system', content: 'x' })).toBeUndefined();
  });

  it('the newest trigger wins the one pending slot (triggers do not queue)', () => {
    const state = new State();
    const add = (offset: number, payload: ContextPayload): void => void state.apply({ offset, type: 'agents/context-added', createdAt: '2026-08-24T16:41:00.000Z', payload });
    add(1, { role: 'user', content: 'a' });
    add(2, { role: 'developer', content: 'b' });
    expect(state.pendingTrigger).toEqual({ offset: 2, kind: 'agent-loop' });
    add(3, { role: 'developer', content: 'c', actor: { type: 'github', login: 'octo' } });
    expect(state.pendingTrigger).toEqual({ offset: 3, kind: 'external' });
    add(4, { role: 'system', content: 'd' }); // not a trigger: the slot keeps @3
    add(5, { role: 'user', content: 'e', llmRequestPolicy: 'dont-trigger-request' });
    expect(state.pendingTrigger).toEqual({ offset: 3, kind: 'external' });

    // observable through snapshots: three triggers, one accepted request, the next one rejected
    const s = new Stream();
    s.user('one');
    s.user('two');
    s.dev('three');
    const r = s.request();
    s.settle(r);
    s.request();
    expect(snap(s, r).request).toBeDefined();
    expect(snap(s).rejected?.reason).toMatch(/no trigger is pending/);
  });
});

describe('settlements', () => {
  it('a failed settlement retries (agent-loop trigger) up to 3 attempts in all', () => {
    const s = new Stream();
    s.user('hi');
    const attempts: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = s.request();
      if (snap(s).request) {
        attempts.push(r);
        s.settle(r, 'failed');
      }
    }
    expect(attempts).toHaveLength(3);
    expect(snap(s).rejected?.reason).toMatch(/no trigger is pending/);
    // every attempt left its own stamp in the timeline
    expect(timeline(snap(s))).toEqual([['user', 'hi'], ...attempts.map(stamp)]);
  });

  it('the retry trigger is the settlement, of kind agent-loop', () => {
    const state = new State();
    const at = '2026-08-24T16:41:00.000Z';
    state.apply({ offset: 1, type: 'agents/context-added', createdAt: at, payload: { role: 'user', content: 'hi' } });
    expect(state.apply({ offset: 2, type: 'agent/llm-request-requested', createdAt: at, payload: { model: 'm' } })).toEqual({ accepted: true, model: 'm' });
    state.apply({ offset: 3, type: 'agent/llm-request-settled', createdAt: at, payload: { requestOffset: 2, result: { status: 'failed' } } });
    expect(state.openRequest).toBeNull();
    expect(state.pendingTrigger).toEqual({ offset: 3, kind: 'agent-loop' });
  });

  it('succeeded and cancelled settlements do not retry', () => {
    for (const status of ['succeeded', 'cancelled'] as const) {
      const s = new Stream();
      s.user('hi');
      s.settle(s.request(), status);
      s.request();
      expect(snap(s).rejected?.reason).toMatch(/no trigger is pending/);
    }
  });

  it('a success resets the attempt count', () => {
    const s = new Stream();
    s.user('hi');
    s.settle(s.request(), 'failed');
    s.settle(s.request(), 'failed');
    s.settle(s.request(), 'succeeded'); // third attempt succeeded
    s.user('again');
    s.settle(s.request(), 'failed'); // attempt 1 of the new turn
    s.settle(s.request(), 'failed'); // attempt 2
    const r = s.request(); // attempt 3 is still allowed
    expect(snap(s, r).request).toBeDefined();
  });

  it('a settlement naming another request is ignored: the open request stays open', () => {
    const s = new Stream();
    s.user('hi');
    const r = s.request();
    s.settle(r + 100, 'failed');
    s.user('more');
    s.request();
    expect(snap(s).rejected?.reason).toMatch(new RegExp(`request @${r} is still open`));
  });
});

describe('assistant items', () => {
  it('an assistant item answering a request other than the open one reduces to nothing', () => {
    const s = new Stream();
    s.user('hi');
    const r1 = s.request();
    const kept = s.assistant('answer to the open request', r1);
    s.settle(r1);
    s.assistant('late answer to a settled request', r1);
    s.user('next');
    const r2 = s.request();
    s.assistant('answer to a request that never existed', r2 + 50);
    s.assistant('answer to an old request while another is open', r1);
    const sn = snap(s);
    expect(timeline(sn)).toEqual([['user', 'hi'], stamp(r1), ['assistant', 'answer to the open request'], ['user', 'next'], stamp(r2)]);
    expect(sn.messages.find((m) => m.content === 'answer to the open request')!.parts[0]!.from).toEqual([kept]);
  });

  it('an assistant item with no llmRequestOffset is kept (as in the agentsmd reference scenario)', () => {
    const s = new Stream();
    s.assistant('(…nine more exchanges, elided…)');
    expect(timeline(snap(s))).toEqual([['assistant', '(…nine more exchanges, elided…)']]);
  });

  it('an assistant item answering nothing (no open request) with an offset is dropped', () => {
    const s = new Stream();
    s.assistant('stray', 3);
    expect(timeline(snap(s))).toEqual([]);
  });
});

describe('other events', () => {
  it('events that do not render leave the request unchanged', () => {
    const s = new Stream();
    s.section('a', 'A');
    s.user('hi');
    const before = snap(s);
    s.add('agent/created', { anything: true });
    s.add('agent/configured', { config: { llmRequestDebounceMs: 250 } });
    s.add('capability-host/script-run-requested', { executionId: 'e', code: 'return 1' });
    s.add('capability-host/script-run-settled', { executionId: 'e', settlement: { status: 'succeeded', result: 1 } });
    s.add('agent/token-usage-reported', { input: 3 });
    s.add('agent/summary-updated', { title: 't' });
    expect(snap(s).messages).toEqual(before.messages);
  });

  it('agent/configured patches are deep-merged into the config', () => {
    const state = new State();
    const at = '2026-08-24T16:41:00.000Z';
    state.apply({ offset: 1, type: 'agent/configured', createdAt: at, payload: { config: { a: { x: 1, y: 2 }, list: [1, 2], keep: true } } });
    state.apply({ offset: 2, type: 'agent/configured', createdAt: at, payload: { config: { a: { y: 3 }, list: [9] } } });
    expect(state.config).toEqual({ a: { x: 1, y: 3 }, list: [9], keep: true });
  });
});
