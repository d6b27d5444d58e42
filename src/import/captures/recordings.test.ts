/**
 * Recorded HTTP calls (captures/vcr.ts, har.ts, http.ts): cassettes in the shapes vcrpy, pydantic-ai's
 * serializer and Ruby VCR write, and HAR files as Polly.js and browsers write them — small fixtures
 * written here in those shapes. The provider calls become requests with the usage the response
 * billed (streamed responses included); every other call is left out and said; headers never reach
 * the scenario.
 */
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { formatError, type InputError } from '../../scenarios/errors.ts';
import { parseTimeLabel } from '../../scenarios/time.ts';
import { importTrace } from '../index.ts';
import { LeftOutTally } from '../left-out.ts';
import { readChunks } from '../read.ts';
import { har } from './har.ts';
import { streamEvents } from './http.ts';
import { vcrCassette } from './vcr.ts';

type Ev = { off: number; t: string; note: string; payload: { format: string; measured?: Record<string, number>; body: Record<string, unknown> } };
const doc = (yaml: string) => parse(yaml) as { events: Ev[]; intro: string };

function imported(text: string, file = 'cassette.yaml') {
  const { result, errors } = importTrace(text, { file, id: 'rec' });
  expect(errors.map(formatError)).toEqual([]);
  return { result: result!, doc: doc(result!.yaml) };
}

/** What a reader leaves out, and its requests, read directly. */
function leftOutOf(text: string, capture = vcrCassette, file = 'cassette.yaml') {
  const errors: InputError[] = [];
  const chunks = readChunks(text, file, errors);
  const tally = new LeftOutTally();
  const reqs = capture.requests(chunks, file, errors, tally);
  expect(errors.map(formatError)).toEqual([]);
  return { reqs, leftOut: tally.list() };
}

const ANTHROPIC_BODY = (text: string) => JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: text }] });

// vcrpy's own YAML: request body a JSON string, response body {string: …}, status {code, message}, headers lists.
const VCRPY = `interactions:
- request:
    body: '${ANTHROPIC_BODY('Hello')}'
    headers:
      x-api-key:
      - sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789
      content-type:
      - application/json
    method: POST
    uri: https://api.anthropic.com/v1/messages
  response:
    body:
      string: '{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"Hi"}],"usage":{"input_tokens":3,"cache_creation_input_tokens":1111,"cache_read_input_tokens":0,"output_tokens":12}}'
    headers:
      content-type:
      - application/json
    status:
      code: 200
      message: OK
- request:
    body: null
    headers: {}
    method: GET
    uri: https://api.anthropic.com/v1/models?limit=20
  response:
    body:
      string: '{"data":[]}'
    headers: {}
    status:
      code: 200
      message: OK
- request:
    body: '${ANTHROPIC_BODY('Hello again')}'
    headers: {}
    method: POST
    uri: https://api.anthropic.com/v1/messages
  response:
    body:
      string: '{"id":"msg_2","type":"message","role":"assistant","content":[],"usage":{"input_tokens":5,"cache_creation_input_tokens":0,"cache_read_input_tokens":1111,"output_tokens":7}}'
    headers: {}
    status:
      code: 200
      message: OK
version: 1
`;

describe('VCR cassettes', () => {
  it('vcrpy: each provider call a request, its usage the billed figures (input = uncached + read + written), in order', () => {
    const { result, doc: d } = imported(VCRPY);
    expect(result.format).toBe('anthropic');
    expect(result.requests).toBe(2);
    // 3 + 1111 + 0 = 1114 written; 5 + 0 + 1111 = 1116 read.
    expect(d.events.map((e) => e.payload.measured)).toEqual([
      { inputTokens: 1114, cachedTokens: 0, cacheWriteTokens: 1111, outputTokens: 12 },
      { inputTokens: 1116, cachedTokens: 1111, cacheWriteTokens: 0, outputTokens: 7 },
    ]);
    expect(d.events.map((e) => (e.payload.body.messages as { content: string }[])[0]!.content)).toEqual(['Hello', 'Hello again']);
    // Numbered in order; each event's note names the line of its request body in the cassette.
    expect(d.events.map((e) => [e.off, e.note])).toEqual([
      [1, 'line 3 of the trace'],
      [2, 'line 33 of the trace'],
    ]);
  });

  it('vcrpy writes no time of its own: each call’s time is its response’s Date header (a cassette re-recorded 27 days later is not one instant)', () => {
    const dated = VCRPY.replace(
      /(\n {4}headers:\n {6}content-type:\n {6}- application\/json\n {4}status:)/,
      '\n    headers:\n      Date:\n      - Fri, 19 Dec 2025 00:26:10 GMT\n      content-type:\n      - application/json\n    status:',
    )
      .replace(/(string: '\{"data":\[\]\}'\n) {4}headers: \{\}/, '$1    headers:\n      Date:\n      - Fri, 19 Dec 2025 00:26:11 GMT')
      .replace(/(string: '\{"id":"msg_2"[^\n]*\n) {4}headers: \{\}/, '$1    headers:\n      date:\n      - Thu, 15 Jan 2026 07:44:03 GMT');
    expect(dated).toContain('Fri, 19 Dec 2025');
    expect(dated).toContain('Thu, 15 Jan 2026');
    const d = parse(imported(dated).result.yaml) as { startedAt: string; events: { t: string }[] };
    expect(d.startedAt).toBe('2025-12-19T00:26:10.000Z');
    // 2026-01-15T07:44:03Z − 2025-12-19T00:26:10Z = 27 d 7 h 17 min 53 s.
    expect(d.events.map((e) => Date.parse(d.startedAt) + parseTimeLabel(e.t)!)).toEqual([Date.parse('2025-12-19T00:26:10Z'), Date.parse('2026-01-15T07:44:03Z')]);
    // The Date header is read, not stored: no header reaches the scenario.
    expect(imported(dated).result.yaml).not.toMatch(/GMT|Date:/);
    // Without it (the cassette as above), the calls are untimed.
    expect(imported(VCRPY).doc.intro).toContain('(the trace has no timestamps)');
  });

  it('headers are never stored (the API key in x-api-key appears nowhere), and are reported as left out', () => {
    const { result } = imported(VCRPY);
    expect(result.yaml).not.toContain('sk-ant');
    expect(result.yaml).not.toContain('x-api-key');
    const { leftOut } = leftOutOf(VCRPY);
    expect(leftOut).toEqual([
      { what: 'GET calls to api.anthropic.com/v1/models', count: 1, why: 'not a model request of a provider the import reads', line: 20 },
      { what: "interactions' headers", count: 1, why: 'never imported: headers carry API keys, and the model does not read them', line: 2 },
    ]);
  });

  it("pydantic-ai's serializer: `parsed_body` on request and response; a Files API upload and another provider's call (a scenario shows one provider's) are left out", () => {
    const cassette = `interactions:
- request:
    body: "--boundary\\r\\nContent-Disposition: form-data; name=\\"file\\"\\r\\n\\r\\nx\\r\\n--boundary--"
    headers:
      content-type:
      - multipart/form-data; boundary=boundary
    method: POST
    uri: https://api.anthropic.com/v1/files?beta=true
  response:
    headers: {}
    parsed_body:
      id: file_1
    status:
      code: 200
      message: OK
- request:
    headers: {}
    method: POST
    parsed_body:
      max_tokens: 4096
      messages:
      - content:
        - text: Summarise the file.
          type: text
        role: user
      model: claude-sonnet-4-6
      cache_control:
        type: ephemeral
    uri: https://api.anthropic.com/v1/messages?beta=true
  response:
    headers: {}
    parsed_body:
      content: []
      usage:
        cache_creation_input_tokens: 6
        cache_read_input_tokens: 8845
        input_tokens: 4
        output_tokens: 100
    status:
      code: 200
      message: OK
- request:
    headers: {}
    method: POST
    parsed_body:
      contents: []
    uri: https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent
  response:
    headers: {}
    parsed_body: {}
    status:
      code: 200
      message: OK
  recorded_at: 2026-03-06T19:26:02.821070+00:00
version: 1
`;
    const { doc: d } = imported(cassette);
    expect(d.events).toHaveLength(1);
    // 4 + 8845 + 6 = 8855.
    expect(d.events[0]!.payload.measured).toEqual({ inputTokens: 8855, cachedTokens: 8845, cacheWriteTokens: 6, outputTokens: 100 });
    expect(d.events[0]!.payload.body.cache_control).toEqual({ type: 'ephemeral' });
    // recorded_at on one interaction only: the cassette is read untimed (all or none).
    expect(d.events[0]!.t).toBe('0ms');
    expect(leftOutOf(cassette).leftOut.map((l) => [l.what, l.count, l.line])).toEqual([
      ['POST calls to api.anthropic.com/v1/files', 1, 2],
      ['calls to Google Gemini generateContent (Gemini API, Vertex AI)', 1, 42],
      ["interactions' headers", 1, 2],
    ]);
  });

  it('cassetter (pydantic-ai’s recorder since March 2026): bodies tagged `{type: json, content}` or `{type: text, content}`, status a number; an Anthropic call reading the cache its first call wrote', () => {
    const cassette = `version: 1
interactions:
- request:
    method: POST
    uri: https://api.anthropic.com/v1/messages?beta=true
    headers:
      content-type:
      - application/json
    body:
      type: json
      content:
        max_tokens: 1024
        messages:
        - content:
          - cache_control:
              ttl: 5m
              type: ephemeral
            text: Explain the fold.
            type: text
          role: user
        model: claude-sonnet-4-5
        system: You are terse.
  response:
    status: 200
    headers:
      content-type:
      - application/json
    body:
      type: json
      content:
        content:
        - text: It turns events into a prompt.
          type: text
        usage:
          cache_creation_input_tokens: 1111
          cache_read_input_tokens: 0
          input_tokens: 3
          output_tokens: 39
  recorded_at: 2026-03-06T19:26:02.821070+00:00
- request:
    method: POST
    uri: https://api.anthropic.com/v1/messages?beta=true
    headers: {}
    body:
      type: text
      content: '{"max_tokens":1024,"messages":[{"content":[{"text":"Explain the fold.","type":"text"}],"role":"user"},{"content":[{"text":"It turns events into a prompt.","type":"text"}],"role":"assistant"},{"content":[{"cache_control":{"ttl":"5m","type":"ephemeral"},"text":"Shorter?","type":"text"}],"role":"user"}],"model":"claude-sonnet-4-5","system":"You are terse."}'
  response:
    status: 200
    headers: {}
    body:
      type: json
      content:
        content: []
        usage:
          cache_creation_input_tokens: 403
          cache_read_input_tokens: 1111
          input_tokens: 3
          output_tokens: 33
  recorded_at: 2026-03-06T19:26:04.121070+00:00
`;
    const { doc: d } = imported(cassette);
    expect(d.events.map((e) => e.payload.measured)).toEqual([
      { inputTokens: 1114, cachedTokens: 0, cacheWriteTokens: 1111, outputTokens: 39 },
      { inputTokens: 1517, cachedTokens: 1111, cacheWriteTokens: 403, outputTokens: 33 },
    ]);
    expect(d.events.map((e) => e.t)).toEqual(['0ms', '1.3s']);
    expect(leftOutOf(cassette).leftOut.map((l) => l.what)).toEqual(["interactions' headers"]);
  });

  it('a call the provider refused (HTTP 400) is left out: nothing was billed', () => {
    const refused = VCRPY.replace('code: 200\n      message: OK\n- request:\n    body: null', 'code: 400\n      message: Bad Request\n- request:\n    body: null');
    const { reqs, leftOut } = leftOutOf(refused);
    expect(reqs).toHaveLength(1);
    expect(leftOut[0]).toEqual({ what: 'calls answered with HTTP 400', count: 1, why: 'the provider refused the request: nothing was billed and the model read nothing', line: 2 });
  });

  it('Ruby VCR: `http_interactions`, bodies `{encoding, string}` or `base64_string`, `recorded_at` as RFC 2822 → times', () => {
    const b64 = Buffer.from('{"id":"chatcmpl-2","usage":{"prompt_tokens":1300,"completion_tokens":9,"prompt_tokens_details":{"cached_tokens":1280}}}').toString('base64');
    const chat = (text: string) => JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }] }).replaceAll("'", "''");
    const cassette = `---
http_interactions:
- request:
    method: post
    uri: https://api.openai.com/v1/chat/completions
    body:
      encoding: UTF-8
      string: '${chat('first')}'
    headers:
      Authorization:
      - Bearer <OPENAI_API_KEY>
  response:
    status:
      code: 200
      message: OK
    headers:
      Content-Type:
      - application/json
    body:
      encoding: UTF-8
      string: '{"id":"chatcmpl-1","usage":{"prompt_tokens":1290,"completion_tokens":8,"prompt_tokens_details":{"cached_tokens":0}}}'
  recorded_at: Tue, 01 Dec 2026 10:00:00 GMT
- request:
    method: post
    uri: https://api.openai.com/v1/chat/completions
    body:
      encoding: UTF-8
      string: '${chat('second')}'
    headers: {}
  response:
    status:
      code: 200
      message: OK
    headers: {}
    body:
      encoding: ASCII-8BIT
      base64_string: |
        ${b64}
  recorded_at: Tue, 01 Dec 2026 10:00:04 GMT
recorded_with: VCR 6.3.1
`;
    const { result, doc: d } = imported(cassette, 'openai.yml');
    expect(result.format).toBe('openai-chat');
    expect(d.events.map((e) => [e.t, e.payload.measured])).toEqual([
      ['0ms', { inputTokens: 1290, cachedTokens: 0, outputTokens: 8 }],
      ['4s', { inputTokens: 1300, cachedTokens: 1280, outputTokens: 9 }],
    ]);
    expect(result.yaml).not.toContain('Bearer');
  });

  it('a provider whose model is in the URL (Gemini, claimed by its adapter): the model goes into the body as `model`', () => {
    const cassette = `interactions:
- request:
    body: '{"contents":[{"role":"user","parts":[{"text":"Hi"}]}]}'
    headers: {}
    method: POST
    uri: https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent?alt=json
  response:
    body:
      string: '{"candidates":[],"usageMetadata":{"promptTokenCount":1100,"cachedContentTokenCount":1024,"candidatesTokenCount":3}}'
    headers: {}
    status:
      code: 200
      message: OK
version: 1
`;
    const { result, doc: d } = imported(cassette);
    expect(result.format).toBe('gemini');
    expect(d.events[0]!.payload.body.model).toBe('gemini-2.5-flash');
    expect(d.events[0]!.payload.measured).toMatchObject({ inputTokens: 1100, cachedTokens: 1024 });
  });

  it('Bedrock: the whole modelId of the URL, `:` and an encoded inference-profile ARN included, becomes the body’s `model`; a body naming its modelId keeps it', () => {
    const converse = '{"messages":[{"role":"user","content":[{"text":"Hi"}]}]}';
    const usage = `'{"output":{"message":{"role":"assistant","content":[{"text":"Hello"}]}},"usage":{"inputTokens":12,"outputTokens":3,"cacheReadInputTokens":1100,"cacheWriteInputTokens":0}}'`;
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0';
    const call = (uri: string, body = converse) => `- request:
    body: '${body}'
    headers: {}
    method: POST
    uri: ${uri}
  response:
    body:
      string: ${usage}
    headers: {}
    status:
      code: 200
      message: OK
`;
    const host = 'https://bedrock-runtime.us-east-1.amazonaws.com';
    const cassette = `interactions:
${call(`${host}/model/global.anthropic.claude-sonnet-4-5-20250929-v1:0/converse`)}${call(`${host}/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse`)}${call(
  `${host}/model/${encodeURIComponent(arn)}/converse`,
)}${call(`${host}/model/${encodeURIComponent(arn)}/converse`, converse.replace('{', '{"modelId":"global.anthropic.claude-sonnet-4-5-20250929-v1:0",'))}version: 1
`;
    const { reqs } = leftOutOf(cassette);
    expect(reqs.map((r) => [r.format, r.body.model, r.body.modelId])).toEqual([
      ['bedrock-converse', 'global.anthropic.claude-sonnet-4-5-20250929-v1:0', undefined],
      ['bedrock-converse', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', undefined],
      ['bedrock-converse', arn, undefined],
      ['bedrock-converse', undefined, 'global.anthropic.claude-sonnet-4-5-20250929-v1:0'],
    ]);
    const { result, doc: d } = imported(cassette);
    expect(result.format).toBe('bedrock-converse');
    // Converse's inputTokens leave out the cache read: 12 + 1,100 billed in all.
    expect(d.events[0]!.payload.measured).toMatchObject({ inputTokens: 1112, cachedTokens: 1100 });
  });

  it('pydantic-ai’s Gemini calls: `tools` as one Tool object with `parameters_json_schema` imports; the second call is stored as what it adds to the first’s `contents`', () => {
    const tools = `      tools:
        functionDeclarations:
        - description: ''
          name: get_country
          parameters_json_schema:
            properties: {}
            type: object
      toolConfig:
        function_calling_config:
          mode: ANY`;
    const call = (contents: string, prompt: number) => `- request:
    headers:
      content-type:
      - application/json
    method: POST
    parsed_body:
      contents:
${contents}
${tools}
    uri: https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent
  response:
    parsed_body:
      candidates: []
      usageMetadata:
        candidatesTokenCount: 5
        promptTokenCount: ${prompt}
        totalTokenCount: ${prompt + 5}
    status:
      code: 200
      message: OK
`;
    const first = `      - parts:
        - text: Which city?
        role: user`;
    const second = `${first}
      - parts:
        - functionCall:
            args: {}
            name: get_country
        role: model
      - parts:
        - functionResponse:
            name: get_country
            response:
              return_value: Chile
        role: user`;
    const { result, doc: d } = imported(`interactions:\n${call(first, 25)}${call(second, 39)}version: 1\n`);
    expect(result.format).toBe('gemini');
    // No cachedContentTokenCount in the responses: 0 read from the cache (proto3 JSON leaves a 0 out).
    expect(d.events.map((e) => e.payload.measured)).toEqual([
      { inputTokens: 25, cachedTokens: 0, cacheWriteTokens: 0, outputTokens: 5 },
      { inputTokens: 39, cachedTokens: 0, cacheWriteTokens: 0, outputTokens: 5 },
    ]);
    expect(d.events[0]!.payload.body.tools).toEqual({
      functionDeclarations: [{ description: '', name: 'get_country', parameters_json_schema: { properties: {}, type: 'object' } }],
    });
    expect((d.events[1]!.payload as { extends?: { keep: number } }).extends?.keep).toBe(1);
  });

  it('vcrpy `!!binary` gzip response bodies are gunzipped before the usage is read', () => {
    const gz = gzipSync(Buffer.from('{"id":"resp_1","usage":{"input_tokens":2048,"input_tokens_details":{"cached_tokens":1024},"output_tokens":5}}')).toString('base64');
    const cassette = `interactions:
- request:
    body: '{"model":"gpt-4.1","input":"Hi"}'
    headers: {}
    method: POST
    uri: https://api.openai.com/v1/responses
  response:
    body:
      string: !!binary |
        ${gz}
    headers:
      Content-Encoding:
      - gzip
    status:
      code: 200
      message: OK
version: 1
`;
    const { result, doc: d } = imported(cassette);
    expect(result.format).toBe('openai-responses');
    expect(d.events[0]!.payload.measured).toEqual({ inputTokens: 2048, cachedTokens: 1024, outputTokens: 5 });
  });

  it('a brotli-encoded `!!binary` response (accept-encoding: br) is decompressed too', () => {
    const br = brotliCompressSync(Buffer.from('{"id":"resp_2","usage":{"input_tokens":4096,"input_tokens_details":{"cached_tokens":3968},"output_tokens":7}}')).toString('base64');
    const cassette = `interactions:
- request:
    body: '{"model":"gpt-4.1","input":"Hi"}'
    headers: {}
    method: POST
    uri: https://api.openai.com/v1/responses
  response:
    body:
      string: !!binary |
        ${br}
    headers: {}
    status:
      code: 200
      message: OK
version: 1
`;
    expect(imported(cassette).doc.events[0]!.payload.measured).toEqual({ inputTokens: 4096, cachedTokens: 3968, outputTokens: 7 });
  });

  it('a provider call whose request body is not JSON is an error at its line', () => {
    const bad = VCRPY.replace(`body: '${ANTHROPIC_BODY('Hello')}'`, "body: 'model=claude'");
    const { errors } = importTrace(bad, { file: 'c.yaml', id: 'x' });
    expect(errors.map(formatError)[0]).toMatch(/^c\.yaml:3:11 error: this request body is not JSON/);
  });
});

// Server-sent events as the providers stream them (the data lines each provider documents).
const sse = (events: [string | undefined, unknown][]) => events.map(([e, d]) => `${e ? `event: ${e}\n` : ''}data: ${typeof d === 'string' ? d : JSON.stringify(d)}\n\n`).join('');

describe('streamed responses', () => {
  it('the event stream is split into events with their data parsed ([DONE] stays unparsed)', () => {
    expect(streamEvents('event: ping\ndata: {"type": "ping"}\n\ndata: [DONE]\n\n')).toEqual([{ event: 'ping', data: { type: 'ping' } }, { data: undefined }]);
  });

  const anthropicStream = sse([
    [
      'message_start',
      { type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 2000, output_tokens: 1 } } },
    ],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 42 } }],
    ['message_stop', { type: 'message_stop' }],
  ]);
  const cassette = (uri: string, body: string, stream: string) => `interactions:
- request:
    body: '${body}'
    headers: {}
    method: POST
    uri: ${uri}
  response:
    body:
      string: ${JSON.stringify(stream)}
    headers:
      content-type:
      - text/event-stream; charset=utf-8
    status:
      code: 200
      message: OK
version: 1
`;

  it('Anthropic: usage from message_start, the cumulative message_delta laid over it', () => {
    const { doc: d } = imported(cassette('https://api.anthropic.com/v1/messages', ANTHROPIC_BODY('Hi'), anthropicStream));
    // 10 + 2000 + 0; output 42 from the last message_delta (cumulative), not message_start's 1.
    expect(d.events[0]!.payload.measured).toEqual({ inputTokens: 2010, cachedTokens: 2000, cacheWriteTokens: 0, outputTokens: 42 });
  });

  it('Anthropic: the provider’s verdict on a miss from the message of message_start (its diagnostics), beside the usage', () => {
    const start = (diagnostics: unknown) =>
      sse([
        [
          'message_start',
          {
            type: 'message_start',
            message: { id: 'msg_2', usage: { input_tokens: 1500, cache_creation_input_tokens: 1500, cache_read_input_tokens: 0, output_tokens: 1 }, diagnostics },
          },
        ],
        ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7 } }],
        ['message_stop', { type: 'message_stop' }],
      ]);
    const miss = imported(
      cassette('https://api.anthropic.com/v1/messages', ANTHROPIC_BODY('Hi'), start({ cache_miss_reason: { type: 'tools_changed', cache_missed_input_tokens: 1400 } })),
    );
    expect(miss.doc.events[0]!.payload).toMatchObject({
      measured: { inputTokens: 3000, cachedTokens: 0, cacheWriteTokens: 1500, outputTokens: 7 },
      providerMiss: { type: 'tools_changed', missedInputTokens: 1400 },
    });
    // No divergence found (or the comparison still running when message_start was sent): no verdict.
    const none = imported(cassette('https://api.anthropic.com/v1/messages', ANTHROPIC_BODY('Hi'), start({ cache_miss_reason: null })));
    expect(none.doc.events[0]!.payload).not.toHaveProperty('providerMiss');
    // A verdict in another shape is an error, and nothing is written.
    const bad = cassette('https://api.anthropic.com/v1/messages', ANTHROPIC_BODY('Hi'), start({ cache_miss_reason: 'tools_changed' }));
    const { result, errors } = importTrace(bad, { file: 'cassette.yaml', id: 'rec' });
    expect(result).toBeUndefined();
    expect(errors.map(formatError)[0]!.split('\n')[0]).toMatch(/^cassette\.yaml:\d+:\d+ error: `diagnostics\.cache_miss_reason` must be an object with a `type`$/);
  });

  it('Anthropic with server-side compaction: message_delta’s usage.iterations reaches the bill, its compaction step added', () => {
    const compacting = sse([
      [
        'message_start',
        { type: 'message_start', message: { id: 'msg_2', usage: { input_tokens: 181, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 } } },
      ],
      [
        'message_delta',
        {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn' },
          usage: {
            input_tokens: 181,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
            output_tokens: 8,
            iterations: [
              { type: 'compaction', input_tokens: 100, output_tokens: 83, cache_read_input_tokens: 5000, cache_creation_input_tokens: 0 },
              { type: 'message', input_tokens: 181, output_tokens: 8, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
            ],
          },
        },
      ],
      ['message_stop', { type: 'message_stop' }],
    ]);
    const { doc: d } = imported(cassette('https://api.anthropic.com/v1/messages', ANTHROPIC_BODY('Hi'), compacting));
    // 181 + (100 + 5,000 read) = 5,281 input, 5,000 of it read; output 8 + 83 = 91.
    expect(d.events[0]!.payload.measured).toEqual({ inputTokens: 5281, cachedTokens: 5000, cacheWriteTokens: 0, outputTokens: 91 });
  });

  const chatBody = '{"model":"gpt-4o-mini","stream":true,"messages":[{"role":"user","content":"Hi"}]}';
  it('OpenAI Chat Completions: the final chunk’s usage (stream_options.include_usage)', () => {
    const stream = sse([
      [undefined, { id: 'c1', choices: [{ delta: { content: 'Hi' } }], usage: null }],
      [undefined, { id: 'c1', choices: [], usage: { prompt_tokens: 1500, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 1408 } } }],
      [undefined, '[DONE]'],
    ]);
    const { doc: d } = imported(cassette('https://api.openai.com/v1/chat/completions', chatBody, stream));
    expect(d.events[0]!.payload.measured).toEqual({ inputTokens: 1500, cachedTokens: 1408, outputTokens: 3 });
  });

  it('OpenAI Chat Completions without include_usage: no figures, and the page is told why', () => {
    const stream = sse([
      [undefined, { id: 'c1', choices: [{ delta: { content: 'Hi' } }] }],
      [undefined, '[DONE]'],
    ]);
    const { result, doc: d } = imported(cassette('https://api.openai.com/v1/chat/completions', chatBody, stream));
    expect(d.events[0]!.payload.measured).toBeUndefined();
    expect(result.measured).toBe(0);
    expect(result.yaml).toContain('stream_options');
  });

  it('OpenAI Responses: the usage of the response.completed event', () => {
    const stream = sse([
      ['response.created', { type: 'response.created', response: { id: 'r1', usage: null } }],
      [
        'response.completed',
        { type: 'response.completed', response: { id: 'r1', usage: { input_tokens: 3000, input_tokens_details: { cached_tokens: 2944 }, output_tokens: 20 } } },
      ],
    ]);
    const { doc: d } = imported(cassette('https://api.openai.com/v1/responses', '{"model":"gpt-4.1","input":"Hi","stream":true}', stream));
    expect(d.events[0]!.payload.measured).toEqual({ inputTokens: 3000, cachedTokens: 2944, outputTokens: 20 });
  });
});

describe('HAR files', () => {
  const entry = (url: string, method: string, post: string | undefined, res: Record<string, unknown>, at: string) => ({
    _id: 'abc',
    _order: 0,
    request: {
      method,
      url,
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'authorization', value: 'Bearer sk-proj-abcdefghijklmnopqrstuvwxyz012345' }],
      queryString: [],
      cookies: [],
      headersSize: 200,
      bodySize: post?.length ?? 0,
      ...(post !== undefined && { postData: { mimeType: 'application/json', text: post } }),
    },
    response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [], cookies: [], redirectURL: '', headersSize: 100, bodySize: 100, content: res },
    startedDateTime: at,
    time: 812,
    timings: { wait: 812 },
    cache: {},
  });
  const polly = (entries: unknown[]) =>
    JSON.stringify(
      { log: { _recordingName: 'agent/answers', creator: { name: 'Polly.JS', version: '6.0.6', comment: 'persister:fs' }, entries, pages: [], version: '1.2' } },
      null,
      2,
    );
  const chat = (text: string) => JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }] });

  it('Polly.js: provider entries become requests with times and billed usage; base64 content is decoded; others are left out', () => {
    const usage = (p: number, c: number) => JSON.stringify({ id: 'x', usage: { prompt_tokens: p, completion_tokens: 1, prompt_tokens_details: { cached_tokens: c } } });
    const text = polly([
      entry('https://api.openai.com/v1/chat/completions', 'POST', chat('one'), { mimeType: 'application/json', size: 90, text: usage(1200, 0) }, '2026-12-01T10:00:00.000Z'),
      entry('https://example.com/telemetry', 'POST', '{}', { mimeType: 'text/plain', size: 0 }, '2026-12-01T10:00:01.000Z'),
      entry(
        'https://api.openai.com/v1/chat/completions',
        'POST',
        chat('two'),
        { mimeType: 'application/json', size: 90, encoding: 'base64', text: Buffer.from(usage(1250, 1152)).toString('base64') },
        '2026-12-01T10:00:02.500Z',
      ),
    ]);
    const { result, doc: d } = imported(text, 'recording.har');
    expect(d.events.map((e) => [e.t, e.payload.measured])).toEqual([
      ['0ms', { inputTokens: 1200, cachedTokens: 0, outputTokens: 1 }],
      ['2.5s', { inputTokens: 1250, cachedTokens: 1152, outputTokens: 1 }],
    ]);
    expect(result.yaml).not.toContain('sk-proj');
    const { leftOut } = leftOutOf(text, har, 'recording.har');
    expect(leftOut.map((l) => [l.what, l.count])).toEqual([
      ['POST calls to example.com/telemetry', 1],
      ["entries' headers", 3],
    ]);
  });

  it("Polly's node-http adapter: a gzip response kept as a JSON list of base64 chunks; RFC 1123 start times", () => {
    const gz = gzipSync(Buffer.from(JSON.stringify({ id: 'msg', usage: { input_tokens: 5, cache_read_input_tokens: 2048, cache_creation_input_tokens: 0, output_tokens: 3 } })));
    const chunks = JSON.stringify([gz.subarray(0, 10).toString('base64'), gz.subarray(10).toString('base64')]);
    const e = entry(
      'https://api.anthropic.com/v1/messages',
      'POST',
      ANTHROPIC_BODY('Hi'),
      { mimeType: 'application/json', size: gz.length, encoding: 'base64', text: chunks },
      'Fri, 05 Jan 2024 00:00:00 GMT',
    );
    const { result, doc: d } = imported(polly([e]), 'recording.har');
    expect(result.format).toBe('anthropic');
    // 5 + 2048 + 0.
    expect(d.events[0]!.payload.measured).toEqual({ inputTokens: 2053, cachedTokens: 2048, cacheWriteTokens: 0, outputTokens: 3 });
    expect(d.intro).toContain('2024-01-05T00:00:00.000Z');
  });

  it('a browser export whose provider entry lacks its request body is an error at the entry', () => {
    const text = polly([entry('https://api.openai.com/v1/chat/completions', 'POST', undefined, { mimeType: 'application/json', size: 0 }, '2026-12-01T10:00:00.000Z')]);
    const { errors } = importTrace(text, { file: 'b.har', id: 'x' });
    expect(errors.map(formatError)[0]).toMatch(/^b\.har:\d+:\d+ error: this entry is a call to a model provider but records no request body/);
  });
});

describe("the provider's verdict on a miss, recorded in the response", () => {
  it('pydantic-ai parsed_body (OpenAI Responses prompt_cache_diagnostics) and vcrpy string bodies (Anthropic diagnostics) carry it to providerMiss', () => {
    const responses = `interactions:
- request:
    method: POST
    uri: https://api.openai.com/v1/responses
    parsed_body:
      model: gpt-5.6-terra
      instructions: Answer briefly.
      input: Hello
      prompt_cache_options:
        comparison_response_id: resp_0
  response:
    status:
      code: 200
      message: OK
    parsed_body:
      id: resp_1
      object: response
      prompt_cache_diagnostics:
        type: cache_miss
        reason: tools_changed
        cache_missed_tokens: 1400
        comparison_reusable_tokens: 1420
      usage:
        input_tokens: 1500
        input_tokens_details:
          cached_tokens: 0
        output_tokens: 3
version: 1
`;
    expect(imported(responses).doc.events[0]!.payload).toMatchObject({ providerMiss: { type: 'tools_changed', missedInputTokens: 1400 } });
    const diag = JSON.stringify({
      type: 'message',
      usage: { input_tokens: 3, cache_read_input_tokens: 0, cache_creation_input_tokens: 20, output_tokens: 1 },
      diagnostics: { cache_miss_reason: { type: 'system_changed', cache_missed_input_tokens: 900 } },
    });
    const vcrpy = `interactions:
- request:
    body: '${ANTHROPIC_BODY('Hello')}'
    method: POST
    uri: https://api.anthropic.com/v1/messages
  response:
    body:
      string: '${diag}'
    status:
      code: 200
      message: OK
version: 1
`;
    expect(imported(vcrpy).doc.events[0]!.payload).toMatchObject({ providerMiss: { type: 'system_changed', missedInputTokens: 900 } });
  });

  // A streamed Responses call (a HAR of the browser or Polly.js keeps the event stream as the response text): the verdict is in response.completed's response.
  const streamedHar = (completed: Record<string, unknown>) =>
    JSON.stringify(
      {
        log: {
          version: '1.2',
          creator: { name: 'Polly.JS', version: '6.0.6' },
          entries: [
            {
              startedDateTime: '2026-12-01T10:00:00.000Z',
              request: {
                method: 'POST',
                url: 'https://api.openai.com/v1/responses',
                headers: [],
                postData: {
                  mimeType: 'application/json',
                  text: JSON.stringify({ model: 'gpt-5.6-terra', input: 'Hello', stream: true, prompt_cache_options: { comparison_response_id: 'resp_0' } }),
                },
              },
              response: {
                status: 200,
                headers: [],
                content: {
                  mimeType: 'text/event-stream; charset=utf-8',
                  text: sse([
                    [
                      'response.created',
                      { type: 'response.created', sequence_number: 0, response: { id: 'resp_1', status: 'in_progress', usage: null, prompt_cache_diagnostics: null } },
                    ],
                    ['response.output_text.delta', { type: 'response.output_text.delta', sequence_number: 1, delta: 'Hi' }],
                    ['response.completed', { type: 'response.completed', sequence_number: 2, response: { id: 'resp_1', status: 'completed', ...completed } }],
                  ]),
                },
              },
            },
          ],
        },
      },
      null,
      2,
    );
  const usage = { input_tokens: 1500, input_tokens_details: { cached_tokens: 0 }, output_tokens: 3 };

  it('a streamed Responses call: prompt_cache_diagnostics of the response.completed event’s response, beside its usage', () => {
    const miss = streamedHar({ usage, prompt_cache_diagnostics: { type: 'cache_miss', reason: 'tools_changed', cache_missed_tokens: 1400, comparison_reusable_tokens: 1420 } });
    const { doc: d } = imported(miss, 'recording.har');
    expect(d.events[0]!.payload).toMatchObject({
      measured: { inputTokens: 1500, cachedTokens: 0, outputTokens: 3 },
      providerMiss: { type: 'tools_changed', missedInputTokens: 1400 },
    });
    // A hit (or no comparison asked for) is no miss.
    const hit = imported(streamedHar({ usage, prompt_cache_diagnostics: { type: 'cache_hit' } }), 'recording.har');
    expect(hit.doc.events[0]!.payload).not.toHaveProperty('providerMiss');
  });

  it('a streamed verdict in another shape is an error at the recorded response, and nothing is written', () => {
    const text = streamedHar({ usage, prompt_cache_diagnostics: { type: 'cache_miss', cache_missed_tokens: 1400 } });
    const { result, errors } = importTrace(text, { file: 'recording.har', id: 'rec' });
    expect(result).toBeUndefined();
    const line = text.split('\n').findIndex((l) => l.includes('"text": "event: response.created')) + 1;
    expect(line).toBeGreaterThan(1);
    expect(errors.map(formatError)[0]!.split('\n')[0]).toMatch(
      new RegExp(`^recording\\.har:${line}:\\d+ error: a \`cache_miss\` in \`prompt_cache_diagnostics\` must say its \`reason\`$`),
    );
  });
});
