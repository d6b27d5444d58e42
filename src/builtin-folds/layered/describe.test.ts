/**
 * The layered fold's cards: role, layer and sourceType badges, and the entry's placement under the
 * scenario's options (the audit's question, per card) — including updates and removals, which are
 * placed where the entry they target renders.
 */
import { describe as suite, expect, it } from 'vitest';
import type { StreamEvent } from '../../folds/types.ts';
import { describe } from './describe.ts';
import { DEFAULT_OPTIONS } from './options.ts';

const ev = (offset: number, type: string, payload: Record<string, unknown>): StreamEvent => ({ offset, type, createdAt: '2026-01-01T00:00:00.000Z', payload });

suite('layered card descriptions', () => {
  const events = [
    ev(1, 'entry/added', { layer: 'L0', role: 'SYSTEM', sourceType: 'schemaInstruction', content: 'Answer in JSON.' }),
    ev(2, 'entry/added', { layer: 'L3', role: 'USER', sourceType: 'retryFeedback', content: 'Fix the failing test.' }),
    ev(3, 'entry/updated', { ordinal: 2, content: 'Fix the failing tests.' }),
    ev(4, 'request', { model: 'anthropic/claude-sonnet-5' }),
  ];

  it('badges an entry with where it renders', () => {
    const d = describe(events, DEFAULT_OPTIONS);
    expect(d[0]!.badges).toEqual(['SYSTEM', 'L0', 'schemaInstruction', '→ system fold']);
    expect(d[1]!.badges!.at(-1)).toMatch(/^→ /);
    expect(d[3]).toEqual({ badges: [], preview: 'anthropic/claude-sonnet-5' });
  });

  it('places an update where its entry renders', () => {
    const d = describe(events, DEFAULT_OPTIONS);
    expect(d[2]!.badges!.at(-1)).toBe(d[1]!.badges!.at(-1));
    expect(d[2]!.preview).toBe('Fix the failing tests.');
  });
});
