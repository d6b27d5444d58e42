/**
 * OpenInference spans (captures/openinference.ts): the bundled export (examples/traces/, written for
 * this project) of two sessions becomes one scenario per `session.id` with its messages, tools,
 * model and usage — the cached split read where the span records it and said to be ambiguous where
 * it does not; the same spans as OTLP JSON give the same requests; hostile exports are errors at
 * their line and column; secrets are dropped at their attribute; markup stays text.
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
import { AMBIGUOUS_USAGE } from './openinference.ts';
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
