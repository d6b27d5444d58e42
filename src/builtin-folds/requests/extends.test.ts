/**
 * `extends:` — a request written as what it adds to the previous one — through the whole scenario
 * pipeline: the body the loader hands on is the one the request sent (key order too), changes to
 * the system prompt, the model and a parameter apply in place, an appended message is credited to
 * the request that added it, and a delta that does not apply is an error at its field, naming both
 * requests and the fix.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../index.ts';
import { renderTexts } from '../../corpus/check.ts';
import { formatError } from '../../scenarios/errors.ts';

const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
const run = async (events: string) =>
  await renderTexts([{ file: 'scenarios/30-x.yaml', text: `id: x\ntitle: X\nfold: requests\nevents:\n${events}` }], config, { everyEvent: false });
const bodies = (r: Awaited<ReturnType<typeof run>>) => r.scenarios[0]!.scenario.events.map((e) => JSON.stringify((e.payload as { body: unknown }).body));

const FIRST = `  - off: 1
    t: 0ms
    type: request/sent
    payload:
      format: anthropic
      body:
        model: claude-sonnet-4-5
        max_tokens: 1024
        system: "You are terse."
        messages:
          - {role: user, content: "q1"}
          - {role: assistant, content: "a1"}
          - {role: user, content: [{type: text, text: "q2", cache_control: {type: ephemeral}}]}
`;

describe('a request written as `extends:`', () => {
  it('rebuilds the body as sent: kept and appended messages, the previous key order', async () => {
    const r = await run(`${FIRST}  - off: 2
    t: 5s
    type: request/sent
    payload:
      format: anthropic
      extends:
        keep: 2
        append:
          - {role: user, content: "q2"}
          - {role: assistant, content: "a2"}
          - {role: user, content: "q3"}
`);
    expect(r.errors.map(formatError)).toEqual([]);
    expect(bodies(r)[1]).toBe(
      JSON.stringify({
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        system: 'You are terse.',
        messages: [
          { role: 'user', content: 'q1' },
          { role: 'assistant', content: 'a1' },
          { role: 'user', content: 'q2' },
          { role: 'assistant', content: 'a2' },
          { role: 'user', content: 'q3' },
        ],
      }),
    );
    // Provenance: kept messages link to @1, appended ones to @2 (a message's text is credited to the first request that sent it).
    const second = r.scenarios[0]!.requests[1]!;
    // system, q1, a1, q2 (re-written by @2 without its cache marker: the same text, still @1's), a2, q3.
    const from = second.messages.map((m) => m.parts[0]!.from[0]);
    expect(from).toEqual([1, 1, 1, 1, 2, 2]);
  });

  it('a changed system prompt, model and parameter replace the field in its place; a new field goes last, an unset one is dropped', async () => {
    const r = await run(`${FIRST}  - off: 2
    t: 5s
    type: request/sent
    payload:
      format: anthropic
      extends:
        keep: 3
        set: {system: "You are verbose.", model: claude-opus-4-1, temperature: 0.2}
        unset: [max_tokens]
`);
    expect(r.errors.map(formatError)).toEqual([]);
    const b = JSON.parse(bodies(r)[1]!);
    expect(Object.keys(b)).toEqual(['model', 'system', 'messages', 'temperature']);
    expect(b.model).toBe('claude-opus-4-1');
    expect(b.system).toBe('You are verbose.');
    expect(b.messages).toHaveLength(3);
    const second = r.scenarios[0]!.requests[1]!;
    expect(second.model).toBe('claude-opus-4-1');
    expect(second.messages.find((m) => m.role === 'system')!.content).toBe('You are verbose.');
  });

  it('keep defaults to every message of the previous request', async () => {
    const r = await run(`${FIRST}  - off: 2
    t: 5s
    type: request/sent
    payload: {format: anthropic, extends: {append: [{role: assistant, content: "a2"}]}}
`);
    expect(r.errors.map(formatError)).toEqual([]);
    expect(JSON.parse(bodies(r)[1]!).messages).toHaveLength(4);
  });

  it('extends across a base: the base’s last request is the previous one', async () => {
    const files = [
      { file: 'scenarios/30-a.yaml', text: `id: a\ntitle: A\nfold: requests\nevents:\n${FIRST}` },
      {
        file: 'scenarios/31-b.yaml',
        text: `id: b\ntitle: B\nfold: requests\nbase: a\nevents:\n  - off: 2\n    t: 5s\n    type: request/sent\n    payload: {format: anthropic, extends: {keep: 3, append: [{role: assistant, content: "a2"}]}}\n`,
      },
    ];
    const r = await renderTexts(files, config, { everyEvent: false });
    expect(r.errors.map(formatError)).toEqual([]);
    const b = r.scenarios.find((s) => s.scenario.id === 'b')!;
    expect((b.scenario.events[0]!.payload as { body: { messages: unknown[] } }).body.messages).toHaveLength(4);
  });
});

describe('a delta that does not apply', () => {
  const second = (payload: string) => `${FIRST}  - off: 2\n    t: 5s\n    type: request/sent\n    payload:\n${payload}`;
  it('keeping more messages than the previous request sends', async () => {
    const r = await run(second('      format: anthropic\n      extends:\n        keep: 5\n        append: [{role: user, content: "q3"}]\n'));
    expect(r.errors.map(formatError)).toEqual([
      'scenarios/30-x.yaml:24:9 error: @2 request/sent: extends @1 but keeps 5 messages where @1 sends 3\n' +
        '  fix: keep at most 3 (the messages of @1 this request re-sends), and append the rest; or write the request’s whole `body:` instead of `extends:` (or re-import the trace)',
    ]);
  });
  it('the first request of a stream', async () => {
    const r = await run('  - off: 1\n    t: 0ms\n    type: request/sent\n    payload: {format: anthropic, extends: {keep: 0}}\n');
    expect(r.errors.map(formatError)[0]).toMatch(
      /^scenarios\/30-x\.yaml:8:\d+ error: @1 request\/sent: `extends:` follows the previous request, but this is the first request of its stream\n {2}fix: write the request’s whole `body:`/,
    );
  });
  it('another format, setting the message list, unsetting a field the previous request does not send', async () => {
    const other = await run(second('      format: openai-chat\n      extends: {keep: 1}\n'));
    expect(other.errors.map(formatError)[0]).toMatch(/error: @2 request\/sent: extends @1, but the format of @1 is `anthropic` and this one's `openai-chat`/);
    const list = await run(second('      format: anthropic\n      extends: {keep: 1, set: {messages: []}}\n'));
    expect(list.errors.map(formatError)[0]).toMatch(/:23:\d+ error: @2 request\/sent: sets `messages`, the message list that `keep` and `append` extend/);
    const unset = await run(second('      format: anthropic\n      extends: {keep: 3, unset: [temperature]}\n'));
    expect(unset.errors.map(formatError)[0]).toMatch(/error: @2 request\/sent: unsets `temperature`, which @1 does not send\n {2}fix: remove `temperature` from `unset`/);
  });
  it('a bad delta field and an appended message its adapter rejects are located inside `extends`', async () => {
    const shape = await run(second('      format: anthropic\n      extends: {keep: -1}\n'));
    expect(shape.errors.map(formatError)).toEqual(['scenarios/30-x.yaml:23:17 error: @2 request/sent: `keep` must be ≥ 0, got number -1\n  fix: make `keep` ≥ 0']);
    const msg = await run(
      second('      format: anthropic\n      extends:\n        keep: 3\n        append:\n          - {role: assistant, content: "a2"}\n          - {role: robot, content: "x"}\n'),
    );
    const [err] = msg.errors.map(formatError);
    expect(err).toMatch(/^scenarios\/30-x\.yaml:27:\d+ error: @2 request\/sent: /);
    expect(msg.errors).toHaveLength(1);
  });
  it('both `body` and `extends`', async () => {
    const r = await run(second('      format: anthropic\n      extends: {keep: 3}\n      body: {model: m, messages: [{role: user, content: x}]}\n'));
    expect(r.errors.map(formatError)[0]).toMatch(/error: @2 request\/sent: has both `body` and `extends`/);
  });
});
