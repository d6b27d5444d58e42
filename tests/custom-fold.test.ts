/**
 * Bring your own fold: the example fold (examples/folds/chat-log.ts — the very file the docs show)
 * as a module — its validation and its snapshots. The fold registered in a project, end to end
 * (an unknown fold's error, `npm run fixtures`, a stale anchor failing the build, its page built),
 * is in tests/build.test.ts, on the copy whose builds the build gate's tests make anyway.
 */
import { describe, expect, it } from 'vitest';
import chatLog from '../examples/folds/chat-log.ts';

describe('the example fold itself', () => {
  const ev = (offset: number, type: string, payload: unknown) => ({ offset, type, createdAt: '2026-08-24T16:41:00.000Z', payload });

  it('validates payloads and options strictly, with a fix', async () => {
    expect(chatLog.validateEvent('message', { role: 'user', text: 'hi' })).toEqual([]);
    expect(chatLog.validateEvent('message', { role: 'robot', text: 'hi', mood: 1 }).map((i) => i.path)).toEqual([['role'], ['mood']]);
    // Derived from its zod schemas (defineFold): the kit's messages name the field and the fix.
    expect(chatLog.validateEvent('send', { model: ' ' })).toEqual([{ path: ['model'], message: '`model` must not be empty', fix: 'give it a value' }]);
    expect(chatLog.validateEvent('send', 'openai/gpt-5')[0]!.path).toEqual([]);
    expect(await chatLog.validateOptions({ ...chatLog.defaults, systemPrompt: 'x' })).toEqual([]);
    expect((await chatLog.validateOptions({ systemPrompt: 'x', sytemPrompt: 'y' } as never)).map((i) => i.message)).toEqual([
      'unknown field `sytemPrompt` — did you mean `systemPrompt`?',
    ]);
  });

  it('sends every message so far, with provenance, sharing unchanged message objects', async () => {
    const events = [
      ev(1, 'send', { model: 'm' }),
      ev(2, 'message', { role: 'user', text: 'a' }),
      ev(3, 'send', { model: 'm' }),
      ev(4, 'message', { role: 'assistant', text: 'b' }),
      ev(5, 'send', { model: 'm' }),
    ];
    const snaps = await chatLog.snapshots(events, { systemPrompt: 'S' }, new Set([1, 3, 4, 5]));
    expect(snaps.map((s) => s.offset)).toEqual([1, 3, 4, 5]);
    expect(snaps[0]!.request).toEqual({ model: 'm' }); // the system prompt alone is something to send
    expect(snaps[2]!.request).toBeUndefined();
    expect(snaps[3]!.messages.map((m) => [m.role, m.content, m.parts.flatMap((p) => p.from)])).toEqual([
      ['system', 'S', []],
      ['user', 'a', [2]],
      ['assistant', 'b', [4]],
    ]);
    expect(snaps[3]!.messages[1]).toBe(snaps[1]!.messages[1]);
    const bare = await chatLog.snapshots(events, chatLog.defaults, new Set([1]));
    expect(bare[0]).toEqual({ offset: 1, messages: [], rejected: { reason: 'nothing to send yet: add a `message` event before this `send`' } });
  });
});
