/**
 * Phoenix span exports (captures/openinference.ts): the shapes Arize Phoenix hands spans out in —
 * its REST API's span objects (`src/phoenix/server/api/routers/v1/spans.py` `Span`: `span_id`,
 * `trace_id`, `span_kind` as a field of its own, `start_time`, `attributes` nested as Phoenix stores
 * them), saved as a JSON list or as the API's page `{"data": [...], "next_cursor"}`; and the
 * spans dataframe written with pandas' `to_json(orient="records")` (one `attributes.<key>` column per
 * attribute, `context.span_id`, `start_time` in Unix milliseconds). Small fixtures written here in
 * those shapes.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { formatError, type InputError } from '../../scenarios/errors.ts';
import { importTrace } from '../index.ts';
import { LeftOutTally } from '../left-out.ts';
import { readChunks } from '../read.ts';
import { openinference } from './openinference.ts';
import { withBodies } from '../../../tests/support/imported.ts';

type Ev = { t: string; payload: { format: string; measured?: Record<string, number>; body: { model: string; input_messages: { role: string; parts: { content?: string }[] }[] } } };

/** A Phoenix REST span: attributes nested as Phoenix keeps them (no `openinference.span.kind` among them). */
const restSpan = (id: string, kind: string, start: string, attributes: Record<string, unknown>) => ({
  id: `U3Bhbjo${id}`,
  span_id: id,
  trace_id: 'a1b2c3',
  name: kind === 'LLM' ? 'ChatAnthropic' : 'agent',
  span_kind: kind,
  parent_id: kind === 'LLM' ? 'root' : null,
  start_time: start,
  end_time: start,
  status_code: 'OK',
  status_message: '',
  events: [],
  attributes,
});
const llmAttrs = (messages: [string, string][], prompt: number, read: number) => ({
  llm: {
    model_name: 'claude-sonnet-4-5',
    input_messages: messages.map(([role, content]) => ({ message: { role, content } })),
    token_count: { prompt, completion: 12, prompt_details: { cache_read: read, cache_write: 0 } },
  },
  session: { id: 'sess-1' },
});
const spans = [
  restSpan('root', 'CHAIN', '2026-12-01T10:00:00.000000+00:00', { input: { value: 'hi' } }),
  restSpan(
    's1',
    'LLM',
    '2026-12-01T10:00:00.100000+00:00',
    llmAttrs(
      [
        ['system', 'Be brief.'],
        ['user', 'Hello'],
      ],
      1500,
      0,
    ),
  ),
  restSpan(
    's2',
    'LLM',
    '2026-12-01T10:00:03.100000+00:00',
    llmAttrs(
      [
        ['system', 'Be brief.'],
        ['user', 'Hello'],
        ['assistant', 'Hi'],
        ['user', 'Again'],
      ],
      1520,
      1490,
    ),
  ),
];

function imported(text: string, file = 'spans.json') {
  const { result, errors } = importTrace(text, { file, id: 'px' });
  expect(errors.map(formatError)).toEqual([]);
  return { result: result!, events: withBodies((parse(result!.yaml) as { events: Ev[] }).events) };
}

describe('Phoenix span exports', () => {
  it('a JSON list of REST spans (top-level span_kind, nested attributes): each LLM span a request, with its usage and time', () => {
    const { result, events } = imported(JSON.stringify(spans, null, 2));
    expect(result.format).toBe('otel-genai');
    expect(events.map((e) => [e.t, e.payload.body.model, e.payload.body.input_messages.map((m) => m.role).join(',')])).toEqual([
      ['0ms', 'claude-sonnet-4-5', 'system,user'],
      ['3s', 'claude-sonnet-4-5', 'system,user,assistant,user'],
    ]);
    expect(events.map((e) => e.payload.measured)).toEqual([
      { inputTokens: 1500, cachedTokens: 0, cacheWriteTokens: 0, outputTokens: 12 },
      { inputTokens: 1520, cachedTokens: 1490, cacheWriteTokens: 0, outputTokens: 12 },
    ]);
  });

  it('the CHAIN span is left out and said', () => {
    const errors: InputError[] = [];
    const chunks = readChunks(JSON.stringify(spans, null, 2), 'spans.json', errors);
    const tally = new LeftOutTally();
    expect(openinference.detect(chunks)).toBe(true);
    expect(openinference.requests(chunks, 'spans.json', errors, tally)).toHaveLength(2);
    expect(tally.list()).toEqual([{ what: 'CHAIN spans', count: 1, why: 'not model calls: only LLM spans record a request', line: 2 }]);
  });

  it('the REST API page ({"data": [...], "next_cursor"}) reads the same', () => {
    const { events } = imported(JSON.stringify({ data: spans, next_cursor: null }));
    expect(events).toHaveLength(2);
  });

  it('the spans dataframe as pandas writes it: `attributes.*` columns, `context.span_id`, start_time in Unix ms', () => {
    const row = (id: string, start: number, kind: string, messages: { 'message.role': string; 'message.content': string }[] | null) => ({
      name: 'llm',
      span_kind: kind,
      parent_id: null,
      start_time: start,
      end_time: start + 900,
      status_code: 'OK',
      'context.span_id': id,
      'context.trace_id': 't1',
      'attributes.llm.model_name': kind === 'LLM' ? 'gpt-4.1' : null,
      'attributes.llm.input_messages': messages,
      'attributes.llm.token_count.prompt': kind === 'LLM' ? 2100 : null,
      'attributes.llm.token_count.prompt_details.cache_read': kind === 'LLM' ? 2048 : null,
      'attributes.input.value': kind === 'LLM' ? null : 'a question',
    });
    const records = [row('r0', 1764583200000, 'AGENT', null), row('r1', 1764583201500, 'LLM', [{ 'message.role': 'user', 'message.content': 'What is due?' }])];
    const { events } = imported(JSON.stringify(records), 'spans_df.json');
    expect(events.map((e) => [e.t, e.payload.body.model, e.payload.body.input_messages[0]!.parts[0]!.content, e.payload.measured])).toEqual([
      ['0ms', 'gpt-4.1', 'What is due?', { inputTokens: 2100, cachedTokens: 2048 }],
    ]);
  });
});
