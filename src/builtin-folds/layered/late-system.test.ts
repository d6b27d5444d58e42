/**
 * The `lateSystem` option: with `mid-conversation`, a system entry that arrives after
 * the first send is sent as a `system` message at its place in the transcript — the messages
 * before it stay byte for byte what the previous request sent — and the steering reminder goes out
 * as a trailing `system` message. With the default (`leading-system`, today) the same entry
 * rewrites the leading system message, so the previous request's prefix ends at message 0.
 */
import { describe, expect, it } from 'vitest';
import { add, brief, send, snapshotsOf } from '../../../tests/support/layered.ts';

const stream = [
  add(1, 'L0', 'SYSTEM', 'systemPrompt', 'You are a build agent.'),
  add(2, 'L1', 'USER', 'agentPrompt', 'Fix the failing test.'),
  send(3),
  add(4, 'L2', 'ASSISTANT', 'assistantMessage', 'Looking at the test.'),
  add(5, 'L1', 'SYSTEM', 'clarificationAnswer', 'The test runs on Go 1.23.'),
  add(6, 'L1', 'SYSTEM', 'steeringNote', 'Do not touch vendor/.'),
  send(7),
];

const requests = (lateSystem: 'leading-system' | 'mid-conversation') =>
  snapshotsOf(stream, { lateSystem }, [3, 7]).map((s) => ({ messages: s.messages, breakpoints: s.breakpoints }));

describe('lateSystem', () => {
  it('leading-system (default): a late system entry rewrites the leading system message', () => {
    const [first, second] = requests('leading-system');
    expect(brief(second!.messages)).toEqual([
      'system: You are a build agent.\n\nThe test runs on Go 1.23.\n\nDo not touch vendor/.',
      'user: Fix the failing test.',
      'assistant: Looking at the test.',
      'user: ## Reminder\nDo not touch vendor/.',
    ]);
    expect(second!.messages[0]!.content).not.toBe(first!.messages[0]!.content);
  });

  it('mid-conversation: appended at its place as system messages; the previous request is a byte-stable prefix', () => {
    const [first, second] = requests('mid-conversation');
    expect(brief(second!.messages)).toEqual([
      'system: You are a build agent.',
      'user: Fix the failing test.',
      'assistant: Looking at the test.',
      'system: The test runs on Go 1.23.',
      'system: Do not touch vendor/.',
      'system: ## Reminder\nDo not touch vendor/.',
    ]);
    // Every message of the first request is the same object in the second: a byte-stable prefix.
    for (const [i, m] of first!.messages.entries()) expect(second!.messages[i]).toBe(m);
    // Breakpoints: the leading system message and the last transcript message, never the trailing reminder.
    expect(second!.breakpoints).toEqual([{ message: 0 }, { message: 4 }]);
    expect(second!.messages[3]!.parts[0]!.from).toEqual([5]);
  });

  it('mid-conversation: a sent system entry is never rewritten — each later update is appended where it happened', () => {
    const events = [
      add(1, 'L0', 'SYSTEM', 'systemPrompt', 'You are a build agent.'),
      add(2, 'L1', 'SYSTEM', 'remainingDelta', 'Missing: a.go, b.go'),
      add(3, 'L1', 'USER', 'agentPrompt', 'Land the delta.'),
      send(4),
      add(5, 'L2', 'ASSISTANT', 'assistantToolCall', 'patch a.go'),
      add(6, 'L2', 'TOOL', 'toolResult', 'ok'),
      { offset: 7, type: 'entry/updated', createdAt: '2026-08-24T16:41:00.000Z', payload: { ordinal: 2, content: 'Missing: b.go' } },
      send(8),
      add(9, 'L2', 'ASSISTANT', 'assistantToolCall', 'patch b.go'),
      add(10, 'L2', 'TOOL', 'toolResult', 'ok'),
      { offset: 11, type: 'entry/updated', createdAt: '2026-08-24T16:41:00.000Z', payload: { ordinal: 2, content: 'Missing: nothing' } },
      send(12),
    ];
    const [a, b, c] = snapshotsOf(events, { lateSystem: 'mid-conversation' }, [4, 8, 12]).map((s) => s.messages);
    expect(brief(c!)).toEqual([
      'system: You are a build agent.\n\nMissing: a.go, b.go',
      'user: Land the delta.',
      'assistant: patch a.go',
      'tool: ok',
      'system: Missing: b.go',
      'assistant: patch b.go',
      'tool: ok',
      'system: Missing: nothing',
    ]);
    for (const [i, m] of a!.entries()) expect(b![i]).toBe(m);
    for (const [i, m] of b!.entries()) expect(c![i]).toBe(m);
    // The appended update's text came from the update event.
    expect(c![4]!.parts[0]!.from).toEqual([7]);
    // Today's placement rewrites the first message instead.
    const today = snapshotsOf(events, {}, [12])[0]!.messages;
    expect(today[0]!.content).toBe('You are a build agent.\n\nMissing: nothing');
  });

  it('lastBreakpoint: final-message puts it on the trailing reminder (the trap); breakpointTtl asks for a retention', () => {
    const trap = snapshotsOf(stream, { lateSystem: 'mid-conversation', lastBreakpoint: 'final-message', breakpointTtl: '1h' }, [7])[0]!;
    expect(trap.breakpoints).toEqual([
      { message: 0, ttl: '1h' },
      { message: 5, ttl: '1h' },
    ]);
    expect(trap.messages[5]!.content).toBe('## Reminder\nDo not touch vendor/.');
  });

  it('entries before the first send are folded as today, whatever the option', () => {
    const before = [add(1, 'L0', 'SYSTEM', 'systemPrompt', 'A.'), add(2, 'L1', 'SYSTEM', 'clarificationAnswer', 'B.'), add(3, 'L1', 'USER', 'agentPrompt', 'Go.'), send(4)];
    expect(brief(snapshotsOf(before, { lateSystem: 'mid-conversation' }, [4])[0]!.messages)).toEqual(['system: A.\n\nB.', 'user: Go.']);
  });
});
