/**
 * OpenInference spans (captures/openinference.ts): the bundled export (examples/traces/, written for
 * this project) of two sessions becomes one scenario per `session.id` with its messages, tools,
 * model and usage — the cached split read where the span records it and said to be ambiguous where
 * it does not; the same spans as OTLP JSON give the same requests; hostile exports are errors at
 * their line and column; secrets are dropped at their attribute; markup stays text. Sub-agents (an
 * agent's LLM spans below another agent's, under the same `session.id`) are conversations of their
 * own, linked to the session's; a partial export's calls stay in the session's.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUILTIN_FOLDS } from '../../builtin-folds/index.ts';
import { renderTexts } from '../../corpus/check.ts';
import { formatError, type InputError } from '../../scenarios/errors.ts';
import { importCapture, importTrace } from '../index.ts';
import { readChunks } from '../read.ts';
import { scenarioId } from '../log/index.ts';
import { AMBIGUOUS_USAGE, BODY_UNRECORDED, SUB_AGENT } from './openinference.ts';
import { MARKERS_UNRECORDED } from '../../economics/measured.ts';
import { withBodies } from '../../../tests/support/imported.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const SAMPLE = 'examples/traces/openinference-spans.jsonl';
const text = readFileSync(join(ROOT, SAMPLE), 'utf8');
const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
type Ev = {
  off: number;
  t: string;
  payload: {
    format: string;
    measured?: Record<string, number>;
    body: { model: string; input_messages: { role: string; parts: Record<string, unknown>[] }[]; tool_definitions?: unknown[] };
  };
};
const doc = (yaml: string) => {
  const d = parse(yaml) as { id: string; events: Ev[]; intro: string };
  return { ...d, events: withBodies(d.events) };
};

function byConversation(t: string, file = SAMPLE) {
  const errors: InputError[] = [];
  const chunks = readChunks(t, file, errors);
  expect(errors.map(formatError)).toEqual([]);
  return importCapture(chunks, { file, id: 'oi', idOf: (c) => `oi-${c.key}` });
}

/** One span line of the specification's span JSON, flattened attributes. */
const span = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'Messages', context: { trace_id: 't1', span_id: String(extra.id ?? 's1') }, start_time: '2026-12-01T10:00:00.000Z', attributes, ...extra });
const LLM = { 'openinference.span.kind': 'LLM', 'llm.model_name': 'claude-sonnet-4-5' };
const user = (content: string) => ({ 'llm.input_messages.0.message.role': 'user', 'llm.input_messages.0.message.content': content });
const first = (t: string) => importTrace(t, { file: 'spans.jsonl', id: 's' }).errors.map(formatError)[0]?.split('\n')[0];

describe('OpenInference spans', () => {
  it('the bundled export: one scenario per session.id, each LLM span a request in start order (CHAIN and TOOL spans left out)', () => {
    const { conversations, errors } = byConversation(text);
    expect(errors.map(formatError)).toEqual([]);
    expect(conversations!.map((c) => [c.conversation.by, c.conversation.key, c.lines])).toEqual([
      ['session.id', 'sess-billing-0142', [2, 4]],
      ['session.id', 'sess-billing-0143', [5, 5]],
    ]);
    const [a, b] = conversations!.map((c) => doc(c.result.yaml));
    expect(a!.id).toBe('oi-sess-billing-0142');
    expect(a!.events.map((e) => [e.off, e.t, e.payload.format])).toEqual([
      [1, '0ms', 'otel-genai'],
      [2, '2.4s', 'otel-genai'],
    ]);
    const roles = (e: Ev) => e.payload.body.input_messages.map((m) => `${m.role}:${m.parts.map((p) => p.type).join('+')}`);
    expect(roles(a!.events[1]!)).toEqual(['system:text', 'user:text', 'assistant:tool_call', 'tool:tool_call_response']);
    expect(a!.events[1]!.payload.body.input_messages[2]!.parts[0]).toEqual({ type: 'tool_call', id: 'toolu_01Inv', name: 'get_invoice', arguments: { id: 'INV-1042' } });
    // The model the request named (llm.invocation_parameters), not the response's dated name.
    expect(a!.events[0]!.payload.body.model).toBe('claude-sonnet-4-5');
    // The tool's JSON schema (Anthropic's shape) as a GenAI tool definition.
    expect(a!.events[0]!.payload.body.tool_definitions).toEqual([
      { type: 'function', name: 'get_invoice', description: 'Fetch one invoice by id.', parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
    ]);
    // The second session's attributes are in the specification's nested form: read the same way.
    expect(roles(b!.events[0]!)).toEqual(['system:text', 'user:text']);
    expect(b!.events[0]!.payload.body.model).toBe('claude-sonnet-4-5-20250929');
  });

  it('usage: the cached split where the span records it; where it does not, no measured figures and the page says why', () => {
    const [a, b] = byConversation(text).conversations!.map((c) => doc(c.result.yaml));
    expect(a!.events.map((e) => e.payload.measured)).toEqual([
      { inputTokens: 1890, cacheWriteTokens: 1712, outputTokens: 48 },
      { inputTokens: 2011, cachedTokens: 1712, cacheWriteTokens: 260, outputTokens: 95 },
    ]);
    expect(a!.intro).not.toContain('without a cache split');
    expect(b!.events[0]!.payload.measured).toBeUndefined();
    expect(b!.intro.replace(/\s+/g, ' ')).toContain(`For the request, ${AMBIGUOUS_USAGE}.`);
    expect(b!.intro).toContain('does not record the request body as sent');
  });

  it('the secret in a tool result is dropped, located at its attribute; both scenarios render clean', async () => {
    const { conversations } = byConversation(text);
    const a = conversations![0]!.result;
    expect(a.dropped.map((d) => `${d.pos.line}:${d.pos.col} ${d.what}: ${d.where}`)).toEqual(['4:1665 an API key (sk-…): input_messages.3.parts.0.response']);
    expect(text.split('\n')[3]!.slice(1664, 1700)).toContain('{\\"id\\": \\"INV-1042\\"');
    expect(a.yaml).not.toContain('sk-fake');
    for (const c of conversations!)
      expect((await renderTexts([{ file: `scenarios/${c.conversation.key}.yaml`, text: c.result.yaml }], config, { everyEvent: false })).errors.map(formatError)).toEqual([]);
  });

  it('without --out-dir, several sessions are an error at the second one, naming the key and the fix', () => {
    expect(importTrace(text, { file: SAMPLE, id: 'oi' }).errors.map(formatError)).toEqual([
      `${SAMPLE}:5:1 error: this OpenInference spans export holds more than one conversation: the request of line 2 has \`session.id\` "sess-billing-0142", this one "sess-billing-0143"\n  fix: import it with --out-dir <folder>: one scenario per conversation (npm run import -- <capture> --out-dir <folder>)`,
    ]);
  });

  it('the same spans as OTLP JSON give the same requests, located in the document', () => {
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { context: { span_id: string }; start_time: string; attributes: Record<string, unknown> });
    const attr = (k: string, v: unknown) => ({ key: k, value: typeof v === 'number' ? { intValue: String(v) } : { stringValue: String(v) } });
    const flat = (o: Record<string, unknown>, prefix = ''): [string, unknown][] =>
      Object.entries(o).flatMap(([k, v]) =>
        v !== null && typeof v === 'object' ? flat(v as Record<string, unknown>, `${prefix}${k}.`) : [[`${prefix}${k}`, v] as [string, unknown]],
      );
    const spans = lines.map((l) => ({
      traceId: 't',
      spanId: l.context.span_id,
      name: 'Messages',
      startTimeUnixNano: `${BigInt(Date.parse(l.start_time)) * 1_000_000n}`,
      attributes: flat(l.attributes).map(([k, v]) => attr(k, v)),
    }));
    const otlp = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }, null, 2);
    const viaOtlp = byConversation(otlp, 'spans.json');
    expect(viaOtlp.errors.map(formatError)).toEqual([]);
    const bodies = (r: typeof viaOtlp) => r.conversations!.map((c) => doc(c.result.yaml).events.map((e) => [e.t, e.payload]));
    expect(bodies(viaOtlp)).toEqual(bodies(byConversation(text)));
    // --format otlp reads GenAI spans: it names the format these are.
    expect(importTrace(otlp, { file: 'spans.json', id: 's', format: 'otlp' }).errors.map(formatError)[0]).toMatch(
      /error: no span records its input messages \(`gen_ai\.input\.messages`, `gen_ai\.prompt` or message events; 5 spans read\)\n {2}fix: these are OpenInference spans: import them with --format openinference/,
    );
    // The secret is located at its attribute's value in the pretty-printed document.
    const d = viaOtlp.conversations![0]!.result.dropped[0]!;
    const at = otlp.split('\n');
    expect(at[d.pos.line - 1]!.slice(d.pos.col - 1)).toBe('{');
    expect(at[d.pos.line]).toContain('"stringValue": "{\\"id\\": \\"INV-1042\\"');
  });

  it('a start time as a count is read in the unit its size says (VeADK’s trace dump writes the SDK’s nanoseconds); one no date can hold is a located error, never a RangeError', () => {
    const at = Date.parse('2025-08-11T03:57:40.688Z');
    const started = (start: unknown) => {
      const { result, errors } = importTrace(span({ ...LLM, ...user('hi') }, { start_time: start }), { file: 'dump.json', id: 's' });
      expect(errors.map(formatError)).toEqual([]);
      return (parse(result!.yaml) as { startedAt: string }).startedAt;
    };
    for (const count of [at / 1000, at, at * 1000, at * 1e6]) expect(started(count)).toBe('2025-08-11T03:57:40.688Z');
    // A count past every unit's range (a date 1e19 ms after 1970 is none): said at the span, with the fix.
    const { errors } = importTrace(span({ ...LLM, ...user('hi') }, { start_time: 1e25 }), { file: 'dump.json', id: 's' });
    expect(errors.map(formatError)).toEqual([
      "dump.json:1:1 error: this request's time (10000000000000000000 ms since 1970) is not a date\n  fix: write its time as an ISO 8601 instant, or as a count of seconds, milliseconds, microseconds or nanoseconds since 1970",
    ]);
  });

  it('without session.id, user.id groups; without either, the prefix chain', () => {
    const t = [
      span({ ...LLM, ...user('a'), 'user.id': 'u-1' }, { id: 's1' }),
      span({ ...LLM, ...user('x') }, { id: 's2', start_time: '2026-12-01T10:00:01.000Z' }),
      span(
        {
          ...LLM,
          ...user('x'),
          'llm.input_messages.1.message.role': 'assistant',
          'llm.input_messages.1.message.content': 'y',
          'llm.input_messages.2.message.role': 'user',
          'llm.input_messages.2.message.content': 'z',
        },
        { id: 's3', start_time: '2026-12-01T10:00:02.000Z' },
      ),
    ].join('\n');
    const { conversations, errors } = byConversation(t, 'spans.jsonl');
    expect(errors.map(formatError)).toEqual([]);
    expect(conversations!.map((c) => [c.conversation.by, c.conversation.key, c.result.requests])).toEqual([
      ['user.id', 'u-1', 1],
      ['prefix chain', 'chain 1', 2],
    ]);
  });

  it('an LLM span recorded without its input is a call the page does not show, said on its session’s page (with --out-dir, not on another session’s)', () => {
    const t = [
      span({ ...LLM, ...user('a'), 'session.id': 'chat-1' }, { id: 's1' }),
      span({ ...LLM, 'session.id': 'chat-1' }, { id: 's2', start_time: '2026-12-01T10:00:01.000Z' }),
      span({ ...LLM, ...user('b'), 'session.id': 'chat-2' }, { id: 's3', start_time: '2026-12-01T10:00:02.000Z' }),
    ].join('\n');
    const said = (intro: string) => intro.includes('Not in the capture — LLM spans without `llm.input_messages` (1): model calls recorded without their input');
    const { conversations, errors } = byConversation(t, 'spans.jsonl');
    expect(errors.map(formatError)).toEqual([]);
    expect(conversations!.map((c) => [c.conversation.key, c.result.requests, said(doc(c.result.yaml).intro)])).toEqual([
      ['chat-1', 1, true],
      ['chat-2', 1, false],
    ]);
    // Imported alone, a session's calls without input are said as well.
    const one = importTrace(t.split('\n').slice(0, 2).join('\n'), { file: 'spans.jsonl', id: 's' });
    expect(one.errors.map(formatError)).toEqual([]);
    expect(said(doc(one.result!.yaml).intro)).toBe(true);
  });

  it('message content is kept as text: markup is not interpreted, a huge value is imported whole', () => {
    const script = '<script>alert("x")</script><img src=x onerror=alert(1)>';
    const huge = 'Lorem ipsum dolor sit amet. '.repeat(40_000);
    const r = importTrace(span({ ...LLM, ...user(script), 'llm.input_messages.1.message.role': 'assistant', 'llm.input_messages.1.message.content': huge }), {
      file: 'spans.jsonl',
      id: 's',
    });
    expect(r.errors.map(formatError)).toEqual([]);
    const m = doc(r.result!.yaml).events[0]!.payload.body.input_messages;
    expect(m[0]!.parts).toEqual([{ type: 'text', content: script }]);
    expect((m[1]!.parts[0]!.content as string).length).toBe(huge.length);
  });

  it('hostile exports: errors at their line and column, with the fix', () => {
    // Not JSON: the line and column of the break.
    expect(first(`${span({ ...LLM, ...user('a') })}\n{"name": "x", "attributes": {"a": }`)).toBe('spans.jsonl:2:35 error: not JSON: expected a value, found `}`');
    // A gap in the flattened list.
    const gap = span({ ...LLM, ...user('a'), 'llm.input_messages.2.message.role': 'user', 'llm.input_messages.2.message.content': 'b' });
    expect(first(gap)).toBe(
      `spans.jsonl:1:${gap.indexOf('"user","llm.input_messages.2.message.content"') + 1} error: input message 2 is recorded but input message 1 is not: a flattened list is numbered from 0 without gaps`,
    );
    // A huge index is a gap, not an allocation.
    expect(first(span({ ...LLM, 'llm.input_messages.999999999.message.role': 'user', 'llm.input_messages.999999999.message.content': 'b' }))).toContain(
      'input message 999999999 is recorded but input message 0 is not',
    );
    // A role that is not text.
    const role = span({ ...LLM, 'llm.input_messages.0.message.role': 7, 'llm.input_messages.0.message.content': 'b' });
    expect(first(role)).toBe(`spans.jsonl:1:${role.indexOf('7,') + 1} error: \`llm.input_messages.0.message.role\` is missing or not text`);
    // No model.
    expect(first(span({ 'openinference.span.kind': 'LLM', ...user('a') }))).toContain('spans.jsonl:1:1 error: this LLM span names no model');
    // A token count that is not one, and counts that contradict each other.
    const bad = span({ ...LLM, ...user('a'), 'llm.token_count.prompt': '12' });
    expect(first(bad)).toBe(`spans.jsonl:1:${bad.indexOf('"12"') + 1} error: \`llm.token_count.prompt\` must be a whole number of tokens (0 or more), got "12"`);
    const less = span({ ...LLM, ...user('a'), 'llm.token_count.prompt': 10, 'llm.token_count.prompt_details.cache_read': 900 });
    expect(first(less)).toBe(
      `spans.jsonl:1:${less.indexOf('10,') + 1} error: \`llm.token_count.prompt\` (10) is less than the cache read + write tokens (900): it cannot be the whole prompt the details are part of`,
    );
    // A tool schema that is not JSON.
    const tool = span({ ...LLM, ...user('a'), 'llm.tools.0.tool.json_schema': '{"name": ' });
    expect(first(tool)).toMatch(new RegExp(`^spans\\.jsonl:1:${tool.indexOf('"{\\"name') + 1} error: \`llm\\.tools\\.0\\.tool\\.json_schema\`: it is a string but not JSON`));
    // Nesting deeper than any span's.
    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(first(span({ ...LLM, ...user('a'), metadata: deep }))).toContain('attribute `metadata.0.0.0');
    // LLM spans whose input messages are hidden.
    expect(first(span({ ...LLM, 'input.value': 'hidden' }))).toBe('spans.jsonl:1:1 error: no LLM span records its input messages (`llm.input_messages.*`; 1 LLM span read)');
    // A start time that is not one.
    const time = span({ ...LLM, ...user('a') }, { start_time: 'yesterday' });
    expect(first(`${span({ ...LLM, ...user('a') }, { id: 's0' })}\n${time}`)).toBe(
      `spans.jsonl:2:${time.indexOf('"yesterday"') + 1} error: \`start_time\` is not an ISO-8601 instant`,
    );
  });

  it('an attribute the request does not carry never reaches the scenario, secret or not', () => {
    const r = importTrace(
      span({
        ...LLM,
        ...user('hi'),
        'llm.invocation_parameters': '{"model": "claude-sonnet-4-5", "api_key": "sk-fakefakefakefakefake1234"}',
        metadata: '{"token": "sk-fakefakefakefakefake5678"}',
      }),
      {
        file: 'spans.jsonl',
        id: 's',
      },
    );
    expect(r.errors.map(formatError)).toEqual([]);
    expect(r.result!.yaml).not.toContain('sk-fake');
    expect(r.result!.yaml).not.toContain('api_key');
  });
});

/**
 * Sub-agents. The shapes are those the instrumentations write (openinference.ts' header): Phoenix's
 * own agent runs a turn as a `pxi.turn` AGENT span holding the main agent's LLM and TOOL spans, and
 * a delegation as a `call_subagent` TOOL span with the sub-agent's `ServerAgent.iter` AGENT span
 * below it, every span under the turn's `session.id`; openai-agents writes a root AGENT span per
 * trace, an AGENT span per agent below it (a handoff's next agent a sibling), and an agent called as
 * a tool below the caller's function (TOOL) span. Fixtures written here in those shapes.
 */
describe('OpenInference sub-agents', () => {
  const SESSION = 'f3a9c2e1-77b4-4d0e-9a51-6c2d8e0b4f17';
  const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
  const T0 = Date.parse('2026-12-05T09:00:00.000Z');
  const at = (s: number) => new Date(T0 + s * 1000).toISOString().replace('Z', '+00:00');
  /** One span as Phoenix exports it (its REST `Span`; the shape of github.com/Arize-ai/phoenix's pxi_turn_trace.json fixture): the kind a field of its own, attributes flattened. */
  const pspan = (id: string, parent: string | null, kind: string, name: string, s: number, attributes: Record<string, unknown> = {}) =>
    JSON.stringify({
      id: `U3Bhbjo${id}`,
      name,
      context: { trace_id: TRACE, span_id: id },
      span_kind: kind,
      parent_id: parent,
      start_time: at(s),
      end_time: at(s + 0.5),
      status_code: 'OK',
      status_message: '',
      attributes: { 'session.id': SESSION, ...attributes },
      events: [],
    });
  type Msg = [string, string] | ['assistant', { call: string; id: string }] | ['tool', { id: string; result: string }];
  const llm = (messages: Msg[], usage: [number, number, number]) => {
    const a: Record<string, unknown> = { 'llm.model_name': 'claude-sonnet-4-5', 'llm.provider': 'anthropic' };
    messages.forEach(([role, m], i) => {
      const p = `llm.input_messages.${i}.message`;
      a[`${p}.role`] = role;
      if (typeof m === 'string') a[`${p}.content`] = m;
      else if ('call' in m) {
        a[`${p}.tool_calls.0.tool_call.id`] = m.id;
        a[`${p}.tool_calls.0.tool_call.function.name`] = m.call;
        a[`${p}.tool_calls.0.tool_call.function.arguments`] = '{"task": "Count yesterday’s error spans per project."}';
      } else {
        a[`${p}.content`] = m.result;
        a[`${p}.tool_call_id`] = m.id;
      }
    });
    const [prompt, read, write] = usage;
    return {
      ...a,
      'llm.token_count.prompt': prompt,
      'llm.token_count.prompt_details.cache_read': read,
      'llm.token_count.prompt_details.cache_write': write,
      'llm.token_count.completion': 40,
    };
  };
  const MAIN: Msg[] = [
    ['system', 'You are PXI, the assistant inside Phoenix. Delegate data questions to the server agent with call_subagent.'],
    ['user', 'Which project logged the most errors yesterday?'],
  ];
  const SUB: Msg[] = [['system', 'You are the Phoenix GraphQL server agent. Answer with data from phoenix-gql only.']];
  const delegated = (id: string, result: string): Msg[] => [
    ['assistant', { call: 'call_subagent', id }],
    ['tool', { id, result }],
  ];
  const TASK1 = 'Count yesterday’s error spans per project.';
  const TASK2 = 'List the five slowest traces of project checkout yesterday.';
  // A turn of Phoenix's agent that delegates twice: the same sub-agent run twice (lines 3-7 and 9-11).
  const lines = [
    pspan('a1c0000000000001', null, 'AGENT', 'pxi.turn', 0, { 'input.value': 'Which project logged the most errors yesterday?' }), // 1
    pspan('b2c0000000000002', 'a1c0000000000001', 'LLM', 'claude-sonnet-4-5', 1, llm(MAIN, [2400, 0, 2200])), // 2: main, calls call_subagent
    pspan('c3c0000000000003', 'a1c0000000000001', 'TOOL', 'call_subagent', 2, { 'tool.name': 'call_subagent' }), // 3
    pspan('d4c0000000000004', 'c3c0000000000003', 'AGENT', 'ServerAgent.iter', 2.1), // 4
    pspan('e5c0000000000005', 'd4c0000000000004', 'LLM', 'claude-sonnet-4-5', 2.2, llm([...SUB, ['user', TASK1]], [1500, 0, 1400])), // 5: the sub-agent
    pspan('f6c0000000000006', 'd4c0000000000004', 'TOOL', 'bash', 3, { 'tool.name': 'bash' }), // 6
    pspan(
      'a7c0000000000007',
      'd4c0000000000004',
      'LLM',
      'claude-sonnet-4-5',
      4,
      llm([...SUB, ['user', TASK1], ['assistant', { call: 'bash', id: 'toolu_b1' }], ['tool', { id: 'toolu_b1', result: 'checkout 412, search 97' }]], [1700, 1400, 250]),
    ), // 7
    pspan('b8c0000000000008', 'a1c0000000000001', 'LLM', 'claude-sonnet-4-5', 6, llm([...MAIN, ...delegated('toolu_s1', 'checkout: 412 errors')], [2600, 2200, 350])), // 8: main
    pspan('c9c0000000000009', 'a1c0000000000001', 'TOOL', 'call_subagent', 7, { 'tool.name': 'call_subagent' }), // 9
    pspan('dac000000000000a', 'c9c0000000000009', 'AGENT', 'ServerAgent.iter', 7.1), // 10
    pspan('ebc000000000000b', 'dac000000000000a', 'LLM', 'claude-sonnet-4-5', 7.2, llm([...SUB, ['user', TASK2]], [1520, 1400, 100])), // 11: the sub-agent again
    pspan(
      'fcc000000000000c',
      'a1c0000000000001',
      'LLM',
      'claude-sonnet-4-5',
      9,
      llm([...MAIN, ...delegated('toolu_s1', 'checkout: 412 errors'), ...delegated('toolu_s2', 'trace 7a…: 8.2 s')], [2900, 2550, 330]),
    ), // 12: main
  ];
  const jsonlOf = (ls: string[]) => `${ls.join('\n')}\n`;
  const split = (t: string, file = 'pxi-turn.jsonl') => {
    const errors: InputError[] = [];
    const chunks = readChunks(t, file, errors);
    expect(errors.map(formatError)).toEqual([]);
    const ids = new Set<string>();
    const r = importCapture(chunks, { file, id: 'px', idOf: (c) => scenarioId('px', c, ids) });
    expect(r.errors.map(formatError)).toEqual([]);
    return r.conversations!;
  };
  const users = (yaml: string) => doc(yaml).events.map((e) => e.payload.body.input_messages.filter((m) => m.role === 'user').map((m) => m.parts[0]!.content));

  it('one scenario (--out): the session’s own calls, and the sub-agent calls said as left out with how to import them', () => {
    const { result, errors } = importTrace(jsonlOf(lines), { file: 'pxi-turn.jsonl', id: 'px' });
    expect(errors.map(formatError)).toEqual([]);
    expect(result!.requests).toBe(3);
    expect(doc(result!.yaml).events.map((e) => [e.t, e.payload.body.input_messages.length])).toEqual([
      ['0ms', 2],
      ['5s', 4],
      ['8s', 6],
    ]);
    expect(result!.leftOut).toEqual([
      { what: 'AGENT spans', count: 3, why: 'not model calls: only LLM spans record a request', line: 1 },
      { what: 'TOOL spans', count: 3, why: 'not model calls: only LLM spans record a request', line: 3 },
      {
        what: 'sub-agent calls (2 sub-agents)',
        count: 3,
        why: 'each sub-agent is a conversation of its own: import with --out-dir <folder> to get each as a scenario linked to this one (sharesCache)',
        line: 5,
      },
    ]);
  });

  it('--out-dir: each run of the sub-agent is a scenario of its own, sharing the session’s cache from the call sent before it; all check clean together', async () => {
    const [main, sub1, sub2] = split(jsonlOf(lines));
    expect([main, sub1, sub2].map((c) => [c!.id, c!.conversation, c!.result.requests, c!.lines])).toEqual([
      ['px-f3a9c2e1-77b4-4d0e-9a51-6c2d8e0b4f17', { by: 'session.id', key: SESSION }, 3, [2, 12]],
      // Named by the agent and the span it ran under (its caller's call_subagent): two runs, two conversations.
      ['px-serveragent-iter-c3c0000000000003', { by: SUB_AGENT, key: 'ServerAgent.iter c3c0000000000003' }, 2, [5, 7]],
      ['px-serveragent-iter-c9c0000000000009', { by: SUB_AGENT, key: 'ServerAgent.iter c9c0000000000009' }, 1, [11, 11]],
    ]);
    expect(users(main!.result.yaml)).toEqual([
      ['Which project logged the most errors yesterday?'],
      ['Which project logged the most errors yesterday?'],
      ['Which project logged the most errors yesterday?'],
    ]);
    expect(users(sub1!.result.yaml)).toEqual([[TASK1], [TASK1]]);
    // Each shares the session's cache from the session's call sent last before its first: @1 (+1 s) for the run at +2.2 s, @2 (+6 s) for the one at +7.2 s.
    expect([sub1!.result.sharesCache, sub2!.result.sharesCache]).toEqual([
      { scenario: main!.id, at: 1 },
      { scenario: main!.id, at: 2 },
    ]);
    expect(doc(sub1!.result.yaml).events.map((e) => e.t)).toEqual(['1.2s', '3s']);
    expect(doc(sub2!.result.yaml).events.map((e) => e.t)).toEqual(['1.2s']);
    expect(doc(sub1!.result.yaml).intro).toContain(`A sub-agent’s calls: it was started by the session imported as \`${main!.id}\`, after that scenario’s @1`);
    const r = await renderTexts(
      [main!, sub1!, sub2!].map((c) => ({ file: `scenarios/${c.id}.yaml`, text: c.result.yaml })),
      config,
      { everyEvent: false },
    );
    expect(r.errors.map(formatError)).toEqual([]);
  });

  /** The openai-agents shape as OTLP JSON: a root AGENT span per trace, the agents below it, a handoff's next agent a sibling, an agent called as a tool below the caller's function span. */
  const otlpAgents = (drop: readonly string[] = []) => {
    const ns = (s: number) => `${BigInt(T0 + s * 1000) * 1_000_000n}`;
    const attr = (key: string, v: unknown) => ({ key, value: typeof v === 'number' ? { intValue: String(v) } : { stringValue: String(v) } });
    const sp = (spanId: string, parentSpanId: string, kind: string, name: string, s: number, attributes: Record<string, unknown> = {}) => ({
      traceId: TRACE,
      spanId,
      ...(parentSpanId !== '' && { parentSpanId }),
      name,
      kind: 1,
      startTimeUnixNano: ns(s),
      endTimeUnixNano: ns(s + 0.5),
      attributes: Object.entries({ 'openinference.span.kind': kind, 'session.id': SESSION, ...attributes }).map(([k, v]) => attr(k, v)),
      status: { code: 1 },
    });
    const TRIAGE: Msg[] = [
      ['system', 'You are the triage agent of Harbor. Hand billing questions off to the Billing Agent.'],
      ['user', 'Why was I charged twice for invoice INV-1042?'],
    ];
    const BILLING: Msg[] = [
      ['system', 'You are the Billing Agent of Harbor. Use research_invoice for anything about an invoice.'],
      ['user', 'Why was I charged twice for invoice INV-1042?'],
    ];
    const spans = [
      sp('00f067aa0ba902b7', '', 'AGENT', 'Agent workflow', 0),
      sp('10f067aa0ba902b7', '00f067aa0ba902b7', 'AGENT', 'Triage Agent', 0.1, { 'agent.name': 'Triage Agent', 'graph.node.id': 'Triage Agent' }),
      sp('20f067aa0ba902b7', '10f067aa0ba902b7', 'LLM', 'response', 0.2, llm(TRIAGE, [1300, 0, 1200])),
      sp('30f067aa0ba902b7', '10f067aa0ba902b7', 'TOOL', 'handoff to Billing Agent', 1.5, { 'input.value': 'Triage Agent', 'output.value': 'Billing Agent' }),
      sp('40f067aa0ba902b7', '00f067aa0ba902b7', 'AGENT', 'Billing Agent', 1.6, {
        'agent.name': 'Billing Agent',
        'graph.node.id': 'Billing Agent',
        'graph.node.parent_id': 'Triage Agent',
      }),
      sp('50f067aa0ba902b7', '40f067aa0ba902b7', 'LLM', 'response', 1.7, llm(BILLING, [1500, 0, 1400])),
      sp('60f067aa0ba902b7', '40f067aa0ba902b7', 'TOOL', 'research_invoice', 3, { 'tool.name': 'research_invoice' }),
      sp('70f067aa0ba902b7', '60f067aa0ba902b7', 'AGENT', 'Invoice Researcher', 3.1, { 'agent.name': 'Invoice Researcher', 'graph.node.id': 'Invoice Researcher' }),
      sp('80f067aa0ba902b7', '70f067aa0ba902b7', 'LLM', 'response', 3.2, llm([...SUB, ['user', 'Find the payments of INV-1042.']], [1450, 0, 1300])),
      sp('90f067aa0ba902b7', '40f067aa0ba902b7', 'LLM', 'response', 5, llm([...BILLING, ...delegated('call_r1', 'Two card payments, one refunded on Dec 3.')], [1650, 1400, 200])),
    ].filter((x) => !drop.includes(x.spanId));
    return JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'openinference.instrumentation.openai_agents' }, spans }] }] }, null, 2);
  };

  it('OTLP JSON (openai-agents): an agent called as a tool is a sub-agent; the handoff’s agent and the root agent span are the session’s, as without the sub-agent', async () => {
    const [main, sub] = split(otlpAgents(), 'agents.json');
    expect([main, sub].map((c) => [c!.conversation, c!.result.requests])).toEqual([
      [{ by: 'session.id', key: SESSION }, 3],
      [{ by: SUB_AGENT, key: 'Invoice Researcher 60f067aa0ba902b7' }, 1],
    ]);
    expect(sub!.result.sharesCache).toEqual({ scenario: main!.id, at: 2 });
    // The session's scenario is the one the trace without the sub-agent's spans gives: the triage agent's call, then the billing agent's two.
    const [alone] = split(otlpAgents(['60f067aa0ba902b7', '70f067aa0ba902b7', '80f067aa0ba902b7']), 'agents.json');
    const events = (c: typeof main) => doc(c!.result.yaml).events.map((e) => [e.t, e.payload]);
    expect(events(main)).toEqual(events(alone));
    expect(events(main).map(([t]) => t)).toEqual(['0ms', '1.5s', '4.8s']);
    const r = await renderTexts(
      [main!, sub!].map((c) => ({ file: `scenarios/${c.id}.yaml`, text: c.result.yaml })),
      config,
      { everyEvent: false },
    );
    expect(r.errors.map(formatError)).toEqual([]);
  });

  it('span JSON (google-adk): the same agent called twice by one model response (two execute_tool spans below its call_llm span) is two conversations', () => {
    /** The specification's span JSON (github.com/Arize-ai/openinference spec/traces.md): the OpenTelemetry kind in `span_kind`, the OpenInference kind among the attributes. */
    const ospan = (id: string, parent: string | null, kind: string, name: string, s: number, attributes: Record<string, unknown> = {}) =>
      JSON.stringify({
        name,
        context: { trace_id: TRACE, span_id: id },
        span_kind: 'SPAN_KIND_INTERNAL',
        parent_id: parent,
        start_time: at(s),
        end_time: at(s + 0.5),
        status_code: 'OK',
        status_message: '',
        attributes: { 'openinference.span.kind': kind, 'session.id': SESSION, 'user.id': 'u-31', ...attributes },
        events: [],
      });
    const COORD: Msg[] = [
      ['system', 'You are the coordinator. Ask the researcher about each topic, in parallel.'],
      ['user', 'Compare our two cache layers.'],
    ];
    const R = (topic: string, more: Msg[] = []): Msg[] => [['system', 'You are the researcher. Search the design docs.'], ['user', topic], ...more];
    const searched: Msg[] = [
      ['assistant', { call: 'search_docs', id: 'fc_1' }],
      ['tool', { id: 'fc_1', result: '3 documents' }],
    ];
    const adk = [
      ospan('0a00000000000001', null, 'CHAIN', 'invocation [cache-review]', 0), // 1
      ospan('0a00000000000002', '0a00000000000001', 'AGENT', 'agent_run [coordinator]', 0.1, { 'agent.name': 'coordinator' }), // 2
      ospan('0a00000000000003', '0a00000000000002', 'LLM', 'call_llm', 0.2, llm(COORD, [1300, 0, 1200])), // 3: asks for two researcher calls
      ospan('0a00000000000004', '0a00000000000003', 'TOOL', 'execute_tool researcher', 1.5, { 'tool.name': 'researcher' }), // 4
      ospan('0a00000000000005', '0a00000000000004', 'CHAIN', 'invocation [researcher]', 1.6), // 5
      ospan('0a00000000000006', '0a00000000000005', 'AGENT', 'agent_run [researcher]', 1.7, { 'agent.name': 'researcher' }), // 6
      ospan('0a00000000000007', '0a00000000000003', 'TOOL', 'execute_tool researcher', 1.5, { 'tool.name': 'researcher' }), // 7
      ospan('0a00000000000008', '0a00000000000007', 'CHAIN', 'invocation [researcher]', 1.6), // 8
      ospan('0a00000000000009', '0a00000000000008', 'AGENT', 'agent_run [researcher]', 1.7, { 'agent.name': 'researcher' }), // 9
      // The two runs' calls interleave in time: one conversation would mix two prompts.
      ospan('0a0000000000000a', '0a00000000000006', 'LLM', 'call_llm', 2, llm(R('the CDN cache'), [1100, 0, 1050])), // 10
      ospan('0a0000000000000b', '0a00000000000009', 'LLM', 'call_llm', 2.1, llm(R('the query cache'), [1100, 1050, 0])), // 11
      ospan('0a0000000000000c', '0a00000000000006', 'LLM', 'call_llm', 3, llm(R('the CDN cache', searched), [1200, 1050, 100])), // 12
      ospan('0a0000000000000d', '0a00000000000009', 'LLM', 'call_llm', 3.1, llm(R('the query cache', searched), [1200, 1050, 100])), // 13
      ospan('0a0000000000000e', '0a00000000000002', 'LLM', 'call_llm', 5, llm([...COORD, ...delegated('fc_r1', 'CDN: 5 min TTL')], [1400, 1200, 150])), // 14
    ];
    const cs = split(jsonlOf(adk), 'adk.jsonl');
    expect(cs.map((c) => [c.conversation, c.lines, c.result.sharesCache])).toEqual([
      [{ by: 'session.id', key: SESSION }, [3, 14], undefined],
      [{ by: SUB_AGENT, key: 'researcher 0a00000000000004' }, [10, 12], { scenario: cs[0]!.id, at: 1 }],
      [{ by: SUB_AGENT, key: 'researcher 0a00000000000007' }, [11, 13], { scenario: cs[0]!.id, at: 1 }],
    ]);
    expect(cs.slice(1).map((c) => users(c.result.yaml))).toEqual([
      [['the CDN cache'], ['the CDN cache']],
      [['the query cache'], ['the query cache']],
    ]);
  });

  it('a partial export: calls whose parent chain the file does not hold stay in the session’s conversation; nothing is guessed', () => {
    // The first delegation's call_subagent span is not in the file (line 3 dropped): its sub-agent's calls cannot be told from the session's.
    const partial = split(jsonlOf(lines.filter((_, i) => i !== 2)));
    expect(partial.map((c) => [c.conversation.key, c.result.requests])).toEqual([
      [SESSION, 5],
      ['ServerAgent.iter c9c0000000000009', 1],
    ]);
    // An export of the LLM spans alone (Phoenix's span filter `span_kind == 'LLM'`): no parent at all, one conversation.
    const only = split(jsonlOf([1, 4, 6, 7, 10, 11].map((i) => lines[i]!)));
    expect(only.map((c) => [c.conversation.key, c.result.requests])).toEqual([[SESSION, 6]]);
    // Parents that loop (an edited file) end the chain rather than the import.
    const looped = lines.map((l) =>
      l.replace('"parent_id":"a1c0000000000001","start_time":"2026-12-05T09:00:07.000+00:00"', '"parent_id":"dac000000000000a","start_time":"2026-12-05T09:00:07.000+00:00"'),
    );
    expect(looped).not.toEqual(lines);
    expect(split(jsonlOf(looped)).map((c) => [c.conversation.key, c.result.requests])).toEqual([
      [SESSION, 4],
      ['ServerAgent.iter c3c0000000000003', 2],
    ]);
    // Even when the two agents are each other's ancestors: every call imported once, no error.
    const agentsLooped = lines.map((l, i) => (i === 0 ? l.replace('"parent_id":null', '"parent_id":"d4c0000000000004"') : l));
    expect(agentsLooped[0]).not.toBe(lines[0]);
    expect(split(jsonlOf(agentsLooped)).reduce((n, c) => n + c.result.requests, 0)).toBe(6);
  });
});

/**
 * Spans that record the request body (`input.value`, `application/json`), as the Anthropic and
 * OpenAI instrumentations write it (see openinference.ts's header): openinference-instrumentation-
 * anthropic 1.1.2 dumps the keyword arguments of `messages.create` — the body, with the SDK's own
 * request options such as `extra_headers` among them — beside the flattened messages. Our own
 * spans in that shape.
 */
describe('OpenInference spans that record the request body', () => {
  const SYSTEM = 'You are Harbor’s billing assistant. Answer from the invoice tools and say which one you used. '.repeat(70);
  const TOOLS = [{ name: 'get_invoice', description: 'Fetch one invoice by id.', input_schema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } }];
  const turns = [
    { role: 'user', content: 'Why is INV-1042 four cents higher than the quote?' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_invoice', input: { id: 'INV-1042' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '{"total": "104.04", "quote": "104.00"}' }] },
  ];
  /** The keyword arguments the application passed: a cache marker on the system prompt, a header the SDK sends apart. */
  const kwargs = (n: number) => ({
    max_tokens: 1024,
    messages: turns.slice(0, n),
    model: 'claude-sonnet-4-5',
    system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
    tools: TOOLS,
    extra_headers: { 'anthropic-beta': 'token-efficient-tools-2025-02-19' },
  });
  const flattened = (n: number) =>
    Object.fromEntries(
      turns.slice(0, n).flatMap((m, i) => [
        [`llm.input_messages.${i}.message.role`, m.role],
        [`llm.input_messages.${i}.message.content`, typeof m.content === 'string' ? m.content : JSON.stringify(m.content)],
      ]),
    );
  const anthropicSpan = (id: string, start: string, n: number, usage: Record<string, number>, body: unknown = kwargs(n)) =>
    span(
      {
        'openinference.span.kind': 'LLM',
        'llm.provider': 'anthropic',
        'llm.system': 'anthropic',
        'llm.model_name': 'claude-sonnet-4-5-20250929',
        'session.id': 'sess-7',
        'input.value': JSON.stringify(body),
        'input.mime_type': 'application/json',
        ...flattened(n),
        ...usage,
      },
      { id, start_time: start },
    );
  const usage1 = { 'llm.token_count.prompt': 2012, 'llm.token_count.prompt_details.cache_write': 1990, 'llm.token_count.completion': 40 };
  const usage2 = { 'llm.token_count.prompt': 2090, 'llm.token_count.prompt_details.cache_read': 1990, 'llm.token_count.completion': 30 };
  const two = [anthropicSpan('s1', '2026-12-01T10:00:00.000Z', 1, usage1), anthropicSpan('s2', '2026-12-01T10:00:03.000Z', 3, usage2)].join('\n');

  it('reads each body as sent, in its provider’s format — markers, system prompt and tools included, the SDK’s request options not', async () => {
    const r = importTrace(two, { file: 'spans.jsonl', id: 'oi-body' });
    expect(r.errors.map(formatError)).toEqual([]);
    const d = parse(r.result!.yaml) as { intro: string; events: { payload: Record<string, unknown> }[] };
    const [first, second] = withBodies(d.events as Ev[]) as unknown as { payload: { format: string; body: Record<string, unknown>; unrecorded?: string[] } }[];
    expect([first!.payload.format, second!.payload.format]).toEqual(['anthropic', 'anthropic']);
    const { extra_headers: _, ...sent } = kwargs(3);
    expect(second!.payload.body).toEqual(sent);
    // Nothing unrecorded: the page reads these as whole requests, and the intro says so.
    expect([first!.payload.unrecorded, second!.payload.unrecorded]).toEqual([undefined, undefined]);
    expect(d.intro.replace(/\s+/g, ' ')).toContain('Read from an OpenInference spans export: each request is the provider request body it recorded, as sent.');
    // With the marker the span recorded, the model caches the system prompt as the bill says: no "markers not in the capture".
    const corpus = await renderTexts([{ file: 'scenarios/oi-body.yaml', text: r.result!.yaml }], config, { everyEvent: false });
    expect(corpus.errors.map(formatError)).toEqual([]);
    const econ = corpus.economics.get('oi-body')!;
    expect(econ.requests.map((e) => e.cacheBreak?.cause)).not.toContain('markers-unrecorded');
    expect(econ.requests[0]!.cacheWriteTokens).toBeGreaterThan(1000);
    expect(econ.requests[1]!.cachedTokens).toBe(econ.requests[0]!.cacheWriteTokens);
  });

  it('where one call records no body, every call is rebuilt from the flattened attributes and says what it lacks', () => {
    const mixed = [anthropicSpan('s1', '2026-12-01T10:00:00.000Z', 1, usage1), anthropicSpan('s2', '2026-12-01T10:00:03.000Z', 3, usage2, 'chat input, not a body')].join('\n');
    const r = importTrace(mixed, { file: 'spans.jsonl', id: 'oi-mixed' });
    expect(r.errors.map(formatError)).toEqual([]);
    const d = parse(r.result!.yaml) as { intro: string; events: { payload: { format: string; unrecorded?: string[] } }[] };
    expect(d.events.map((e) => [e.payload.format, e.payload.unrecorded])).toEqual(Array(2).fill(['otel-genai', [BODY_UNRECORDED, MARKERS_UNRECORDED]]));
    expect(d.intro).toContain('does not record the request body as sent');
  });

  it('the provider the span names decides between formats a body fits (OpenAI Chat with max_tokens is not read as Anthropic)', () => {
    const chat = {
      model: 'gpt-4.1',
      max_tokens: 200,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
    };
    const line = (provider: string) =>
      span({
        'openinference.span.kind': 'LLM',
        'llm.provider': provider,
        'llm.model_name': 'gpt-4.1',
        'input.value': JSON.stringify(chat),
        'input.mime_type': 'application/json',
        'llm.input_messages.0.message.role': 'user',
        'llm.input_messages.0.message.content': 'Hello',
      });
    const format = (provider: string) =>
      (parse(importTrace(line(provider), { file: 'spans.jsonl', id: 'oi-chat' }).result!.yaml) as { events: { payload: { format: string } }[] }).events[0]!.payload.format;
    expect(format('openai')).toBe('openai-chat');
    // A provider no adapter is named for: the body is not taken as a known provider's, and the span is rebuilt.
    expect(format('acme')).toBe('otel-genai');
  });

  it('a secret inside the recorded body is dropped and located at the `input.value` attribute', () => {
    const leaked = { ...kwargs(1), messages: [{ role: 'user', content: 'use sk-ant-api03-fakefakefakefakefakefakefakefakefake to call it' }] };
    const text = anthropicSpan('s1', '2026-12-01T10:00:00.000Z', 1, usage1, leaked);
    const r = importTrace(text, { file: 'spans.jsonl', id: 'oi-secret' });
    expect(r.errors.map(formatError)).toEqual([]);
    expect(r.result!.yaml).not.toContain('sk-ant-api03-fake');
    const d = r.result!.dropped[0]!;
    expect(d.pos.line).toBe(1);
    expect(text.slice(d.pos.col - 1 - '"input.value":'.length, d.pos.col - 1)).toBe('"input.value":');
  });
});
