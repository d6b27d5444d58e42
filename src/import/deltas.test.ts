/**
 * An imported conversation is stored as what each request adds (`extends:`), and the `requests`
 * fold gives every body back as the trace sent it: the round trip (import → load → each body
 * JSON-equal to the trace's, key order included), a system prompt changed mid-way, a model switch,
 * a parameter change, a compaction (stored whole), and the file's size growing with the
 * conversation rather than with its square.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { renderTexts } from '../corpus/check.ts';
import { formatError } from '../scenarios/errors.ts';
import { importTrace } from './index.ts';

const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
const jsonl = (bodies: unknown[]) => `${bodies.map((b) => JSON.stringify(b)).join('\n')}\n`;

/** Imports `bodies` and loads the scenario: the payloads as written and the bodies the fold reads. */
async function roundTrip(bodies: Record<string, unknown>[]) {
  const { result, errors } = importTrace(jsonl(bodies), { file: 'traces/t.jsonl', id: 'imported' });
  expect(errors.map(formatError)).toEqual([]);
  const r = await renderTexts([{ file: 'scenarios/imported.yaml', text: result!.yaml }], config, { everyEvent: false });
  expect(r.errors.map(formatError)).toEqual([]);
  const written = (parse(result!.yaml) as { events: { payload: Record<string, unknown> }[] }).events.map((e) => e.payload);
  const read = r.scenarios[0]!.scenario.events.map((e) => (e.payload as { body: unknown }).body);
  return { yaml: result!.yaml, written, read };
}

/** An OpenAI Chat conversation of `n` requests, each adding a tool call and its result of `bytes` characters. */
function chat(n: number, bytes: number, change: (k: number, body: Record<string, unknown>) => Record<string, unknown> = (_, b) => b) {
  const out: Record<string, unknown>[] = [];
  const messages: unknown[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Fix the failing export test.' },
  ];
  for (let k = 0; k < n; k++) {
    out.push(change(k, { model: 'gpt-5', messages: [...messages], tools: [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object' } } }], stream: true }));
    const id = `call_${k}`;
    messages.push(
      { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: `src/f${k}.ts` }) } }] },
      { role: 'tool', tool_call_id: id, content: `line ${k} of the file `.repeat(Math.ceil(bytes / 20)).slice(0, bytes) },
    );
  }
  return out;
}

describe('an imported conversation stored as what each request adds', () => {
  it('round trip: every body the fold reads is the one the trace sent, JSON-equal with the same key order', async () => {
    const bodies = chat(6, 120);
    const { written, read } = await roundTrip(bodies);
    expect(read.map((b) => JSON.stringify(b))).toEqual(bodies.map((b) => JSON.stringify(b)));
    expect(written[0]).toHaveProperty('body');
    for (const [k, p] of written.slice(1).entries()) {
      // Request k + 1 re-sends the 2 + 2k messages of request k and adds one tool call and its result.
      expect(p).toEqual({ format: 'openai-chat', extends: { keep: 2 + 2 * k, append: (bodies[k + 1]!.messages as unknown[]).slice(2 + 2 * k) } });
    }
  });

  it('a system prompt changed mid-way, a model switch and a parameter change are written as that change', async () => {
    const bodies = chat(5, 40, (k, b) => {
      const messages = b.messages as { role: string; content: unknown }[];
      if (k >= 2) return { ...b, messages: [{ role: 'system', content: 'You are a coding agent. Today is 2026-12-01.' }, ...messages.slice(1)] };
      return b;
    });
    bodies[3] = { ...bodies[3]!, model: 'gpt-5-mini' };
    bodies[4] = { ...bodies[4]!, model: 'gpt-5-mini', temperature: 0.2 };
    const { written, read } = await roundTrip(bodies);
    expect(read.map((b) => JSON.stringify(b))).toEqual(bodies.map((b) => JSON.stringify(b)));
    // The system prompt is the list's first message: a new one at @3 keeps nothing, so that body is whole.
    expect(written.map((p) => ('body' in p ? 'whole' : Object.keys(p.extends as object).join('+')))).toEqual([
      'whole',
      'keep+append',
      'whole',
      'keep+append+set',
      'keep+append+set',
    ]);
    expect((written[3]!.extends as { set: unknown }).set).toEqual({ model: 'gpt-5-mini' });
    expect((written[4]!.extends as { set: unknown }).set).toEqual({ temperature: 0.2 });
    // temperature is new: the rebuilt body has it last, where the trace has it.
    expect(Object.keys(read[4] as object)).toEqual(['model', 'messages', 'tools', 'stream', 'temperature']);
  });

  it('a changed top-level system prompt, a dropped parameter and a moved cache marker (Anthropic)', async () => {
    const marked = (text: string) => ({ role: 'user', content: [{ type: 'text', text, cache_control: { type: 'ephemeral' } }] });
    const bodies = [
      { model: 'claude-sonnet-4-5', max_tokens: 1024, temperature: 0, system: 'S1', messages: [marked('q1')] },
      {
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        temperature: 0,
        system: 'S1',
        messages: [{ role: 'user', content: 'q1' }, { role: 'assistant', content: 'a1' }, marked('q2')],
      },
      {
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        system: 'S2',
        messages: [{ role: 'user', content: 'q1' }, { role: 'assistant', content: 'a1' }, { role: 'user', content: 'q2' }, { role: 'assistant', content: 'a2' }, marked('q3')],
      },
    ];
    const { written, read } = await roundTrip(bodies);
    expect(read.map((b) => JSON.stringify(b))).toEqual(bodies.map((b) => JSON.stringify(b)));
    // @1's only message carried the marker, so @2 re-states it: nothing kept, stored whole.
    expect('body' in written[1]!).toBe(true);
    expect(written[2]!.extends).toEqual({ keep: 2, append: bodies[2]!.messages.slice(2), set: { system: 'S2' }, unset: ['temperature'] });
  });

  it('a body whose key order differs from the previous one is stored whole (the rebuild would reorder it)', async () => {
    const [a, b] = chat(2, 10);
    const reordered = { messages: b!.messages, model: b!.model, tools: b!.tools, stream: b!.stream };
    const { written, read } = await roundTrip([a!, reordered]);
    expect('body' in written[1]!).toBe(true);
    expect(JSON.stringify(read[1])).toBe(JSON.stringify(reordered));
  });

  it('the scenario grows with the conversation, not with its square', () => {
    const size = (n: number) => importTrace(jsonl(chat(n, 400)), { file: 'traces/t.jsonl', id: 'imported' }).result!.yaml.length;
    const [s50, s100, s200] = [size(50), size(100), size(200)];
    // Each request adds ≈ 550 bytes of YAML (a 400-character tool result, its call, keep:, the note):
    // doubling the conversation doubles the file (quadratic storage would quadruple it).
    expect(s100 / s50).toBeGreaterThan(1.8);
    expect(s100 / s50).toBeLessThan(2.2);
    expect(s200 / s100).toBeLessThan(2.2);
    // And the file is about the size of the conversation itself (its last request), not of the trace.
    const last = JSON.stringify(chat(200, 400).at(-1)).length;
    const trace = jsonl(chat(200, 400)).length;
    expect(s200 / last).toBeLessThan(1.5);
    expect(s200 / trace).toBeLessThan(0.02);
  });
});
