/**
 * AI SDK telemetry exported as OTLP JSON (captures/ai-sdk-telemetry.ts), in the shape AI SDK 6
 * writes it (the sources its reader names): a `streamText` call's span, one `ai.streamText.doStream` span per model request carrying
 * `ai.prompt.messages` / `ai.prompt.tools` as JSON text and the version-6 usage, and a tool call's
 * span. Our own spans in that shape. An Anthropic call becomes the body `@ai-sdk/anthropic` sends,
 * its prompt's cache markers included; another provider's a GenAI body that says what it lacks;
 * older usage is not guessed; broken exports are errors at the attribute.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUILTIN_FOLDS } from '../../builtin-folds/index.ts';
import { renderTexts } from '../../corpus/check.ts';
import { measuredComparison, MARKERS_UNRECORDED, PARAMETERS_UNRECORDED } from '../../economics/measured.ts';
import { billedOf } from '../../economics/billed.ts';
import { DEFAULT_ECONOMICS } from '../../economics/profiles.ts';
import { billedLede, billedText } from '../../render/billed-lede.ts';
import { formatError } from '../../scenarios/errors.ts';
import { withBodies } from '../../../tests/support/imported.ts';
import { importTrace } from '../index.ts';
import { AI_SDK_AMBIGUOUS, AI_SDK_BODY_UNRECORDED } from './ai-sdk-telemetry.ts';

type Attr = { key: string; value: Record<string, unknown> };
const value = (v: unknown): Record<string, unknown> =>
  Array.isArray(v) ? { arrayValue: { values: v.map(value) } } : typeof v === 'number' ? { intValue: String(v) } : { stringValue: String(v) };
const attrs = (o: Record<string, unknown>): Attr[] => Object.entries(o).map(([key, v]) => ({ key, value: value(v) }));
const ns = (iso: string) => `${BigInt(Date.parse(iso)) * 1_000_000n}`;

const SYSTEM = 'You are Harbor’s billing assistant. Read the invoice with the tool before you answer, and say which tool you used. '.repeat(50);
const TOOL = {
  type: 'function',
  name: 'get_invoice',
  description: 'Fetch one invoice by id.',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
};
const system = { role: 'system', content: SYSTEM, providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } };
const user = { role: 'user', content: [{ type: 'text', text: 'Why is INV-1042 four cents over the quote?' }] };
const call = { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'toolu_01', toolName: 'get_invoice', input: { id: 'INV-1042' } }] };
const result = {
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: 'toolu_01', toolName: 'get_invoice', output: { type: 'json', value: { total: '104.04', quote: '104.00' } } }],
};

/** One model request's span, as AI SDK 6 writes it. */
function doStream(id: string, at: string, prompt: unknown[], usage: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    traceId: 'a1',
    spanId: id,
    parentSpanId: 'root',
    name: 'ai.streamText.doStream',
    startTimeUnixNano: ns(at),
    attributes: attrs({
      'operation.name': 'ai.streamText.doStream',
      'ai.operationId': 'ai.streamText.doStream',
      'ai.model.provider': 'anthropic.messages',
      'ai.model.id': 'claude-sonnet-4-5',
      'ai.prompt.messages': JSON.stringify(prompt),
      'ai.prompt.tools': [JSON.stringify(TOOL)],
      'ai.prompt.toolChoice': JSON.stringify({ type: 'auto' }),
      'gen_ai.system': 'anthropic.messages',
      'gen_ai.request.model': 'claude-sonnet-4-5',
      'gen_ai.request.max_tokens': 1024,
      'ai.telemetry.metadata.sessionId': 'chat-88',
      ...usage,
      ...extra,
    }),
  };
}
const v6 = (total: number, read: number, write: number) => ({
  'ai.usage.inputTokens': total,
  'ai.usage.inputTokenDetails.noCacheTokens': total - read - write,
  'ai.usage.inputTokenDetails.cacheReadTokens': read,
  'ai.usage.inputTokenDetails.cacheWriteTokens': write,
  'ai.usage.outputTokens': 40,
});
const otlp = (spans: unknown[]) =>
  JSON.stringify({ resourceSpans: [{ resource: { attributes: attrs({ 'service.name': 'harbor' }) }, scopeSpans: [{ scope: { name: 'ai' }, spans }] }] }, null, 2);
const parent = {
  traceId: 'a1',
  spanId: 'root',
  name: 'ai.streamText',
  startTimeUnixNano: ns('2026-12-01T10:00:00.000Z'),
  attributes: attrs({ 'ai.operationId': 'ai.streamText' }),
};
const tool = {
  traceId: 'a1',
  spanId: 't1',
  parentSpanId: 'root',
  name: 'ai.toolCall',
  startTimeUnixNano: ns('2026-12-01T10:00:02.000Z'),
  attributes: attrs({ 'ai.operationId': 'ai.toolCall', 'ai.toolCall.name': 'get_invoice' }),
};
const AGENT = otlp([
  parent,
  doStream('s1', '2026-12-01T10:00:00.100Z', [system, user], v6(2100, 0, 2060)),
  tool,
  doStream('s2', '2026-12-01T10:00:02.500Z', [system, user, call, result], v6(2190, 2060, 0)),
]);

type Payload = { format: string; body: Record<string, unknown>; unrecorded?: string[]; measured?: Record<string, number> };
const events = (yaml: string) => withBodies((parse(yaml) as { events: { payload: Payload }[] }).events) as unknown as { payload: Payload }[];
const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'requests' };

describe('AI SDK telemetry spans', () => {
  it('each doStream span is a request: an Anthropic call as the body @ai-sdk/anthropic sends, its cache marker included; other spans left out and counted', () => {
    const r = importTrace(AGENT, { file: 'ai-sdk.json', id: 'ai' });
    expect(r.errors.map(formatError)).toEqual([]);
    const [first, second] = events(r.result!.yaml);
    expect([first!.payload.format, second!.payload.format]).toEqual(['anthropic', 'anthropic']);
    expect(second!.payload.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Why is INV-1042 four cents over the quote?' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_invoice', input: { id: 'INV-1042' } }] },
        // The tool message is a user turn, its JSON output as JSON text.
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '{"total":"104.04","quote":"104.00"}' }] },
      ],
      tools: [{ name: 'get_invoice', description: 'Fetch one invoice by id.', input_schema: TOOL.inputSchema }],
      tool_choice: { type: 'auto' },
    });
    expect(first!.payload.measured).toEqual({ inputTokens: 2100, cachedTokens: 0, cacheWriteTokens: 2060, outputTokens: 40 });
    expect(second!.payload.measured).toEqual({ inputTokens: 2190, cachedTokens: 2060, cacheWriteTokens: 0, outputTokens: 40 });
    // What the span does not record: settings, not text — no "tokens the page cannot show".
    expect(second!.payload.unrecorded).toEqual([PARAMETERS_UNRECORDED]);
    expect(r.result!.leftOut).toEqual([
      { what: '`ai.streamText` spans', count: 1, why: 'not a model request: the AI SDK records each request as a `doGenerate` / `doStream` span', line: expect.any(Number) },
      { what: '`ai.toolCall` spans', count: 1, why: 'not a model request: the AI SDK records each request as a `doGenerate` / `doStream` span', line: expect.any(Number) },
    ]);
    expect(r.result!.yaml).toContain('2.4s');
    // The tool choice as the package sends it: `required` is Anthropic's `any`; `none` sends no tools at all.
    const chose = (toolChoice: unknown) =>
      events(
        importTrace(otlp([doStream('s1', '2026-12-01T10:00:00.100Z', [system, user], v6(2100, 0, 2060), { 'ai.prompt.toolChoice': JSON.stringify(toolChoice) })]), {
          file: 'a.json',
          id: 'a',
        }).result!.yaml,
      )[0]!.payload.body;
    expect(chose({ type: 'required' })).toMatchObject({ tool_choice: { type: 'any' } });
    expect(chose({ type: 'tool', toolName: 'get_invoice' })).toMatchObject({ tool_choice: { type: 'tool', name: 'get_invoice' } });
    const none = chose({ type: 'none' });
    expect([none.tools, none.tool_choice]).toEqual([undefined, undefined]);
  });

  it('the page: the model caches the marked system prompt as the bill does, and the lede blames no missing part', async () => {
    const r = importTrace(AGENT, { file: 'ai-sdk.json', id: 'ai' });
    const corpus = await renderTexts([{ file: 'scenarios/ai.yaml', text: r.result!.yaml }], config, { everyEvent: false });
    expect(corpus.errors.map(formatError)).toEqual([]);
    const s = corpus.scenarios[0]!;
    const econ = corpus.economics.get('ai')!;
    expect(econ.requests[0]!.cacheWriteTokens).toBeGreaterThan(1024);
    expect(econ.requests[1]!.cachedTokens).toBe(econ.requests[0]!.cacheWriteTokens);
    const text = billedText(billedLede(billedOf(s, econ, DEFAULT_ECONOMICS.profiles), econ, measuredComparison(s, econ)));
    expect(text).not.toContain('Not in the capture');
    expect(text).not.toContain('Cache markers not in the capture');
  });

  it('another provider’s call is a GenAI body that says it lacks the body as sent and its markers', () => {
    const openai = otlp([
      doStream('s1', '2026-12-01T10:00:00.100Z', [{ role: 'system', content: 'Be brief.' }, user], v6(900, 0, 0), {
        'ai.model.provider': 'openai.responses',
        'ai.model.id': 'gpt-5.1',
      }),
    ]);
    const r = importTrace(openai, { file: 'ai-sdk.json', id: 'ai' });
    expect(r.errors.map(formatError)).toEqual([]);
    const [e] = events(r.result!.yaml);
    expect(e!.payload.format).toBe('otel-genai');
    expect(e!.payload.body).toEqual({
      model: 'gpt-5.1',
      system_instructions: [{ type: 'text', content: 'Be brief.' }],
      input_messages: [{ role: 'user', parts: [{ type: 'text', content: 'Why is INV-1042 four cents over the quote?' }] }],
      tool_definitions: [{ type: 'function', name: 'get_invoice', description: 'Fetch one invoice by id.', parameters: TOOL.inputSchema }],
    });
    expect(e!.payload.unrecorded).toEqual([AI_SDK_BODY_UNRECORDED, MARKERS_UNRECORDED]);
  });

  it('usage before AI SDK 6 (promptTokens, cachedInputTokens) is not guessed: no measured figures, and the intro says why', () => {
    const v5 = otlp([
      doStream('s1', '2026-12-01T10:00:00.100Z', [system, user], { 'ai.usage.promptTokens': 40, 'ai.usage.cachedInputTokens': 2060, 'ai.usage.completionTokens': 12 }),
    ]);
    const r = importTrace(v5, { file: 'ai-sdk.json', id: 'ai' });
    expect(r.errors.map(formatError)).toEqual([]);
    expect(events(r.result!.yaml)[0]!.payload.measured).toBeUndefined();
    expect((parse(r.result!.yaml) as { intro: string }).intro.replace(/\s+/g, ' ')).toContain(`For the request, ${AI_SDK_AMBIGUOUS}.`);
  });

  it('the provider’s own usage, kept whole in the provider metadata, is the bill — in any AI SDK version', () => {
    // AI SDK 5's counts (ambiguous by themselves) beside @ai-sdk/anthropic's copy of the response's usage.
    const usage = { input_tokens: 40, cache_read_input_tokens: 2060, cache_creation_input_tokens: 0, output_tokens: 12 };
    const v5 = otlp([
      doStream('s1', '2026-12-01T10:00:00.100Z', [system, user], {
        'ai.usage.promptTokens': 40,
        'ai.usage.cachedInputTokens': 2060,
        'ai.usage.completionTokens': 12,
        'ai.response.providerMetadata': JSON.stringify({ anthropic: { usage, cacheCreationInputTokens: 0, stopSequence: null } }),
      }),
    ]);
    const r = importTrace(v5, { file: 'ai-sdk.json', id: 'ai' });
    expect(r.errors.map(formatError)).toEqual([]);
    // Anthropic's input_tokens is the uncached rest: 40 + 2,060 read + 0 written.
    expect(events(r.result!.yaml)[0]!.payload.measured).toEqual({ inputTokens: 2100, cachedTokens: 2060, cacheWriteTokens: 0, outputTokens: 12 });
    expect((parse(r.result!.yaml) as { intro: string }).intro).not.toContain('AI SDK 6 cache split');
    // A usage the provider's reader refuses is an error at the attribute.
    const bad = otlp([
      doStream('s1', '2026-12-01T10:00:00.100Z', [system, user], {
        'ai.response.providerMetadata': JSON.stringify({ anthropic: { usage: { input_tokens: -3, output_tokens: 1 } } }),
      }),
    ]);
    const e = importTrace(bad, { file: 'ai-sdk.json', id: 'ai' });
    expect(e.result).toBeUndefined();
    expect(formatError(e.errors[0]!)).toMatch(/^ai-sdk\.json:\d+:\d+ error: response usage: /);
  });

  it('broken exports are errors at the attribute, with the fix; nothing is written', () => {
    const line = (text: string, key: string) => {
      const at = text.split('\n').findIndex((l) => l.includes(`"key": "${key}"`));
      return at + 2; // the value is on the line after the key
    };
    const notJson = otlp([doStream('s1', '2026-12-01T10:00:00.100Z', [], v6(10, 0, 0), { 'ai.prompt.messages': '[{"role": "user"' })]);
    const e1 = importTrace(notJson, { file: 'a.json', id: 'a' });
    expect(e1.result).toBeUndefined();
    expect(formatError(e1.errors[0]!)).toMatch(new RegExp(`^a\\.json:${line(notJson, 'ai.prompt.messages')}:\\d+ error: \`ai\\.prompt\\.messages\`: it is a string but not JSON`));
    expect(formatError(e1.errors[0]!)).toContain('fix: export the AI SDK’s spans as OTLP JSON, unedited');
    const over = otlp([
      doStream('s1', '2026-12-01T10:00:00.100Z', [system, user], {
        ...v6(100, 0, 0),
        'ai.usage.inputTokenDetails.cacheReadTokens': 90,
        'ai.usage.inputTokenDetails.cacheWriteTokens': 20,
      }),
    ]);
    const e2 = importTrace(over, { file: 'a.json', id: 'a' });
    expect(e2.errors.map((e) => e.message)).toEqual(['usage: the cached (90) and written (20) input tokens add up to more than `ai.usage.inputTokens` (100)']);
    const noInputs = otlp([
      parent,
      { ...doStream('s1', '2026-12-01T10:00:00.100Z', [], v6(10, 0, 0)), attributes: attrs({ 'ai.operationId': 'ai.streamText.doStream', 'ai.model.id': 'claude-sonnet-4-5' }) },
    ]);
    // recordInputs: false — the spans are the AI SDK's, but none holds a prompt: said so, with what to turn on (not the GenAI conventions' fix).
    expect(importTrace(noInputs, { file: 'a.json', id: 'a' }).errors.map(formatError)[0]).toMatch(
      /^a\.json:1:1 error: no AI SDK model request span records its prompt \(`ai\.prompt\.messages`\)\n {2}fix: .*recordInputs/,
    );
  });

  it('a request recorded without its prompt (recordInputs off for that call) is not on the page, and the page says so — on its session’s page only', async () => {
    // The second request's span as AI SDK writes it with `recordInputs: false`: no `ai.prompt.*`, the rest as before.
    const bare = (id: string, at: string, session: string) => {
      const s = doStream(id, at, [], v6(2190, 2060, 0), { 'ai.telemetry.metadata.sessionId': session });
      return { ...s, attributes: s.attributes.filter((a) => !a.key.startsWith('ai.prompt.')) };
    };
    const mixed = otlp([parent, doStream('s1', '2026-12-01T10:00:00.100Z', [system, user], v6(2100, 0, 2060)), tool, bare('s2', '2026-12-01T10:00:02.500Z', 'chat-88')]);
    const r = importTrace(mixed, { file: 'ai-sdk.json', id: 'ai' });
    expect(r.errors.map(formatError)).toEqual([]);
    expect(r.result!.requests).toBe(1);
    expect(r.result!.leftOut.find((e) => e.what === 'model requests without `ai.prompt.messages`')).toEqual({
      what: 'model requests without `ai.prompt.messages`',
      count: 1,
      why: 'recorded without inputs (`recordInputs: false`): sent to the model, but nothing to rebuild them from',
      line: expect.any(Number),
      requests: { conversation: { by: 'ai.telemetry.metadata.sessionId', key: 'chat-88' } },
    });
    const intro = (parse(r.result!.yaml) as { intro: string }).intro;
    expect(intro).toContain(
      'Not in the capture — model requests without `ai.prompt.messages` (1): recorded without inputs (`recordInputs: false`): sent to the model, but nothing to rebuild them from.',
    );
    const corpus = await renderTexts([{ file: 'scenarios/ai.yaml', text: r.result!.yaml }], config, { everyEvent: false });
    expect(corpus.errors.map(formatError)).toEqual([]);
  });

  it('hostile text in the prompt stays text in the scenario', () => {
    const hostile = { role: 'user', content: [{ type: 'text', text: '<img src=x onerror=alert(1)> {{7*7}} ]]> </script><script>alert(2)</script>' }] };
    const r = importTrace(otlp([doStream('s1', '2026-12-01T10:00:00.100Z', [system, hostile], v6(2100, 0, 2060))]), { file: 'a.json', id: 'a' });
    expect(r.errors.map(formatError)).toEqual([]);
    const [e] = events(r.result!.yaml);
    expect((e!.payload.body.messages as { content: { text: string }[] }[])[0]!.content[0]!.text).toBe(
      '<img src=x onerror=alert(1)> {{7*7}} ]]> </script><script>alert(2)</script>',
    );
  });
});
