/**
 * The trailing slot (spec invariants "precedence modes", "reminder duplication", "empty system
 * fold and empty slot omitted"): join-all, highest-precedence (with remainingDelta always
 * appended), consolidated, and the steering reminder placed BEFORE the slot (the mandate is the
 * final message).
 */
import { describe, expect, it } from 'vitest';
import { add, brief, render, send } from '../../../tests/support/layered.ts';

const ESCALATION = ['recoveryTicket', 'retryFeedback', 'groundingFeedback', 'rejectionFeedback', 'remainingDelta'];

/** A recovery stage on a retry with an unmet delta (audit recommendation 2's example), re-roled to USER. */
const stacked = [
  add(1, 'L1', 'USER', 'agentPrompt', 'task'),
  add(2, 'L1', 'USER', 'remainingDelta', 'Remaining: test'),
  add(3, 'L1', 'USER', 'retryFeedback', 'Retry: read before write'),
  add(4, 'L1', 'USER', 'recoveryTicket', 'Recovery: rebase the patch'),
  send(5),
];

describe('layered trailing slot', () => {
  it('invariant (precedence mode join-all): every mandate, transcript order, one `## <sourceType>` header each', () => {
    expect(brief(render(stacked, { repairMandateSourceTypes: ESCALATION, trailingSlot: 'join-all' }))).toEqual([
      'user: task',
      'user: ## remainingDelta\nRemaining: test\n\n## retryFeedback\nRetry: read before write\n\n## recoveryTicket\nRecovery: rebase the patch',
    ]);
  });

  it('invariant (precedence mode highest-precedence): the single highest-ranked mandate, plus remainingDelta appended', () => {
    expect(brief(render(stacked, { repairMandateSourceTypes: ESCALATION, trailingSlot: 'highest-precedence' }))).toEqual([
      'user: task',
      'user: ## recoveryTicket\nRecovery: rebase the patch\n\n## remainingDelta\nRemaining: test',
    ]);
  });

  it('highest-precedence: remainingDelta alone is emitted once; among equal ranks the newest wins; a custom order is obeyed', () => {
    const opts = { repairMandateSourceTypes: ESCALATION, trailingSlot: 'highest-precedence' as const };
    expect(brief(render([add(1, 'L1', 'USER', 'remainingDelta', 'delta'), send(2)], opts))).toEqual(['user: ## remainingDelta\ndelta']);
    expect(brief(render([add(1, 'L1', 'USER', 'retryFeedback', 'old retry'), add(2, 'L1', 'USER', 'retryFeedback', 'new retry'), send(3)], opts))).toEqual([
      'user: ## retryFeedback\nnew retry',
    ]);
    const reordered = { ...opts, precedence: ['retryFeedback', 'recoveryTicket', 'groundingFeedback', 'rejectionFeedback', 'remainingDelta'] };
    expect(brief(render(stacked, reordered)).at(-1)).toBe('user: ## retryFeedback\nRetry: read before write\n\n## remainingDelta\nRemaining: test');
  });

  it('invariant (precedence mode consolidated): one block under a single `## Repair mandates` header, in precedence order', () => {
    expect(brief(render(stacked, { repairMandateSourceTypes: ESCALATION, trailingSlot: 'consolidated' }))).toEqual([
      'user: task',
      'user: ## Repair mandates\nRecovery: rebase the patch\n\nRetry: read before write\n\nRemaining: test',
    ]);
  });

  it('invariant: reminder duplication — a system-folded steeringNote is also a trailing `## Reminder` user turn, before the slot', () => {
    const messages = render([
      add(1, 'L0', 'SYSTEM', 'steeringNote', 'Stay inside pkg/tasks.'),
      add(2, 'L1', 'USER', 'agentPrompt', 'task'),
      add(3, 'L1', 'USER', 'retryFeedback', 'retry'),
      add(4, 'L2', 'USER', 'steeringNote', 'unlocked note: inline only'),
      send(5),
    ]);
    expect(brief(messages)).toEqual([
      'system: Stay inside pkg/tasks.',
      'user: task',
      'user: unlocked note: inline only',
      'user: ## Reminder\nStay inside pkg/tasks.',
      'user: ## retryFeedback\nretry',
    ]);
  });

  it('invariant: the mandate is the final message, role user — under every slot mode, with reminders present', () => {
    const events = [...stacked.slice(0, -1), add(6, 'L0', 'SYSTEM', 'steeringNote', 'note A'), add(7, 'L0', 'SYSTEM', 'steeringNote', 'note B'), send(9)];
    for (const trailingSlot of ['join-all', 'highest-precedence', 'consolidated'] as const) {
      const messages = render(events, { repairMandateSourceTypes: ESCALATION, trailingSlot });
      const last = messages.at(-1)!;
      expect(last.role).toBe('user');
      expect(last.content).toMatch(/^## (recoveryTicket|remainingDelta|Repair mandates)\n/);
      expect(messages.at(-2)!.content).toBe('## Reminder\nnote A\n\n## Reminder\nnote B');
    }
    // No mandate pending: the reminder is then the final message.
    expect(brief(render([add(1, 'L0', 'SYSTEM', 'steeringNote', 'note A'), add(2, 'L1', 'USER', 'agentPrompt', 'task'), send(3)])).at(-1)).toBe('user: ## Reminder\nnote A');
  });

  it('invariant: an empty system fold and an empty slot are omitted', () => {
    expect(brief(render([add(1, 'L1', 'USER', 'agentPrompt', 'task'), add(2, 'L2', 'ASSISTANT', 'assistantToolCall', 'call'), send(3)]))).toEqual([
      'user: task',
      'assistant: call',
    ]);
    // No mandate present, under every slot mode: still no slot message.
    for (const trailingSlot of ['join-all', 'highest-precedence', 'consolidated'] as const) {
      expect(render([add(1, 'L0', 'SYSTEM', 'systemPrompt', 'sys'), send(2)], { trailingSlot }).map((m) => m.role)).toEqual(['system']);
    }
  });
});
