/**
 * The `layered` fold end to end through `snapshots`: provenance (parts join to content, `from`
 * names the entry events), entry/updated keeps its place, entry/removed, unknown ordinals are
 * no-ops, requests (accepted, rejected when nothing is live), one reduce pass with a snapshot per
 * asked offset, and unchanged messages reused across snapshots.
 */
import { describe, expect, it } from 'vitest';
import type { RenderedMessage } from '../../folds/types.ts';
import { add, brief, remove, render, send, snapshotsOf, update } from '../../../tests/support/layered.ts';

const partsJoin = (m: RenderedMessage): boolean => m.parts.map((p) => p.text).join('') === m.content;

describe('layered fold', () => {
  it('provenance: parts join to content; each part names its entry, separators and the consolidated header are the fold’s', () => {
    const events = [
      add(1, 'L0', 'SYSTEM', 'systemPrompt', 'sys'),
      add(2, 'L1', 'SYSTEM', 'remainingDelta', 'delta v1'),
      add(3, 'L0', 'SYSTEM', 'steeringNote', 'steer'),
      add(4, 'L1', 'USER', 'agentPrompt', 'task'),
      add(5, 'L1', 'USER', 'retryFeedback', 'retry'),
      add(6, 'L1', 'USER', 'recoveryTicket', 'ticket'),
      update(7, 2, 'delta v2'),
      send(8),
    ];
    const messages = render(events, { repairMandateSourceTypes: ['retryFeedback', 'recoveryTicket'] });
    for (const m of messages) expect(partsJoin(m)).toBe(true);
    expect(messages[0]!.parts).toEqual([
      { text: 'sys', from: [1] },
      { text: '\n\n', from: [] },
      { text: 'steer', from: [3] },
      { text: '\n\n', from: [] },
      { text: 'delta v2', from: [2, 7] },
    ]);
    expect(messages[1]!.parts).toEqual([{ text: 'task', from: [4] }]);
    expect(messages[2]!.parts).toEqual([{ text: '## Reminder\nsteer', from: [3] }]);
    expect(messages[3]!.parts).toEqual([
      { text: '## retryFeedback\nretry', from: [5] },
      { text: '\n\n', from: [] },
      { text: '## recoveryTicket\nticket', from: [6] },
    ]);
    const consolidated = render(events, { repairMandateSourceTypes: ['retryFeedback', 'recoveryTicket'], trailingSlot: 'consolidated' });
    expect(consolidated[3]!.parts).toEqual([
      { text: '## Repair mandates\n', from: [] },
      { text: 'ticket', from: [6] },
      { text: '\n\n', from: [] },
      { text: 'retry', from: [5] },
    ]);
    expect(partsJoin(consolidated[3]!)).toBe(true);
  });

  it('entry/updated rewrites the content in place — the entry keeps its layer, role and ordinal', () => {
    const messages = render([
      add(1, 'L1', 'USER', 'agentPrompt', 'task'),
      add(2, 'L1', 'USER', 'criticFeedback', 'critic v1'),
      add(3, 'L2', 'ASSISTANT', 'assistantToolCall', 'call'),
      update(4, 2, 'critic v2'),
      add(5, 'L1', 'SYSTEM', 'remainingDelta', 'delta v1'),
      add(6, 'L0', 'SYSTEM', 'systemPrompt', 'sys'),
      update(7, 5, 'delta v2'),
      send(8),
    ]);
    expect(brief(messages)).toEqual(['system: sys\n\ndelta v2', 'user: task', 'user: critic v2', 'assistant: call']);
  });

  it('entry/removed drops the entry; with duplicate ordinals, updated/removed target the newest live one', () => {
    const events = [
      add(1, 'L1', 'USER', 'agentPrompt', 'task'),
      add(2, 'L1', 'USER', 'groundingFeedback', 'emit a corrected plan'),
      add(3, 'L2', 'ASSISTANT', 'assistantToolCall', 'first', 9),
      add(4, 'L2', 'ASSISTANT', 'assistantToolCall', 'second', 9),
      remove(5, 2),
      update(6, 9, 'second, rewritten'),
      send(7),
      remove(8, 9),
      send(10),
    ];
    const [at7, at10] = snapshotsOf(events, {}, [7, 10]);
    expect(brief(at7!.messages)).toEqual(['user: task', 'assistant: first', 'assistant: second, rewritten']);
    expect(brief(at10!.messages)).toEqual(['user: task', 'assistant: first']);
  });

  it('entry/updated and entry/removed naming an ordinal no live entry has are no-ops', () => {
    const events = [
      add(1, 'L1', 'USER', 'agentPrompt', 'task'),
      update(2, 99, 'nobody'),
      remove(3, 42),
      remove(4, 1),
      remove(5, 1),
      update(6, 1, 'gone'),
      add(7, 'L1', 'USER', 'agentPrompt', 'again'),
      send(8),
    ];
    const snaps = snapshotsOf(events);
    expect(brief(snaps[1]!.messages)).toEqual(['user: task']);
    expect(snaps[2]!.messages).toBe(snaps[1]!.messages); // nothing changed: the same render
    expect(brief(snaps.at(-1)!.messages)).toEqual(['user: again']);
  });

  it('a request is a send with its model; a request with nothing live is rejected with a reason', () => {
    const snaps = snapshotsOf([send(1), add(2, 'L1', 'USER', 'agentPrompt', 'task'), send(3, 'anthropic/claude-x'), remove(4, 2), send(5)]);
    expect(snaps[0]).toMatchObject({ offset: 1, messages: [], rejected: { reason: expect.stringContaining('nothing to send') } });
    expect(snaps[0]!.request).toBeUndefined();
    expect(snaps[1]!.request).toBeUndefined();
    expect(snaps[1]!.rejected).toBeUndefined();
    expect(snaps[2]).toMatchObject({ offset: 3, request: { model: 'anthropic/claude-x' } });
    expect(snaps[4]!.rejected?.reason).toMatch(/add an `entry\/added` event before the request/);
  });

  it('snapshots: one per asked offset, in event order; unchanged messages are the same objects', () => {
    const events = [
      add(1, 'L0', 'SYSTEM', 'systemPrompt', 'sys'),
      add(2, 'L1', 'USER', 'agentPrompt', 'task'),
      send(3),
      add(4, 'L2', 'ASSISTANT', 'assistantToolCall', 'call'),
      send(5),
    ];
    const snaps = snapshotsOf(events, {}, [5, 3]);
    expect(snaps.map((s) => s.offset)).toEqual([3, 5]);
    expect(snaps[1]!.messages[0]).toBe(snaps[0]!.messages[0]); // system fold untouched
    expect(snaps[1]!.messages[1]).toBe(snaps[0]!.messages[1]); // inline entry cached
  });

  it('a mutated system-folded entry rewrites the FIRST message; moved to the trailing slot, the prefix is stable', () => {
    const turn = (role: 'SYSTEM' | 'USER') => [
      add(1, 'L0', 'SYSTEM', 'systemPrompt', 'sys'),
      add(2, 'L1', 'USER', 'agentPrompt', 'task'),
      add(3, 'L1', role, 'remainingDelta', 'Remaining: 2'),
      send(4),
      add(5, 'L2', 'ASSISTANT', 'assistantToolCall', 'call'),
      update(6, 3, 'Remaining: 1'),
      send(7),
    ];
    const [b4, b7] = snapshotsOf(turn('SYSTEM'), {}, [4, 7]);
    expect(b7!.messages[0]!.content).not.toBe(b4!.messages[0]!.content);
    const [a4, a7] = snapshotsOf(turn('USER'), { repairMandateSourceTypes: ['retryFeedback', 'remainingDelta'] }, [4, 7]);
    expect(brief(a7!.messages).slice(0, 2)).toEqual(brief(a4!.messages).slice(0, 2));
    expect(brief(a7!.messages).at(-1)).toBe('user: ## remainingDelta\nRemaining: 1');
  });
});
