/**
 * OpenTelemetry GenAI spans as instrumentations really wrote them (genai-spans.ts,
 * genai-messages.ts): messages in the conventions' older shapes — `{role, content}` in
 * `gen_ai.input.messages`, OpenLLMetry's indexed `gen_ai.prompt.<i>.*`, the `gen_ai.prompt` event of
 * semconv ≤ 1.27, the message events of 1.28–1.36, Logfire's `events` attribute — and the SDK's own
 * span JSON (Python's ConsoleSpanExporter), read into the current `{role, parts}` shape instead of
 * being refused with a fix that edits the user's file. Small fixtures written here in those shapes.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { MARKERS_UNRECORDED } from '../economics/measured.ts';
import { formatError } from '../scenarios/errors.ts';
import { importTrace } from './index.ts';

type Part = Record<string, unknown>;
type Ev = {
  t: string;
  payload: {
    format: string;
    measured?: Record<string, number>;
    unrecorded?: string[];
    body: { model: string; input_messages: { role: string; parts: Part[] }[]; tool_definitions?: Part[] };
  };
};

function imported(text: string, file = 'spans.json') {
  const { result, errors } = importTrace(text, { file, id: 'g' });
  expect(errors.map(formatError)).toEqual([]);
  return { result: result!, events: (parse(result!.yaml) as { events: Ev[] }).events };
}

const kv = (attrs: Record<string, unknown>) =>
  Object.entries(attrs).map(([key, v]) => ({ key, value: typeof v === 'number' ? { intValue: String(v) } : { stringValue: typeof v === 'string' ? v : JSON.stringify(v) } }));
const otlp = (spans: unknown[]) => JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'x' }, spans }] }] }, null, 2);
const otlpSpan = (id: string, start: string, attrs: Record<string, unknown>, events: unknown[] = []) => ({
  traceId: 't',
  spanId: id,
  name: 'chat',
  kind: 3,
  startTimeUnixNano: start,
  endTimeUnixNano: start,
  attributes: kv(attrs),
  events,
});

describe('GenAI spans in the older message shapes', () => {
  it('`gen_ai.input.messages` of {role, content} (string content, OpenAI tool_calls, a tool message) → {role, parts}', () => {
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
    ];
    const { events } = imported(
      otlp([
        otlpSpan('s1', '1764583200000000000', {
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4.1',
          'gen_ai.input.messages': messages,
          'gen_ai.usage.input_tokens': 1300,
          'gen_ai.usage.cache_read.input_tokens': 1024,
        }),
      ]),
    );
    expect(events[0]!.payload.body.input_messages).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'Be brief.' }] },
      { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] },
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_1', response: '18°C' }] },
    ]);
    expect(events[0]!.payload.measured).toEqual({ inputTokens: 1300, cachedTokens: 1024 });
  });

  it("OpenLLMetry's indexed gen_ai.prompt.<i>.* (block lists as JSON text), llm.request.functions.*, and the older usage names", () => {
    const { events } = imported(
      otlp([
        otlpSpan('s1', '1764583200000000000', {
          'gen_ai.system': 'Anthropic',
          'gen_ai.request.model': 'claude-sonnet-4-5',
          'gen_ai.prompt.0.role': 'system',
          'gen_ai.prompt.0.content': 'You are terse.',
          'gen_ai.prompt.1.role': 'user',
          'gen_ai.prompt.1.content': JSON.stringify([
            { type: 'text', text: 'Look at this' },
            { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
          ]),
          'gen_ai.prompt.2.role': 'assistant',
          'gen_ai.prompt.2.content': '',
          'gen_ai.prompt.2.tool_calls.0.id': 'toolu_1',
          'gen_ai.prompt.2.tool_calls.0.name': 'zoom',
          'gen_ai.prompt.2.tool_calls.0.arguments': '{"factor": 2}',
          'gen_ai.prompt.3.role': 'user',
          'gen_ai.prompt.3.content': JSON.stringify([{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'zoomed' }]),
          'llm.request.functions.0.name': 'zoom',
          'llm.request.functions.0.description': 'Zoom in',
          'llm.request.functions.0.input_schema': '{"type": "object"}',
          'gen_ai.usage.prompt_tokens': 2100,
          'gen_ai.usage.completion_tokens': 40,
          'gen_ai.usage.cache_read_input_tokens': 2000,
          'gen_ai.usage.cache_creation_input_tokens': 90,
        }),
      ]),
    );
    const body = events[0]!.payload.body;
    expect(body.input_messages.map((m) => [m.role, m.parts.map((p) => p.type).join(',')])).toEqual([
      ['system', 'text'],
      ['user', 'text,image'],
      ['assistant', 'text,tool_call'],
      ['user', 'tool_call_response'],
    ]);
    expect(body.input_messages[2]!.parts[1]).toEqual({ type: 'tool_call', id: 'toolu_1', name: 'zoom', arguments: { factor: 2 } });
    expect(body.tool_definitions).toEqual([{ type: 'function', name: 'zoom', description: 'Zoom in', parameters: { type: 'object' } }]);
    expect(events[0]!.payload.measured).toEqual({ inputTokens: 2100, cachedTokens: 2000, cacheWriteTokens: 90, outputTokens: 40 });
  });

  it('a usage problem under an older name is said under that name, at that attribute', () => {
    const text = otlp([
      otlpSpan('s1', '1764583200000000000', {
        'gen_ai.request.model': 'claude-sonnet-4-5',
        'gen_ai.input.messages': [{ role: 'user', content: 'hi' }],
        'gen_ai.usage.prompt_tokens': 'many',
      }),
    ]);
    const { errors } = importTrace(text, { file: 'x.json', id: 'g' });
    const line = text.split('\n').findIndex((l) => l.includes('"key": "gen_ai.usage.prompt_tokens"')) + 2;
    expect(errors.map(formatError)[0]!.split('\n')[0]).toMatch(
      new RegExp(`^x\\.json:${line}:\\d+ error: GenAI span usage: \`gen_ai\\.usage\\.prompt_tokens\` must be a whole number of tokens`),
    );
  });

  it('a message without a role is an error at its attribute, with no edit of the file suggested beyond re-exporting', () => {
    const text = otlp([otlpSpan('s1', '1764583200000000000', { 'gen_ai.request.model': 'gpt-4.1', 'gen_ai.input.messages': [{ content: 'hi' }] })]);
    const { errors } = importTrace(text, { file: 'x.json', id: 'g' });
    const e = errors.map(formatError)[0]!;
    const line = text.split('\n').findIndex((l) => l.includes('"key": "gen_ai.input.messages"')) + 2;
    expect(e.split('\n')[0]).toMatch(new RegExp(`^x\\.json:${line}:\\d+ error: \`gen_ai\\.input\\.messages\` message 0: a message has no \`role\`$`));
    expect(e).not.toContain('parts');
  });
});

/** One span as the Python SDK's ConsoleSpanExporter prints it: `span.to_json()` (indent 4), one after another. */
const sdkSpan = (name: string, id: string, start: string, attributes: Record<string, unknown>, events: unknown[] = []) =>
  JSON.stringify(
    {
      name,
      context: { trace_id: '0x5b8aa5a2d2c872e8321cf37308d69df2', span_id: id, trace_state: '[]' },
      kind: 'SpanKind.CLIENT',
      parent_id: null,
      start_time: start,
      end_time: start,
      status: { status_code: 'UNSET' },
      attributes,
      events,
      links: [],
      resource: { attributes: { 'service.name': 'agent' }, schema_url: '' },
    },
    null,
    4,
  );

describe("the OpenTelemetry SDK's span JSON (ConsoleSpanExporter)", () => {
  it('pretty-printed spans one after another: semconv 1.26 prompt events and 1.28 message events, microsecond times, a non-GenAI span left out', () => {
    const text = [
      sdkSpan('GET /health', '0x01', '2026-12-01T10:00:00.000000Z', { 'http.method': 'GET' }),
      sdkSpan(
        'chat gpt-4o',
        '0x02',
        '2026-12-01T10:00:01.250000Z',
        { 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 1200, 'gen_ai.usage.output_tokens': 9 },
        [{ name: 'gen_ai.content.prompt', timestamp: '2026-12-01T10:00:01.250100Z', attributes: { 'gen_ai.prompt': JSON.stringify([{ role: 'user', content: 'Hi' }]) } }],
      ),
      sdkSpan('chat gpt-4o', '0x03', '2026-12-01T10:00:04.000250Z', { 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o' }, [
        { name: 'gen_ai.system.message', timestamp: '2026-12-01T10:00:04.0003Z', attributes: { 'gen_ai.system': 'openai', content: 'Be brief.' } },
        { name: 'gen_ai.user.message', timestamp: '2026-12-01T10:00:04.0003Z', attributes: { 'gen_ai.system': 'openai', content: 'Hi' } },
        { name: 'gen_ai.assistant.message', timestamp: '2026-12-01T10:00:04.0003Z', attributes: { 'gen_ai.system': 'openai', content: 'Hello!' } },
        { name: 'gen_ai.user.message', timestamp: '2026-12-01T10:00:04.0003Z', attributes: { 'gen_ai.system': 'openai', content: 'Again' } },
      ]),
    ].join('\n');
    const { result, events } = imported(text, 'console.txt');
    expect(result.format).toBe('otel-genai');
    expect(events.map((e) => [e.t, e.payload.body.input_messages.map((m) => `${m.role}:${m.parts.map((p) => p.content).join('')}`).join(' | ')])).toEqual([
      ['0ms', 'user:Hi'],
      ['2.75s', 'system:Be brief. | user:Hi | assistant:Hello! | user:Again'],
    ]);
    expect(events[0]!.payload.measured).toEqual({ inputTokens: 1200, outputTokens: 9 });
    expect(result.leftOut).toEqual([
      { what: 'spans without recorded input messages', count: 1, why: 'no `gen_ai.input.messages`, `gen_ai.prompt` or message events: not a request to rebuild', line: 1 },
    ]);
  });

  it("Logfire / pydantic-ai's `events` attribute (the message events as one JSON list) in the SDK's span JSON, one span per line", () => {
    const events = [
      { 'event.name': 'gen_ai.system.message', role: 'system', content: 'You are a helpful assistant.' },
      { 'event.name': 'gen_ai.user.message', role: 'user', content: 'What is 2+2?' },
      { 'event.name': 'gen_ai.choice', index: 0, message: { role: 'assistant', content: '4' } },
    ];
    const line = JSON.stringify(
      JSON.parse(
        sdkSpan('chat claude-sonnet-4-5', '0x0a', '2026-12-01T10:00:00Z', {
          'gen_ai.system': 'anthropic',
          'gen_ai.request.model': 'claude-sonnet-4-5',
          events: JSON.stringify(events),
        }),
      ),
    );
    const { events: ev } = imported(line, 'spans.jsonl');
    expect(ev[0]!.payload.body.input_messages).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'You are a helpful assistant.' }] },
      { role: 'user', parts: [{ type: 'text', content: 'What is 2+2?' }] },
    ]);
  });

  it("message events in other instrumentations' attribute shapes: Strands' JSON block list, Azure AI's `gen_ai.event.content`", () => {
    const text = sdkSpan('chat', '0x0b', '2026-12-01T10:00:00Z', { 'gen_ai.system': 'az.ai.agents', 'gen_ai.request.model': 'gpt-4o' }, [
      { name: 'gen_ai.user.message', timestamp: '2026-12-01T10:00:00Z', attributes: { content: JSON.stringify([{ text: 'From Strands' }]) } },
      { name: 'gen_ai.user.message', timestamp: '2026-12-01T10:00:00Z', attributes: { 'gen_ai.event.content': JSON.stringify({ content: 'From Azure', role: 'user' }) } },
    ]);
    const { events } = imported(text);
    expect(events[0]!.payload.body.input_messages).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'From Strands' }] },
      { role: 'user', parts: [{ type: 'text', content: 'From Azure' }] },
    ]);
  });

  it("Mirascope's `with_otel` span: its `gen_ai.content.prompt` event holds one message object (the call's last user message), read as that message, the rest said unrecorded", () => {
    // The shape of Mirascope's documented example output (semconv 1.26 names; `gen_ai.system` holds the prompt template, "" without one).
    const text = sdkSpan(
      'recommend_book',
      '0x0c',
      '2026-12-01T10:00:00.340006Z',
      {
        'gen_ai.system': '',
        'gen_ai.request.model': 'claude-sonnet-4-5',
        'gen_ai.request.max_tokens': 0,
        'gen_ai.response.finish_reasons': ['end_turn'],
        'gen_ai.usage.completion_tokens': 40,
        'gen_ai.usage.prompt_tokens': 14,
        async: false,
      },
      [
        { name: 'gen_ai.content.prompt', timestamp: '2026-12-01T10:00:00.341924Z', attributes: { 'gen_ai.prompt': JSON.stringify({ content: 'Name a river', role: 'user' }) } },
        {
          name: 'gen_ai.content.completion',
          timestamp: '2026-12-01T10:00:00.341931Z',
          attributes: { 'gen_ai.completion': JSON.stringify({ content: [{ text: 'The Nile.', type: 'text' }], role: 'assistant' }) },
        },
      ],
    );
    const { events } = imported(text, 'mirascope.json');
    expect(events).toHaveLength(1);
    expect(events[0]!.payload.body.input_messages).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'Name a river' }] }]);
    expect(events[0]!.payload.unrecorded).toEqual(["the prompt's other messages (its `gen_ai.prompt` holds one message)", MARKERS_UNRECORDED]);
    expect(events[0]!.payload.measured).toEqual({ inputTokens: 14, outputTokens: 40 });
  });

  it("Mirascope's `gen_ai.system` holds the call's prompt template, not a provider: two calls with different templates import as one scenario", () => {
    const call = (id: string, start: string, template: string, ask: string) =>
      sdkSpan(
        'recommend',
        id,
        start,
        { 'gen_ai.system': template, 'gen_ai.request.model': 'claude-sonnet-4-5', 'gen_ai.usage.prompt_tokens': 20, 'gen_ai.usage.completion_tokens': 5 },
        [{ name: 'gen_ai.content.prompt', timestamp: start, attributes: { 'gen_ai.prompt': JSON.stringify({ content: ask, role: 'user' }) } }],
      );
    const text = [
      call('0x10', '2026-12-01T10:00:00Z', 'Recommend a {genre} book', 'Recommend a fantasy book'),
      call('0x11', '2026-12-01T10:00:05Z', 'Name a {kind} river', 'Name a long river'),
    ].join('\n');
    const { events } = imported(text);
    expect(events.map((e) => e.payload.body.input_messages[0]!.parts[0]!.content)).toEqual(['Recommend a fantasy book', 'Name a long river']);
    // Two provider names still are two providers.
    const mixed = text
      .replace('"gen_ai.system": "Recommend a {genre} book"', '"gen_ai.system": "openai"')
      .replace('"gen_ai.system": "Name a {kind} river"', '"gen_ai.system": "anthropic"');
    expect(importTrace(mixed, { file: 's.json', id: 'g' }).errors.map(formatError)[0]).toMatch(
      /this span's provider is `anthropic`, but an earlier span's \(line \d+\) is `openai`/,
    );
  });

  it('Mirascope writes "" for a count the response did not report: read as no figure, not refused', () => {
    const text = sdkSpan(
      'recommend_book',
      '0x0f',
      '2026-12-01T10:00:00Z',
      { 'gen_ai.system': '', 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.usage.completion_tokens': '', 'gen_ai.usage.prompt_tokens': '' },
      [{ name: 'gen_ai.content.prompt', timestamp: '2026-12-01T10:00:00Z', attributes: { 'gen_ai.prompt': JSON.stringify({ content: 'Name a river', role: 'user' }) } }],
    );
    const { events } = imported(text);
    expect(events[0]!.payload.measured).toBeUndefined();
    // A count Mirascope did report stands beside one it left empty.
    const some = text.replace('"gen_ai.usage.prompt_tokens": ""', '"gen_ai.usage.prompt_tokens": 12');
    expect(imported(some).events[0]!.payload.measured).toEqual({ inputTokens: 12 });
    // Any other text is still an error at the attribute.
    const { errors } = importTrace(text.replace('"gen_ai.usage.prompt_tokens": ""', '"gen_ai.usage.prompt_tokens": "n/a"'), { file: 's.json', id: 'g' });
    expect(errors.map(formatError)[0]).toMatch(/GenAI span usage: `gen_ai\.usage\.prompt_tokens` must be a whole number of tokens \(0 or more\), got "n\/a"/);
  });

  it("a `gen_ai.prompt` list in the conventions' shape is the whole prompt: only the cache markers (no attribute of the conventions holds one) said unrecorded", () => {
    const text = sdkSpan('chat', '0x0d', '2026-12-01T10:00:00Z', { 'gen_ai.request.model': 'gpt-4o' }, [
      {
        name: 'gen_ai.content.prompt',
        timestamp: '2026-12-01T10:00:00Z',
        attributes: {
          'gen_ai.prompt': JSON.stringify([
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Hi' },
          ]),
        },
      },
    ]);
    const { events } = imported(text);
    expect(events[0]!.payload.body.input_messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(events[0]!.payload.unrecorded).toEqual([MARKERS_UNRECORDED]);
  });

  it("a prompt event's message without a role is an error at that event's attribute, not at the span", () => {
    const text = sdkSpan('chat', '0x0e', '2026-12-01T10:00:00Z', { 'gen_ai.request.model': 'gpt-4o' }, [
      { name: 'gen_ai.content.prompt', timestamp: '2026-12-01T10:00:00Z', attributes: { 'gen_ai.prompt': JSON.stringify({ content: 'Hi' }) } },
    ]);
    const { errors } = importTrace(text, { file: 's.json', id: 'g' });
    const line = text.split('\n').findIndex((l) => l.includes('"gen_ai.prompt":')) + 1;
    expect(line).toBeGreaterThan(1);
    expect(errors.map(formatError)[0]!.split('\n')[0]).toMatch(new RegExp(`^s\\.json:${line}:\\d+ error: \`gen_ai\\.prompt\`: the messages are not a list$`));
  });

  it('a start time that is not an instant is an error at it', () => {
    const text = sdkSpan('chat', '0x01', 'yesterday', { 'gen_ai.request.model': 'gpt-4o', 'gen_ai.input.messages': [{ role: 'user', content: 'x' }] });
    const { errors } = importTrace(text, { file: 's.json', id: 'g' });
    expect(errors.map(formatError)[0]).toMatch(/^s\.json:10:19 error: `start_time` is not an ISO-8601 instant/);
  });
});
