/**
 * Placement invariants of the `layered` fold (spec "Invariants to test"): layer-before-ordinal in
 * the system fold, ordinal-only transcript, the all-zero layer tie-break, the stable tie-break,
 * mandate extraction — checked through the fold's rendered messages.
 */
import { describe, expect, it } from 'vitest';
import { add, brief, render, send } from '../../../tests/support/layered.ts';

describe('layered placement', () => {
  it('invariant: the system fold orders by layer before ordinal', () => {
    const messages = render([
      add(1, 'L1', 'SYSTEM', 'remainingDelta', 'delta (L1, ordinal 1)'),
      add(2, 'L2', 'SYSTEM', 'rejectionFeedback', 'rejection (L2, ordinal 2)'),
      add(3, 'L0', 'SYSTEM', 'systemPrompt', 'prompt (L0, ordinal 3)'),
      add(4, 'L0', 'USER', 'clarificationAnswer', 'answer (L0 USER, ordinal 4) — role is irrelevant at L0'),
      send(5),
    ]);
    expect(brief(messages)).toEqual([
      'system: prompt (L0, ordinal 3)\n\nanswer (L0 USER, ordinal 4) — role is irrelevant at L0\n\ndelta (L1, ordinal 1)\n\nrejection (L2, ordinal 2)',
    ]);
  });

  it('invariant: the inline transcript orders by ordinal only (layer is no tie-break when ordinals differ)', () => {
    const messages = render([
      add(1, 'L3', 'USER', 'repoMap', 'repo map (L3, ordinal 1)'),
      add(2, 'L1', 'USER', 'agentPrompt', 'task (L1, ordinal 5)', 5),
      add(3, 'L2', 'ASSISTANT', 'assistantToolCall', 'call (L2, ordinal 3)'),
      add(4, 'L2', 'TOOL', 'toolResult', 'result (L2, ordinal 4)'),
      send(6),
    ]);
    expect(brief(messages)).toEqual(['user: repo map (L3, ordinal 1)', 'assistant: call (L2, ordinal 3)', 'tool: result (L2, ordinal 4)', 'user: task (L1, ordinal 5)']);
  });

  it('invariant: when every ordinal is 0 (router chat), layer is the tie-break', () => {
    const messages = render([
      add(1, 'L3', 'USER', 'repoMap', 'L3 first added', 0),
      add(2, 'L2', 'ASSISTANT', 'assistantToolCall', 'L2', 0),
      add(3, 'L1', 'USER', 'agentPrompt', 'L1 last added', 0),
      send(4),
    ]);
    expect(brief(messages)).toEqual(['user: L1 last added', 'assistant: L2', 'user: L3 first added']);
  });

  it('invariant: stable tie-break — equal ordinals (not all 0) keep add order, whatever the layer', () => {
    const messages = render([
      add(1, 'L1', 'USER', 'agentPrompt', 'task', 0),
      add(2, 'L3', 'USER', 'repoMap', 'map A', 7),
      add(3, 'L1', 'USER', 'criticFeedback', 'critic B', 7),
      add(4, 'L2', 'TOOL', 'toolResult', 'tool C', 7),
      add(5, 'L0', 'SYSTEM', 'systemPrompt', 'sys X', 2),
      add(6, 'L0', 'SYSTEM', 'operatingGuidance', 'sys Y', 2),
      send(9),
    ]);
    expect(brief(messages)).toEqual(['system: sys X\n\nsys Y', 'user: task', 'user: map A', 'user: critic B', 'tool: tool C']);
  });

  it('invariant: mandate extraction — repair-mandate entries leave the inline flow for one final user message', () => {
    const messages = render(
      [
        add(1, 'L0', 'SYSTEM', 'systemPrompt', 'sys'),
        add(2, 'L1', 'USER', 'agentPrompt', 'task'),
        add(3, 'L1', 'USER', 'retryFeedback', 'retry: read the file first'),
        add(4, 'L2', 'ASSISTANT', 'assistantToolCall', 'call'),
        add(5, 'L1', 'USER', 'groundingFeedback', 'emit a corrected plan'),
        send(6),
      ],
      { repairMandateSourceTypes: ['retryFeedback', 'groundingFeedback'] },
    );
    expect(brief(messages)).toEqual([
      'system: sys',
      'user: task',
      'assistant: call',
      'user: ## retryFeedback\nretry: read the file first\n\n## groundingFeedback\nemit a corrected plan',
    ]);
  });

  it('a mandate-typed entry that is system-folded stays in the system fold (rule 1 wins over the slot)', () => {
    const messages = render([add(1, 'L1', 'SYSTEM', 'recoveryTicket', 'ticket'), add(2, 'L1', 'USER', 'agentPrompt', 'task'), send(3)], {
      repairMandateSourceTypes: ['retryFeedback', 'recoveryTicket'],
    });
    expect(brief(messages)).toEqual(['system: ticket', 'user: task']);
  });

  it('ordinal defaults to the event offset; an explicit ordinal places an entry anywhere', () => {
    const messages = render([
      add(10, 'L1', 'USER', 'agentPrompt', 'task @10'),
      add(20, 'L2', 'ASSISTANT', 'assistantToolCall', 'call @20'),
      add(30, 'L1', 'USER', 'criticFeedback', 'critic, ordinal 15', 15),
      send(40),
    ]);
    expect(brief(messages)).toEqual(['user: task @10', 'user: critic, ordinal 15', 'assistant: call @20']);
  });
});
