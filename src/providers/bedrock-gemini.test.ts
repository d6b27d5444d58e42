/**
 * The Amazon Bedrock and Google Gemini adapters: detection against the other formats,
 * cache markers as each provider reads them (Converse `cachePoint`, InvokeModel `cache_control`, no
 * marker at all on Gemini), the findings about a body as sent (a `cache_control` Converse ignores, a
 * Nova tools checkpoint, too many checkpoints, a Gemini request beside a `cachedContent`), usage
 * arithmetic, and the economics of a conversation on each, priced by hand from the catalog's figures.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { renderTexts } from '../corpus/check.ts';
import { formatError } from '../scenarios/errors.ts';
import { DEFAULT_ECONOMICS } from '../economics/profiles.ts';
import { lintScenario } from '../request-lint/request-lint.ts';
import { whatIf } from '../economics/what-if.ts';
import { bodyIssues, SIDE_BY_SIDE } from './registry.ts';
import { anthropic } from './anthropic.ts';
import { bedrockConverse } from './bedrock-converse.ts';
import { gemini } from './gemini.ts';
import { openaiChat } from './openai-chat.ts';
import { CATALOG } from './registry.ts';
import type { UsageIssue } from './types.ts';
import { holdsInlineMedia, holdsUncountedMedia } from './shared/normalise.ts';

const LONG = 'Read the repository before you change it, and say what you did in one short paragraph. '.repeat(120);

const converse = (over: Record<string, unknown> = {}) => ({
  modelId: 'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
  system: [{ text: LONG }, { cachePoint: { type: 'default' } }],
  messages: [{ role: 'user', content: [{ text: 'Find the failing test.' }] }],
  ...over,
});

describe('Bedrock: detection and cache markers', () => {
  it('a Converse body is Bedrock’s and no other format’s; an InvokeModel body is Bedrock’s, not Anthropic’s', () => {
    expect(bedrockConverse.detect!(converse())).toBe(true);
    expect(anthropic.detect!(converse())).toMatch(/Converse/);
    expect(openaiChat.detect!(converse())).not.toBe(true);
    expect(openaiChat.detect!({ modelId: 'm', messages: [{ role: 'user', content: [{ text: 'hi' }] }] })).toMatch(/Bedrock/);
    const invoke = { anthropic_version: 'bedrock-2023-05-31', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
    expect(bedrockConverse.detect!(invoke)).toBe(true);
    expect(anthropic.detect!(invoke)).toMatch(/InvokeModel/);
    // Anthropic's own body (typed blocks) is not a Converse body.
    expect(bedrockConverse.detect!({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] })).toMatch(/type/);
  });

  it('cachePoint blocks mark the end of the blocks before them: tools, system, a message', () => {
    const body = converse({
      toolConfig: { tools: [{ toolSpec: { name: 'read', inputSchema: { json: { type: 'object' } } } }, { cachePoint: { type: 'default', ttl: '1h' } }] },
      messages: [{ role: 'user', content: [{ text: 'A' }, { cachePoint: { type: 'default' } }, { text: 'B' }] }],
    });
    const m = bedrockConverse.normalise(body);
    expect(m.map((x) => [x.role, x.marks])).toEqual([
      ['tools', [{ end: m[0]!.text.lastIndexOf('}') + 1, ttl: '1h' }]],
      ['system', [{ end: LONG.length }]],
      ['user', [{ end: 1 }]],
    ]);
    expect(m[2]!.text).toBe('A\nB');
  });

  it('media sent inline are shown by their size, never counted as base64 text, in every format that sends them; a tool call’s own `data` stays text', () => {
    const b64 = 'AAAAGGZ0eXBtcDQy'.repeat(5_000); // 80,000 characters, as a video's bytes begin
    const n = b64.length.toLocaleString('en-US');
    const converseText = bedrockConverse
      .normalise(converse({ messages: [{ role: 'user', content: [{ text: 'Describe it.' }, { video: { format: 'mp4', source: { bytes: b64 } } }] }] }))
      .at(-1)!.text;
    expect(converseText).toBe(`Describe it.\n[video] {"format":"mp4","source":{"bytes":"<${n} characters of base64>"}}`);
    const anthropicText = anthropic
      .normalise({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: b64 } }] }] })
      .at(-1)!.text;
    expect(anthropicText).toContain(`"data":"<${n} characters of base64>"`);
    const chatText = openaiChat
      .normalise({ model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${b64}` } }] }] })
      .at(-1)!.text;
    expect(chatText).toContain(`"url":"data:image/png;base64,<${n} characters of base64>"`);
    const geminiText = gemini.normalise({ model: 'gemini-2.5-pro', contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'video/mp4', data: b64 } }] }] }).at(-1)!.text;
    expect(geminiText).toContain(`<${n} characters of base64>`);
    for (const t of [converseText, anthropicText, chatText, geminiText]) expect(holdsInlineMedia(t)).toBe(true);
    // A tool call's input is text the provider bills as such, whatever its field is called.
    const call = anthropic
      .normalise({
        model: 'claude-sonnet-4-5',
        messages: [
          { role: 'user', content: 'Write it.' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'write', input: { data: b64 } }] },
        ],
      })
      .at(-1)!.text;
    expect(call).toContain(b64);
    expect(holdsInlineMedia(call)).toBe(false);
  });

  it('media the provider fetches (a URL, a URI, a file id) are media the text does not show, in every format; a URL in text or a tool call is not', () => {
    const last = (a: { normalise(b: never): { text: string }[] }, body: unknown): string => a.normalise(body as never).at(-1)!.text;
    const fetched = [
      last(gemini, {
        model: 'gemini-2.5-pro',
        contents: [{ role: 'user', parts: [{ text: 'Explain it.' }, { fileData: { fileUri: 'https://m.youtube.com/watch?v=x', mimeType: 'video/mp4' } }] }],
      }),
      last(gemini, { model: 'gemini-2.5-pro', contents: [{ role: 'user', parts: [{ fileData: { fileUri: 'gs://bucket/talk.mp4', mimeType: 'video/mp4' } }] }] }),
      last(anthropic, { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }] }] }),
      last(anthropic, { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'file', file_id: 'file_011' } }] }] }),
      last(openaiChat, { model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }] }),
      last(bedrockConverse, converse({ messages: [{ role: 'user', content: [{ video: { format: 'mp4', source: { s3Location: { uri: 's3://bucket/talk.mp4' } } } }] }] })),
    ];
    for (const t of fetched) expect([t, holdsUncountedMedia(t)]).toEqual([t, true]);
    const notMedia = [
      last(anthropic, { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'See https://example.com/a.png and [image] {"url":"https://x"} in prose.' }] }),
      last(anthropic, {
        model: 'claude-sonnet-4-5',
        messages: [
          { role: 'user', content: 'Fetch it.' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'fetch', input: { url: 'https://example.com/a.png' } }] },
        ],
      }),
    ];
    for (const t of notMedia) expect([t, holdsUncountedMedia(t)]).toEqual([t, false]);
  });

  it('an Anthropic cache_control in a Converse body marks nothing, and the lint says so with the fix', () => {
    const body = converse({ system: [{ text: LONG, cache_control: { type: 'ephemeral' } }] });
    expect(bedrockConverse.normalise(body).some((x) => x.marks)).toBe(false);
    const f = bedrockConverse.lint!(body);
    expect(f.map((x) => [x.rule, x.path])).toEqual([['ignored-marker', ['system', 0, 'cache_control']]]);
    expect(f[0]!.fix).toMatch(/cachePoint/);
    // The same marker in an InvokeModel body is Anthropic's, and read.
    const invoke = {
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 10,
      system: [{ type: 'text', text: LONG, cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'hi' }],
    };
    expect(bedrockConverse.normalise(invoke)[0]!.marks).toEqual([{ end: LONG.length }]);
    expect(bedrockConverse.lint!(invoke)).toEqual([]);
  });

  it('a checkpoint in the tools of a Nova request, and a fifth checkpoint, are findings', () => {
    const tools = { tools: [{ toolSpec: { name: 'read', inputSchema: { json: {} } } }, { cachePoint: { type: 'default' } }] };
    const nova = converse({ modelId: 'us.amazon.nova-pro-v1:0', toolConfig: tools });
    expect(bedrockConverse.lint!(nova).map((x) => [x.rule, x.path])).toEqual([['unsupported-checkpoint', ['toolConfig', 'tools', 1]]]);
    expect(bedrockConverse.lint!(converse({ toolConfig: tools }))).toEqual([]);
    const cp = { cachePoint: { type: 'default' } };
    const five = converse({ messages: [{ role: 'user', content: [{ text: 'a' }, cp, { text: 'b' }, cp, { text: 'c' }, cp, { text: 'd' }, cp] }] });
    expect(bedrockConverse.lint!(five).map((x) => [x.rule, x.message])).toEqual([['too-many-checkpoints', '5 cache checkpoints; Bedrock accepts at most 4 per request']]);
  });

  it('a body without a model is an error with the fix; modelId or model names it', () => {
    const { modelId: _, ...bare } = converse();
    expect(bedrockConverse.rules!(bare)[0]!.fix).toMatch(/modelId/);
    expect(bedrockConverse.model!({ ...bare, model: 'us.anthropic.claude-haiku-4-5-20251001-v1:0' })).toBe('us.anthropic.claude-haiku-4-5-20251001-v1:0');
  });

  it('usage: Converse inputTokens excludes cache reads and writes; InvokeModel returns Anthropic’s usage', () => {
    const issues: UsageIssue[] = [];
    expect(bedrockConverse.usage!.read({ inputTokens: 12, outputTokens: 40, cacheReadInputTokens: 3000, cacheWriteInputTokens: 200 }, issues)).toEqual({
      inputTokens: 3212,
      cachedTokens: 3000,
      cacheWriteTokens: 200,
      outputTokens: 40,
    });
    expect(bedrockConverse.usage!.read({ input_tokens: 12, cache_read_input_tokens: 3000, cache_creation_input_tokens: 0 }, issues)).toEqual({
      inputTokens: 3012,
      cachedTokens: 3000,
      cacheWriteTokens: 0,
    });
    expect(bedrockConverse.usage!.read({ inputTokens: -1 }, issues)).toBeUndefined();
    expect(issues.map((i) => i.path)).toEqual([['inputTokens']]);
  });
});

describe('Gemini: bodies, usage and findings', () => {
  it('reads contents, systemInstruction, tools and a cachedContent reference; previous_interaction_id is said to be unmodellable', () => {
    const body = {
      model: 'models/gemini-2.5-pro',
      cachedContent: 'cachedContents/abc',
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ functionCall: { name: 'read', args: { path: 'a' } } }] },
      ],
    };
    expect(gemini.detect!(body)).toBe(true);
    expect(gemini.model!(body)).toBe('gemini-2.5-pro');
    expect(gemini.normalise(body).map((m) => [m.role, m.text])).toEqual([
      ['system', '[cachedContent] {"name":"cachedContents/abc"}'],
      ['user', 'hi'],
      ['assistant', '[functionCall] {"name":"read","args":{"path":"a"}}'],
    ]);
    expect(gemini.detect!({ model: 'gemini-4-argon', previous_interaction_id: 'v1_abc', input: 'next' })).toMatch(/not in the body/);
  });

  // pydantic-ai's GeminiModel sends `tools` as one Tool object, its declarations' schema as
  // `parameters_json_schema`, `toolConfig.function_calling_config` (its recorded calls: the API answered 200);
  // proto3 JSON parsers accept the original proto field names as well as the lowerCamelCase ones.
  const declarations = (schemaKey: string) => [
    { name: 'get_country', description: '', [schemaKey]: { type: 'object', properties: {}, additionalProperties: false } },
    { name: 'final_result', description: 'The final answer', [schemaKey]: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  ];
  const contents = [
    { role: 'user', parts: [{ text: 'Which city?' }] },
    { role: 'model', parts: [{ functionCall: { name: 'get_country', args: {} }, thoughtSignature: 'sig' }] },
    { role: 'user', parts: [{ functionResponse: { name: 'get_country', response: { return_value: 'Chile' } } }] },
  ];
  const reference = {
    model: 'gemini-2.5-flash',
    systemInstruction: { parts: [{ text: 'Be brief.' }] },
    tools: [{ functionDeclarations: declarations('parametersJsonSchema') }],
    toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_country', 'final_result'] } },
    contents,
  };

  it('accepts `tools` as one Tool object and fields under their proto names, and reads them as the reference spelling', () => {
    const sdk = {
      model: 'gemini-2.5-flash',
      system_instruction: { parts: [{ text: 'Be brief.' }] },
      tools: { functionDeclarations: declarations('parameters_json_schema') },
      toolConfig: { function_calling_config: { mode: 'ANY', allowed_function_names: ['get_country', 'final_result'] } },
      contents,
    };
    expect(bodyIssues('gemini', sdk)).toEqual([]);
    expect(gemini.normalise(sdk)).toEqual(gemini.normalise(reference));
    expect(gemini.normalise(sdk).map((m) => m.role)).toEqual(['tools', 'system', 'user', 'assistant', 'user']);
    expect(gemini.normalise(sdk)[0]!.text).toContain('final_result');
    expect(gemini.normalise(sdk)[0]!.text).toMatch(/"required": \[\s*"city"/);
    // `function_declarations` under its proto name, in a list, reads the same.
    expect(gemini.normalise({ ...sdk, tools: [{ function_declarations: declarations('parameters_json_schema') }] })).toEqual(gemini.normalise(reference));
    // What the API refuses is still refused: tools that are neither a Tool nor a list of them.
    expect(bodyIssues('gemini', { ...sdk, tools: 'get_country' }).map((i) => i.path)).toEqual([['tools']]);
    expect(bodyIssues('gemini', { ...sdk, system_instruction: { text: 'x' } }).map((i) => i.path)).toEqual([['system_instruction', 'parts']]);
  });

  it('systemInstruction or tools beside a cachedContent is a finding; without a cache it is not', () => {
    const body = {
      model: 'gemini-2.5-pro',
      cachedContent: 'cachedContents/abc',
      systemInstruction: { parts: [{ text: 'S' }] },
      tools: [{ functionDeclarations: [] }],
      contents: [{ role: 'user', parts: [{ text: 'x' }] }],
    };
    expect(gemini.lint!(body).map((f) => [f.rule, f.path])).toEqual([
      ['cache-conflict', ['systemInstruction']],
      ['cache-conflict', ['tools']],
    ]);
    const { cachedContent: _, ...plain } = body;
    expect(gemini.lint!(plain)).toEqual([]);
    // Under their proto names too, each located where the body has it.
    const snake = { model: 'gemini-2.5-pro', cached_content: 'cachedContents/abc', system_instruction: { parts: [{ text: 'S' }] }, tool_config: {}, contents: body.contents };
    expect(gemini.lint!(snake).map((f) => [f.path, f.message])).toEqual([
      [['system_instruction'], 'system_instruction beside a cachedContent: the request takes them from the cache, and the API rejects the request'],
      [['tool_config'], 'tool_config beside a cachedContent: the request takes them from the cache, and the API rejects the request'],
    ]);
  });

  it('usage: promptTokenCount includes cachedContentTokenCount; more cached than prompt is an error', () => {
    const issues: UsageIssue[] = [];
    expect(gemini.usage!.read({ promptTokenCount: 5000, cachedContentTokenCount: 4096, candidatesTokenCount: 20, thoughtsTokenCount: 300 }, issues)).toEqual({
      inputTokens: 5000,
      cachedTokens: 4096,
      cacheWriteTokens: 0,
      outputTokens: 320,
    });
    // A miss: the API leaves a count at 0 out (proto3 JSON), as in a published Gemini 2.5 Flash cassette's second call — read as 0 cached tokens, so the miss is judged.
    expect(gemini.usage!.read({ promptTokenCount: 3805, candidatesTokenCount: 201, thoughtsTokenCount: 800 }, issues)).toEqual({
      inputTokens: 3805,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: 1001,
    });
    expect(gemini.usage!.read({ promptTokenCount: 10, cachedContentTokenCount: 4096 }, issues)).toBeUndefined();
    expect(issues[0]!.fix).toMatch(/usageMetadata/);
  });
});

// ── Economics, priced by hand from the catalog's figures ──────────────────────────────────────────
const config = { timeZero: '2026-12-06T10:00:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol', economics: DEFAULT_ECONOMICS };

function scenario(format: string, bodies: Record<string, unknown>[], times: string[]): string {
  const events = bodies.map((body, i) => `  - off: ${i + 1}\n    t: ${times[i]}\n    type: request/sent\n    payload: ${JSON.stringify({ format, body })}\n`);
  return `id: p\ntitle: providers\nfold: requests\nevents:\n${events.join('')}`;
}

async function rendered(format: string, bodies: Record<string, unknown>[], times = ['0ms', '30s']) {
  const r = await renderTexts([{ file: 'scenarios/p.yaml', text: scenario(format, bodies, times) }], config, { everyEvent: false });
  expect(r.errors.map(formatError)).toEqual([]);
  return r;
}
const econ = async (format: string, bodies: Record<string, unknown>[], times?: string[]) => (await rendered(format, bodies, times)).economics.get('p')!.requests;

const price = (profile: string) => CATALOG.find((m) => m.id === profile)!.prices;

describe('economics on Bedrock and Gemini', () => {
  const turn2 = (b: ReturnType<typeof converse>) => ({
    ...b,
    messages: [...b.messages, { role: 'assistant', content: [{ text: 'It is run.test.ts.' }] }, { role: 'user', content: [{ text: 'Fix it.' }] }],
  });

  it('Converse with a cachePoint after the system prompt: written once, read by the next request, priced at the global profile’s figures', async () => {
    const [a, b] = await econ('bedrock-converse', [converse(), turn2(converse())]);
    expect([a!.profile, b!.profile]).toEqual(['bedrock-claude-sonnet-4.5-global', 'bedrock-claude-sonnet-4.5-global']);
    expect(a!.cachedTokens).toBe(0);
    expect(a!.cacheWriteTokens).toBeGreaterThan(1024);
    expect(b!.cachedTokens).toBe(a!.cacheWriteTokens);
    const p = price('bedrock-claude-sonnet-4.5-global');
    // By hand: $3/MTok input, $3.75 writes, $0.30 reads (Anthropic's Sonnet 4.5 row).
    expect([p.input!.value, p.cacheWrite!.value, p.cachedInput!.value]).toEqual([3, 3.75, 0.3]);
    const first = ((a!.inputTokens - a!.cacheWriteTokens) * 3 + a!.cacheWriteTokens * 3.75) / 1e6;
    const second = ((b!.inputTokens - b!.cachedTokens) * 3 + b!.cachedTokens * 0.3) / 1e6;
    expect(a!.costUsd).toBeCloseTo(first, 10);
    expect(b!.costUsd).toBeCloseTo(second, 10);
  });

  it('the same on a regional profile costs 10 % more', async () => {
    const us = (b: ReturnType<typeof converse>) => ({ ...b, modelId: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' });
    const [g1, g2] = await econ('bedrock-converse', [converse(), turn2(converse())]);
    const [r1, r2] = await econ('bedrock-converse', [us(converse()), us(turn2(converse()))]);
    expect(r1!.profile).toBe('bedrock-claude-sonnet-4.5-regional');
    expect(r1!.costUsd! / g1!.costUsd!).toBeCloseTo(1.1, 10);
    expect(r2!.costUsd! / g2!.costUsd!).toBeCloseTo(1.1, 10);
  });

  const geminiBody = (system: string, turns: string[]) => ({
    model: 'gemini-2.5-pro',
    systemInstruction: { parts: [{ text: system }] },
    contents: turns.map((t, i) => ({ role: i % 2 ? 'model' : 'user', parts: [{ text: t }] })),
  });

  it('Gemini 2.5 Pro: a prompt below its 2,048-token minimum caches nothing; above it, the common prefix is read at $0.125', async () => {
    const short = 'Be brief. '.repeat(50);
    const [s1, s2] = await econ('gemini', [geminiBody(short, ['a']), geminiBody(short, ['a', 'b', 'c'])]);
    expect(s2!.inputTokens).toBeLessThan(2048);
    expect([s1!.cachedTokens, s2!.cachedTokens]).toEqual([0, 0]);
    const [l1, l2] = await econ('gemini', [geminiBody(LONG, ['a']), geminiBody(LONG, ['a', 'b', 'c'])]);
    expect(l1!.inputTokens).toBeGreaterThan(2048);
    expect(l2!.cachedTokens).toBeGreaterThan(2048);
    expect(l2!.cacheWriteTokens).toBe(0);
    expect(l2!.costUsd).toBeCloseTo(((l2!.inputTokens - l2!.cachedTokens) * 1.25 + l2!.cachedTokens * 0.125) / 1e6, 10);
  });
});

describe('the request lint reads each body as sent through its adapter', () => {
  it('a Converse body with cache_control is a warning on its request, naming where and the fix; a Gemini conflict too', async () => {
    const body = converse({ system: [{ text: LONG, cache_control: { type: 'ephemeral' } }] });
    const r = await rendered('bedrock-converse', [body, body]);
    const f = lintScenario(r.scenarios[0]!, r.economics.get('p')!).filter((x) => x.rule === 'ignored-marker');
    expect(f.map((x) => [x.offset, x.severity, x.message])).toEqual([
      [1, 'warning', 'request @1: an Anthropic-style cache_control in a Converse body: Converse has no such field and caches nothing for it (at body.system.0.cache_control)'],
      [2, 'warning', 'request @2: an Anthropic-style cache_control in a Converse body: Converse has no such field and caches nothing for it (at body.system.0.cache_control)'],
    ]);
    expect(f[0]!.source.url).toBe('https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CachePointBlock.html');
    const g = { model: 'gemini-2.5-pro', cachedContent: 'cachedContents/a', systemInstruction: { parts: [{ text: 'S' }] }, contents: [{ role: 'user', parts: [{ text: 'x' }] }] };
    const rg = await rendered('gemini', [g], ['0ms']);
    expect(lintScenario(rg.scenarios[0]!, rg.economics.get('p')!).map((x) => x.rule)).toEqual(['cache-conflict']);
  });
});

describe('side by side and what-if', () => {
  it('the default side-by-side holds Bedrock’s global and regional Sonnet 4.5 and two Gemini models', () => {
    for (const id of ['bedrock-claude-sonnet-4.5-global', 'bedrock-claude-sonnet-4.5-regional', 'google-gemini-2.5-pro', 'google-gemini-4-argon'])
      expect(SIDE_BY_SIDE).toContain(id);
  });

  it('a Bedrock conversation’s what-if offers its own choices: 5-minute and 1-hour checkpoints', async () => {
    const body = converse();
    const r = await rendered(
      'bedrock-converse',
      [body, { ...body, messages: [...body.messages, { role: 'assistant', content: [{ text: 'ok' }] }, { role: 'user', content: [{ text: 'next' }] }] }],
      ['0ms', '20m'],
    );
    const w = whatIf(r.scenarios[0]!, DEFAULT_ECONOMICS);
    expect('options' in w).toBe(true);
    if (!('options' in w)) return;
    const ids = w.options.flatMap((o) => [o.id]);
    expect(ids).toEqual(expect.arrayContaining(['as-is', 'ttl-1h-first']));
    // 20 minutes idle: a 5-minute checkpoint is gone, a 1-hour one (the only checkpoint is the first) is read.
    const oneHour = w.options.find((o) => o.id === 'ttl-1h-first')!;
    expect(oneHour.totals.cachedTokens).toBeGreaterThan(1024);
    expect(w.options.find((o) => o.id === 'as-is')!.totals.cachedTokens).toBe(0);
  });
});

describe('the Gemini scenario’s explicit-cache arithmetic (scenarios/52-gemini-implicit-minimum.yaml)', () => {
  it('storage at $4.50 per million per hour pays for itself from 4 reads an hour (each saves $1.25 − $0.125 per million)', () => {
    const p = price('google-gemini-2.5-pro');
    expect([p.storagePerHour!.value, p.input!.value, p.cachedInput!.value]).toEqual([4.5, 1.25, 0.125]);
    expect(p.storagePerHour!.value / (p.input!.value - p.cachedInput!.value)).toBe(4);
  });
});

describe('Gemini what-if: the explicit cache beside the implicit one', () => {
  it('an explicit cache of the system prompt costs its creation, its reads and its storage over the conversation’s span, by hand', async () => {
    const body = (turns: string[]) => ({
      model: 'gemini-2.5-pro',
      systemInstruction: { parts: [{ text: LONG }] },
      contents: turns.map((t, i) => ({ role: i % 2 ? 'model' : 'user', parts: [{ text: t }] })),
    });
    const r = await rendered('gemini', [body(['a']), body(['a', 'b', 'c'])], ['0ms', '30m']);
    const w = whatIf(r.scenarios[0]!, DEFAULT_ECONOMICS);
    if (!('options' in w)) throw new Error(w.reason);
    expect(w.options.map((o) => o.id)).toEqual(['as-is', 'explicit-cache']);
    const explicit = w.options[1]!;
    const P = explicit.totals.cacheWriteTokens;
    expect(P).toBeGreaterThan(2048);
    const ins = r.economics.get('p')!.requests.map((e) => e.inputTokens);
    // USD per million: input $1.25, cached $0.125, storage $4.50 per hour; 30 minutes stored; creation billed once at input.
    const byHand = (ins.reduce((sum, n) => sum + (n - P) * 1.25 + P * 0.125, 0) + P * 1.25 + P * 4.5 * 0.5) / 1e6;
    expect(explicit.totals.costUsd).toBeCloseTo(byHand, 10);
    expect(w.notes[0]).toMatch(/30 min at \$4\.5 per million tokens per hour/);
  });
});

describe('Gemini calls in HTTP recordings', () => {
  it('claims generateContent paths on any host, and reads a streamed response’s last usageMetadata', () => {
    const r = gemini.recorded!;
    const claims = (u: string) => r.claims(new URL(u));
    expect(claims('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent?alt=json')).toEqual({ model: 'gemini-2.5-pro' });
    expect(claims('https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/google/models/gemini-2.5-pro:streamGenerateContent')).toEqual({
      model: 'gemini-2.5-pro',
    });
    expect(claims('http://localhost:8080/gemini/v1beta/models/gemini-2.5-flash:generateContent')).toEqual({ model: 'gemini-2.5-flash' });
    expect(claims('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:countTokens')).toBeUndefined();
    expect(claims('https://generativelanguage.googleapis.com/v1beta/cachedContents')).toBeUndefined();
    const events = [
      { data: { candidates: [{ content: { parts: [{ text: 'Hel' }] } }], usageMetadata: { promptTokenCount: 5000, cachedContentTokenCount: 4096 } } },
      { data: { candidates: [{ content: { parts: [{ text: 'lo' }] } }], usageMetadata: { promptTokenCount: 5000, cachedContentTokenCount: 4096, candidatesTokenCount: 2 } } },
    ];
    expect(r.streamUsage!(events as never)).toEqual({ usage: { promptTokenCount: 5000, cachedContentTokenCount: 4096, candidatesTokenCount: 2 } });
    expect(r.streamUsage!([{ data: { candidates: [] } }] as never)).toEqual({ problem: 'no event of the stream carries `usageMetadata`' });
  });
});

describe('Bedrock calls in HTTP recordings', () => {
  const claims = (u: string) => bedrockConverse.recorded!.claims(new URL(u));
  const host = 'https://bedrock-runtime.us-east-1.amazonaws.com';

  it('claims the four Runtime operations, the model being the whole modelId with its `:` (API_runtime_Converse: POST /model/{modelId}/converse)', () => {
    expect(claims(`${host}/model/anthropic.claude-sonnet-4-5-20250929-v1:0/converse`)).toEqual({ model: 'anthropic.claude-sonnet-4-5-20250929-v1:0' });
    expect(claims(`${host}/model/global.anthropic.claude-sonnet-4-5-20250929-v1:0/converse-stream`)).toEqual({ model: 'global.anthropic.claude-sonnet-4-5-20250929-v1:0' });
    expect(claims(`${host}/model/us.amazon.nova-pro-v1:0/invoke`)).toEqual({ model: 'us.amazon.nova-pro-v1:0' });
    expect(claims(`${host}/model/anthropic.claude-haiku-4-5-20251001-v1:0/invoke-with-response-stream`)).toEqual({ model: 'anthropic.claude-haiku-4-5-20251001-v1:0' });
  });

  it('decodes a percent-encoded modelId: an SDK writes `:` as %3A, and an inference-profile ARN’s `/` as %2F', () => {
    expect(claims(`${host}/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse`)).toEqual({ model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' });
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0';
    expect(claims(`${host}/model/${encodeURIComponent(arn)}/converse`)).toEqual({ model: arn });
    // Written by hand, unencoded: the ARN spans two path segments, and is still the model.
    expect(claims(`${host}/model/${arn}/converse`)).toEqual({ model: arn });
    const app = 'arn:aws:bedrock:eu-west-1:123456789012:application-inference-profile/fm16bt65tzgx';
    expect(claims(`${host}/model/${encodeURIComponent(app)}/invoke`)).toEqual({ model: app });
    // Broken percent-encoding is kept as written, not thrown on.
    expect(claims(`${host}/model/bad%E0id/converse`)).toEqual({ model: 'bad%E0id' });
  });

  it('claims the path on any host (a gateway keeps it), and nothing else of the Runtime API', () => {
    expect(claims('https://gateway.example.com/v1/acct/gw/aws-bedrock/bedrock-runtime/us-east-1/model/us.amazon.nova-lite-v1:0/converse')).toEqual({
      model: 'us.amazon.nova-lite-v1:0',
    });
    expect(claims(`${host}/model/us.amazon.nova-lite-v1:0/count-tokens`)).toBeUndefined();
    expect(claims(`${host}/async-invoke`)).toBeUndefined();
    expect(claims(`${host}/guardrail/g1/version/1/apply`)).toBeUndefined();
    // Its stream is AWS's binary event stream: not read (the import says so on the request).
    expect(bedrockConverse.recorded!.streamUsage).toBeUndefined();
  });
});
