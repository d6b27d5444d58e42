/**
 * The `layered` fold's cache breakpoints and tool turns: one breakpoint at the end of the system
 * message, one on the last transcript entry BEFORE the trailing reminder and mandate slot (each
 * left out when its destination is empty); a TOOL entry run after an ASSISTANT entry is a tool
 * call and its results. Then the bundled before/after pair: the prefix a breakpoint writes in one
 * request is (recommended placement) or is not (today's, once the loop state changes) a
 * byte-identical prefix of the next request — checked on the printed text itself, not through
 * the economics code — which is what the context-role audit (src/pages/reference/layered.mdx) means by "the whole transcript so far stays cached".
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../index.ts';
import { breakpointProblems } from '../../folds/breakpoints.ts';
import type { Breakpoint, RenderedMessage } from '../../folds/types.ts';
import { renderTexts } from '../../corpus/check.ts';
import { add, send, snapshotsOf } from '../../../tests/support/layered.ts';
import { toolName } from './render.ts';

const last = async (events: Parameters<typeof snapshotsOf>[0], options = {}) => (await snapshotsOf(events, options)).at(-1)!;

describe('layered breakpoints', () => {
  const transcript = [
    add(1, 'L0', 'SYSTEM', 'systemPrompt', 'sys'),
    add(2, 'L0', 'SYSTEM', 'steeringNote', 'stay in pkg/'),
    add(3, 'L1', 'USER', 'agentPrompt', 'task'),
    add(4, 'L2', 'ASSISTANT', 'assistantToolCall', 'patch a.go: add X'),
    add(5, 'L2', 'TOOL', 'toolResult', 'ok'),
    add(6, 'L1', 'USER', 'retryFeedback', 'retry'),
  ];

  it('after the system message and on the last transcript entry, before the reminder and the slot', async () => {
    const snap = await last([...transcript, send(7)]);
    expect(snap.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user', 'user']);
    expect(snap.breakpoints).toEqual([{ message: 0 }, { message: 3 }]);
    expect(breakpointProblems(snap.breakpoints, snap.messages)).toEqual([]);
  });

  it('with nothing trailing, the last transcript entry is the last message', async () => {
    const snap = await last([add(1, 'L0', 'SYSTEM', 'systemPrompt', 'sys'), add(2, 'L1', 'USER', 'agentPrompt', 'task'), send(3)]);
    expect(snap.breakpoints).toEqual([{ message: 0 }, { message: 1 }]);
  });

  it('no system fold: only the transcript one; no transcript: only the system one; none on a state that is not a send', async () => {
    expect((await last([add(1, 'L1', 'USER', 'agentPrompt', 'task'), add(2, 'L1', 'USER', 'retryFeedback', 'r'), send(3)])).breakpoints).toEqual([{ message: 0 }]);
    expect((await last([add(1, 'L0', 'SYSTEM', 'systemPrompt', 'sys'), add(2, 'L1', 'USER', 'retryFeedback', 'r'), send(3)])).breakpoints).toEqual([{ message: 0 }]);
    expect((await snapshotsOf(transcript)).at(-1)!.breakpoints).toBeUndefined();
  });

  it('tool turns: the call names its results, each result names its call', async () => {
    const snap = await last([...transcript, add(8, 'L2', 'TOOL', 'toolResult', 'second result'), add(9, 'L2', 'ASSISTANT', 'assistantToolCall', 'all done'), send(10)]);
    const byContent = new Map(snap.messages.map((m) => [m.content, m] as const));
    expect(byContent.get('patch a.go: add X')!.toolCalls).toEqual([
      { id: 'call_5', name: 'patch', input: {} },
      { id: 'call_8', name: 'patch', input: {} },
    ]);
    expect(byContent.get('ok')!.toolCallId).toBe('call_5');
    expect(byContent.get('second result')!.toolCallId).toBe('call_8');
    // An assistant entry no result follows is a plain assistant message.
    expect(byContent.get('all done')!.toolCalls).toBeUndefined();
    // A TOOL entry no call precedes stays a plain tool message.
    const orphan = await last([add(1, 'L1', 'USER', 'agentPrompt', 'task'), add(2, 'L2', 'TOOL', 'toolResult', 'r'), send(3)]);
    expect(orphan.messages[1]).not.toHaveProperty('toolCallId');
  });

  it('a call’s tool name: the text’s first word when it is one, else the sourceType', () => {
    const entry = (content: string, sourceType = 'assistantToolCall') => ({ offset: 1, ordinal: 1, layer: 'L2' as const, role: 'ASSISTANT' as const, sourceType, content });
    expect(toolName(entry('submit_plan: 1) edit'))).toBe('submit_plan');
    expect(toolName(entry('route_to_stage: billing/plan'))).toBe('route_to_stage');
    expect(toolName(entry('patch pkg/tasks/model.go: add field'))).toBe('patch');
    expect(toolName(entry('— a dash first'))).toBe('assistantToolCall');
    expect(toolName(entry('— a dash first', 'not/a name'))).toBe('tool');
  });
});

/** The request's text up to a breakpoint (messages joined as the provider reads them: role and content). */
const prefixAt = (messages: readonly RenderedMessage[], b: Breakpoint): string =>
  messages
    .slice(0, b.message + 1)
    .map((m, i) => `${m.role}\u0000${i === b.message ? m.content.slice(0, b.end ?? m.content.length) : m.content}`)
    .join('\u0001');
const whole = (messages: readonly RenderedMessage[]): string => messages.map((m) => `${m.role}\u0000${m.content}`).join('\u0001');

describe('the bundled before/after pair of the context-role audit', async () => {
  const files = ['scenarios/20-layered-today.yaml', 'scenarios/21-layered-recommended.yaml'];
  const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
  const r = await renderTexts(
    files.map((file) => ({ file, text: readFileSync(file, 'utf8') })),
    config,
    { everyEvent: false },
  );
  /** Per request after the first: is the previous request's transcript entry a prefix of this one? */
  const transcriptKept = (id: string): boolean[] => {
    const s = r.scenarios.find((x) => x.scenario.file.includes(id))!;
    return s.requests.slice(1).map((q, i) => {
      const prev = s.requests[i]!;
      const entry = prev.breakpoints!.at(-1)!;
      return whole(q.messages).startsWith(prefixAt(prev.messages, entry));
    });
  };

  it('renders without errors, every request with its two breakpoints', () => {
    expect(r.errors).toEqual([]);
    for (const s of r.scenarios) for (const q of s.requests) expect(q.breakpoints?.length).toBe(2);
  });

  it('recommended placement: each request reads the transcript entry the previous one wrote', () => {
    expect(transcriptKept('21-layered-recommended')).not.toContain(false);
  });

  it('today’s placement: the loop state in the system message loses it whenever the state changes', () => {
    expect(transcriptKept('20-layered-today')).toContain(false);
  });
});
