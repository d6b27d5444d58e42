/**
 * The check of a fold's cache breakpoints: each rule on its own (message index in range, `end`
 * within the content, known ttl, order of position, equal positions allowed), and in the pipeline
 * a fold that returns a bad set gives an input error at the request, naming the fold and the
 * request, and the request carries no breakpoints — never a crash.
 */
import { describe, expect, it } from 'vitest';
import { renderTexts } from '../corpus/check.ts';
import { formatError } from '../scenarios/errors.ts';
import { breakpointProblems } from './breakpoints.ts';
import { layered } from '../builtin-folds/layered/index.ts';
import type { AnyFold, Breakpoint, RenderedMessage } from './types.ts';

const m = (content: string): RenderedMessage => ({ role: 'user', content, parts: [{ text: content, from: [] }] });
const messages = [m('abc'), m(''), m('hello')];

describe('breakpointProblems', () => {
  it('accepts absent, empty, whole-message, inside, at 0 and equal positions', () => {
    expect(breakpointProblems(undefined, messages)).toEqual([]);
    expect(breakpointProblems([], messages)).toEqual([]);
    expect(breakpointProblems([{ message: 0, end: 0 }, { message: 0, end: 3 }, { message: 0 }, { message: 1 }, { message: 2, end: 5, ttl: '1h' }], messages)).toEqual([]);
  });
  it('names each problem: index out of range, end past the content, unknown ttl, out of order', () => {
    expect(breakpointProblems([{ message: 3 }], messages)).toEqual(['breakpoint 1 of 1 names message 3, but the request has 3 messages (indices 0–2)']);
    expect(breakpointProblems([{ message: -1 }], messages)[0]).toMatch(/names message -1/);
    expect(breakpointProblems([{ message: 0, end: 4 }], messages)).toEqual(['breakpoint 1 of 1 ends at character 4 of message 0, whose content has 3 characters']);
    expect(breakpointProblems([{ message: 0, end: 1.5 }], messages)[0]).toMatch(/ends at character 1\.5/);
    expect(breakpointProblems([{ message: 0, ttl: '30m' } as unknown as Breakpoint], messages)).toEqual([
      "breakpoint 1 of 1 asks for ttl \"30m\"; the contract knows '5m' and '1h'",
    ]);
    expect(breakpointProblems([{ message: 2 }, { message: 0 }], messages)).toEqual([
      'breakpoint 2 of 2 (message 0, character 3) comes before the one listed ahead of it (message 2, character 5): list breakpoints in order of position',
    ]);
    expect(breakpointProblems('x', messages)).toEqual(['`breakpoints` is not a list']);
  });
});

describe('in the pipeline', () => {
  const bad: AnyFold = {
    ...layered,
    id: 'bad-marks',
    snapshots: (events, options, at) => layered.snapshots(events, options, at).map((s) => (s.request ? { ...s, breakpoints: [{ message: 7 }] } : s)),
  };
  const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: new Map([['bad-marks', bad]]), defaultFold: 'bad-marks' };
  const text = `id: x
title: X
fold: bad-marks
events:
  - off: 1
    t: 0ms
    type: entry/added
    payload: {layer: L1, role: USER, sourceType: agentPrompt, content: task}
  - off: 2
    t: 1s
    type: request
    payload: {model: m}
`;

  it('an invalid breakpoint is an error at the request naming the fold, and is not passed on', async () => {
    const r = await renderTexts([{ file: 'scenarios/x.yaml', text }], config, { everyEvent: false });
    expect(r.errors.map(formatError)).toEqual([
      "scenarios/x.yaml:9:5 error: fold `bad-marks` returned invalid cache breakpoints for request @2\n  breakpoint 1 of 1 names message 7, but the request has 1 message (indices 0–0)\n  fix: fix the fold `bad-marks`: each breakpoint names a message index of the request (0 to messages.length − 1), an optional `end` within that message's content, an optional ttl '5m' or '1h', listed in order of position — or return no `breakpoints`",
    ]);
    for (const q of r.scenarios.flatMap((x) => x.requests)) expect(q.breakpoints).toBeUndefined();
  });
});
