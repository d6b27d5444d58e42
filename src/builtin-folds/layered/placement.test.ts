/**
 * placementOf / placementsOf (the card badge and the placement table): the same destinations as
 * the renderer, updated/removed events resolved to the entry they target (the audit's inventory,
 * a page of this site, is checked against these rules beside it: src/pages/reference/).
 */
import { describe, expect, it } from 'vitest';
import { RECOMMENDED_OPTIONS } from '../../pages/reference/_layered-audit.ts';
import { DEFAULT_OPTIONS } from './options.ts';
import { placementOf, placementsOf } from './placement.ts';
import { add, brief, ev, remove, render, send, update } from '../../../tests/support/layered.ts';

describe('placementOf', () => {
  it('names the destination of an entry/added event, and the reminder of a system-folded steeringNote', () => {
    const opts = { repairMandateSourceTypes: ['retryFeedback'] };
    expect(placementOf(add(1, 'L0', 'USER', 'clarificationAnswer', 'a'), opts)).toEqual({ destination: 'system', reminder: false, label: 'system fold' });
    expect(placementOf(add(1, 'L1', 'SYSTEM', 'recoveryTicket', 't'), opts)?.label).toBe('system fold');
    expect(placementOf(add(1, 'L1', 'USER', 'retryFeedback', 'r'), opts)?.label).toBe('trailing slot');
    expect(placementOf(add(1, 'L1', 'USER', 'recoveryTicket', 't'), opts)?.label).toBe('inline');
    expect(placementOf(add(1, 'L0', 'SYSTEM', 'steeringNote', 's'), opts)).toEqual({ destination: 'system', reminder: true, label: 'system fold + reminder' });
    expect(placementOf(add(1, 'L2', 'USER', 'steeringNote', 's'), opts)?.label).toBe('inline');
    expect(placementOf(send(2), opts)).toBeUndefined();
    expect(placementOf(ev(3, 'entry/updated', { ordinal: 1, content: 'x' }), opts)).toBeUndefined();
  });

  it('agrees with the renderer: each entry sits in the message its badge names', () => {
    const events = [
      add(1, 'L0', 'SYSTEM', 'systemPrompt', 'SYS'),
      add(2, 'L1', 'USER', 'agentPrompt', 'TASK'),
      add(3, 'L1', 'SYSTEM', 'remainingDelta', 'DELTA'),
      add(4, 'L1', 'USER', 'retryFeedback', 'RETRY'),
      add(5, 'L1', 'USER', 'criticFeedback', 'CRITIC'),
      send(6),
    ];
    const messages = render(events, RECOMMENDED_OPTIONS);
    const where = (text: string): string => {
      const i = messages.findIndex((m) => m.content.includes(text));
      return i === 0 && messages[0]!.role === 'system' ? 'system' : i === messages.length - 1 && messages[i]!.content.startsWith('## ') ? 'slot' : 'inline';
    };
    for (const e of events.slice(0, -1)) {
      const text = (e.payload as { content: string }).content;
      expect(placementOf(e, RECOMMENDED_OPTIONS)!.destination, text).toBe(where(text));
    }
    expect(brief(messages).at(-1)).toBe('user: ## retryFeedback\nRETRY');
  });
});

describe('placementsOf', () => {
  it('resolves updates and removals to the newest live entry with that ordinal; a miss is left out', () => {
    const events = [
      add(1, 'L1', 'SYSTEM', 'remainingDelta', 'v1'),
      add(2, 'L1', 'USER', 'agentPrompt', 'task', 9),
      add(3, 'L1', 'USER', 'retryFeedback', 'retry', 9),
      update(4, 1, 'v2'),
      update(5, 9, 'retry v2'),
      remove(6, 9),
      update(7, 9, 'task v2'),
      remove(8, 42),
    ];
    const got = placementsOf(events, DEFAULT_OPTIONS);
    expect([...got].map(([o, p]) => `@${o} ${p.label}`)).toEqual([
      '@1 system fold',
      '@2 inline',
      '@3 trailing slot',
      '@4 system fold',
      '@5 trailing slot',
      '@6 trailing slot',
      '@7 inline',
    ]);
  });
});
