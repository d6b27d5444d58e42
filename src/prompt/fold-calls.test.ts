/**
 * Folds as a team writes them: asynchronous (every hook returns a Promise, as a fold calling the AI
 * SDK's async message conversion does) and, sometimes, broken. An async fold renders exactly what
 * its synchronous twin renders; a fold that throws — in `snapshots`, `validateEvent`, `expand`,
 * `describe` — or returns the wrong kind of value is an error at the scenario event it was working
 * on, naming the fold, the hook and the fold's own top frame, and every other scenario is still
 * checked and rendered.
 */
import { describe, expect, it } from 'vitest';
import chatLog from '../../examples/folds/chat-log.ts';
import type { AnyFold, Snapshot } from '../folds/types.ts';
import { formatError, sortErrors } from '../scenarios/errors.ts';
import { renderTexts } from '../corpus/check.ts';

const later = <T>(value: T): Promise<T> => new Promise((done) => setTimeout(() => done(value), 1));

/** chat-log with every hook asynchronous. */
const asyncChatLog: AnyFold = {
  ...chatLog,
  id: 'async-chat-log',
  validateOptions: (o) => later(chatLog.validateOptions(o)),
  validateEvent: (t, p) => later(chatLog.validateEvent(t, p)),
  expand: async (e) => later(await chatLog.expand!(e)),
  describe: async (events, o) => later(await chatLog.describe!(events, o)),
  snapshots: async (events, o, at) => later(await chatLog.snapshots(events, o, at)),
  payloadSchemas: () => later(chatLog.payloadSchemas()),
};

/** chat-log that throws while folding a message whose text is "boom" (a bug in the fold). */
const boom: AnyFold = {
  ...chatLog,
  id: 'boom',
  snapshots: async (events, o, at): Promise<Snapshot[]> => {
    for (const e of events) if ((e.payload as { text?: string }).text === 'boom') throw new TypeError("Cannot read properties of undefined (reading 'parts')");
    return chatLog.snapshots(events, o, at);
  },
};

const config = (folds: AnyFold[]) => ({ timeZero: '2026-08-24T16:41:00.000Z', folds: new Map(folds.map((f) => [f.id, f])), defaultFold: folds[0]!.id });

const scenario = (id: string, fold: string, texts: string[]): { file: string; text: string } => ({
  file: `scenarios/${id}.yaml`,
  text: [
    `id: ${id}`,
    `title: ${id}`,
    `fold: ${fold}`,
    'events:',
    ...texts.flatMap((t, i) => [
      `  - off: ${2 * i + 1}`,
      `    t: ${i}s`,
      '    type: message',
      `    payload: {role: user, text: ${t}}`,
      `  - off: ${2 * i + 2}`,
      `    t: ${i}s`,
      '    type: send',
      '    payload: {model: m}',
    ]),
    'annotations:',
    '  - request: "@2"',
    `    find: "${texts[0]}"`,
    '    comment: the first message',
    '',
  ].join('\n'),
});

describe('an asynchronous fold', () => {
  it('renders byte for byte what its synchronous twin renders: requests, cards, anchors', async () => {
    const sync = await renderTexts([scenario('a', 'chat-log', ['hello', 'again', 'more'])], config([chatLog]), { everyEvent: true });
    const async_ = await renderTexts([scenario('a', 'async-chat-log', ['hello', 'again', 'more'])], config([asyncChatLog]), { everyEvent: true });
    expect(async_.errors).toEqual([]);
    expect(sync.errors).toEqual([]);
    const [s, a] = [sync.scenarios[0]!, async_.scenarios[0]!];
    expect(a.requests.map((q) => q.text)).toEqual(s.requests.map((q) => q.text));
    expect(a.requests.map((q) => q.anchors.length)).toEqual([1, 0, 0]);
    expect(a.described).toEqual(s.described);
    expect(a.events.map((e) => e.lines.map((l) => l.text))).toEqual(s.events.map((e) => e.lines.map((l) => l.text)));
  });

  it('its validation is awaited: a bad payload is a located error with the fix', async () => {
    const bad = scenario('a', 'async-chat-log', ['hello']);
    bad.text = bad.text.replace('role: user', 'role: robot');
    const r = await renderTexts([bad], config([asyncChatLog]), { everyEvent: false });
    expect(r.errors.map(formatError)[0]).toMatch(/^scenarios\/a\.yaml:\d+:\d+ error: @1 message: `role`/);
  });
});

describe('a fold that throws', () => {
  it('is an error at the event it was folding, with the fold, the hook and its own top frame; other scenarios render', async () => {
    const r = await renderTexts([scenario('bad', 'boom', ['fine', 'boom', 'after']), scenario('good', 'boom', ['fine', 'also fine'])], config([boom]), { everyEvent: true });
    expect(r.errors).toHaveLength(1);
    const [e] = r.errors;
    // @3 is the second message (offsets 1, 2 = the first message and its send): where the event starts.
    expect(e!.pos).toEqual({ file: 'scenarios/bad.yaml', line: 13, col: 5 });
    expect(e!.message).toBe("fold `boom` failed while folding @3 message: its `snapshots` threw TypeError: Cannot read properties of undefined (reading 'parts')");
    expect(e!.detail![0]).toMatch(/^at .*fold-calls\.test\.ts:\d+:\d+\)?$/);
    expect(e!.fix).toMatch(/^fix the fold `boom` \(its `snapshots`\)/);
    // The other scenario is checked and rendered as if nothing happened.
    const good = r.scenarios.find((s) => s.scenario.id === 'good')!;
    expect(good.requests.map((q) => q.offset)).toEqual([2, 4]);
    expect(r.economics.has('good')).toBe(true);
    expect(r.scenarios.find((s) => s.scenario.id === 'bad')!.foldFailed).toBe(true);
  });

  it('in a base scenario: reported once, at the base, and its child renders nothing', async () => {
    const child = { file: 'scenarios/child.yaml', text: 'id: child\ntitle: child\nbase: bad\nevents:\n  - off: 9\n    t: 9s\n    type: send\n    payload: {model: m}\n' };
    const r = await renderTexts([scenario('bad', 'boom', ['fine', 'boom']), child], config([boom]), { everyEvent: false });
    expect(r.errors.map((e) => e.pos.file)).toEqual(['scenarios/bad.yaml']);
    expect(r.scenarios.find((s) => s.scenario.id === 'child')!.requests).toEqual([]);
  });

  it('in validateEvent, expand or describe, or returning the wrong kind of value: located, never an exception', async () => {
    const cases: [Partial<AnyFold>, RegExp][] = [
      [
        { validateEvent: () => Promise.reject(new Error('schema service down')) },
        /^scenarios\/a\.yaml:7:11 error: fold `x` failed checking @1 message: its `validateEvent` threw Error: schema service down/,
      ],
      [{ expand: () => null as never }, /^scenarios\/a\.yaml:7:11 error: fold `x` failed expanding @1 message: its `expand` returned null, not an expansion/],
      [{ describe: () => 'cards' as never }, /^scenarios\/a\.yaml:1:1 error: fold `x` failed describing its events: its `describe` returned a string, not a list/],
      [{ snapshots: () => ({}) as never }, /^scenarios\/a\.yaml:5:5 error: fold `x` failed while folding @1 message: its `snapshots` returned an object, not a list/],
      [
        {
          validateOptions: () => {
            throw 'no options today';
          },
        },
        /^scenarios\/a\.yaml:3:7 error: fold `x` failed checking the options: its `validateOptions` threw it threw "no options today"/,
      ],
    ];
    for (const [hooks, want] of cases) {
      const fold = { ...chatLog, id: 'x', ...hooks } as AnyFold;
      const r = await renderTexts([scenario('a', 'x', ['hello'])], config([fold]), { everyEvent: true });
      expect(sortErrors(r.errors).map(formatError)[0], String(want)).toMatch(want);
    }
  });
});
