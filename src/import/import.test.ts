/**
 * `npm run import`, unit by unit: each input format (OpenAI Chat / Responses and Anthropic JSON
 * Lines, bare or wrapped; OTLP JSON with string or structured attributes, one document or JSON
 * Lines), each error (empty, not JSON, unknown shape, mixed providers, mixed inputs, partial
 * timestamps, no GenAI span, a payload the fold rejects) located at the trace's line:column,
 * secrets dropped and reported, determinism, and that the result renders clean.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { renderTexts } from '../corpus/check.ts';
import { formatError } from '../scenarios/errors.ts';
import { importTrace, type ImportOptions } from './index.ts';
import { withBodies } from '../../tests/support/imported.ts';

const FILE = 'traces/t.jsonl';
const jsonl = (...v: unknown[]) => `${v.map((x) => JSON.stringify(x)).join('\n')}\n`;
const run = (text: string, o: Partial<ImportOptions> = {}) => importTrace(text, { file: FILE, id: 'imported', ...o });
const errorsOf = (text: string, o: Partial<ImportOptions> = {}) => run(text, o).errors.map(formatError);
const events = (yaml: string) =>
  withBodies((parse(yaml) as { events: { off: number; t: string; payload: { format: string; body: Record<string, unknown> }; note: string }[] }).events);
/** The trace line an imported event came from (its note); events are numbered 1..N in the order sent. */
const traceLine = (e: { note?: string }): number => Number(/^line (\d+) of the trace$/.exec(e.note ?? '')?.[1]);
const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
const renders = async (yaml: string) => await renderTexts([{ file: 'scenarios/imported.yaml', text: yaml }], config, { everyEvent: false });

const chat1 = {
  model: 'gpt-5',
  messages: [
    { role: 'system', content: 'S' },
    { role: 'user', content: 'q' },
  ],
};
const chat2 = { model: 'gpt-5', messages: [...chat1.messages, { role: 'assistant', content: 'a' }, { role: 'user', content: 'q2' }] };
const anth1 = { model: 'claude-x', max_tokens: 100, system: 'S', messages: [{ role: 'user', content: 'q' }] };

describe('input formats', () => {
  it('OpenAI Chat Completions bodies, one per line: offsets are trace lines, no timestamps → 0ms', async () => {
    const { result, errors } = run(`${jsonl(chat1)}\n${jsonl(chat2)}`);
    expect(errors).toEqual([]);
    expect(result!.format).toBe('openai-chat');
    const ev = events(result!.yaml);
    expect(ev.map((e) => [traceLine(e), e.t, e.payload.format, e.note])).toEqual([
      [1, '0ms', 'openai-chat', 'line 1 of the trace'],
      [3, '0ms', 'openai-chat', 'line 3 of the trace'],
    ]);
    expect(ev[1]!.payload.body).toEqual(chat2);
    const r = await renders(result!.yaml);
    expect(r.errors.map(formatError)).toEqual([]);
    expect(r.scenarios[0]!.requests).toHaveLength(2);
  });

  it('OpenAI Responses bodies wrapped with timestamps: labels are elapsed since the first', async () => {
    const body = { model: 'gpt-5', instructions: 'I', input: [{ role: 'user', content: 'q' }] };
    const { result, errors } = run(jsonl({ timestamp: '2026-11-30T10:00:00.000Z', body }, { timestamp: '2026-11-30T10:04:30.250Z', body }));
    expect(errors).toEqual([]);
    expect(result!.format).toBe('openai-responses');
    expect(events(result!.yaml).map((e) => e.t)).toEqual(['0ms', '4m 30.25s']);
    expect(result!.yaml).toContain('the first sent at 2026-11-30T10:00:00.000Z');
    expect((await renders(result!.yaml)).errors).toEqual([]);
  });

  it('Anthropic Messages bodies (Unix-millisecond timestamps), told from Chat by `system`', () => {
    const { result, errors } = run(
      jsonl(
        { timestamp: 1764496800000, body: anth1 },
        {
          timestamp: 1764496801500,
          body: {
            ...anth1,
            messages: [
              { role: 'user', content: 'q' },
              { role: 'assistant', content: 'a' },
              { role: 'user', content: 'more' },
            ],
          },
        },
      ),
    );
    expect(errors).toEqual([]);
    expect(result!.format).toBe('anthropic');
    expect(events(result!.yaml).map((e) => e.t)).toEqual(['0ms', '1.5s']);
  });

  it('a body both Chat and Anthropic could have sent: max_tokens on every line picks Anthropic, --format overrides', () => {
    const both = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'q' }] };
    expect(run(jsonl(both)).result!.format).toBe('anthropic');
    expect(run(jsonl({ model: 'm', messages: [{ role: 'user', content: 'q' }] })).result!.format).toBe('openai-chat');
    expect(run(jsonl(both), { format: 'openai-chat' }).result!.format).toBe('openai-chat');
  });

  const span = (id: string, startNs: string, attrs: Record<string, unknown>, structured = false) => ({
    spanId: id,
    name: 'chat gpt-5',
    startTimeUnixNano: startNs,
    attributes: Object.entries(attrs).map(([key, v]) => ({ key, value: typeof v === 'string' ? { stringValue: v } : structured ? toAny(v) : { stringValue: JSON.stringify(v) } })),
  });
  const toAny = (v: unknown): unknown =>
    Array.isArray(v)
      ? { arrayValue: { values: v.map(toAny) } }
      : v && typeof v === 'object'
        ? { kvlistValue: { values: Object.entries(v).map(([key, x]) => ({ key, value: toAny(x) })) } }
        : typeof v === 'number'
          ? { intValue: String(v) }
          : { stringValue: String(v) };
  const genai = (msgs: unknown[]) => ({
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'openai',
    'gen_ai.request.model': 'gpt-5',
    'gen_ai.system_instructions': [{ type: 'text', content: 'S' }],
    'gen_ai.input.messages': msgs,
  });
  const q = { role: 'user', parts: [{ type: 'text', content: 'q' }] };
  const otlp = (spans: unknown[]) => ({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'x' }, spans }] }] });

  it('OTLP JSON (pretty, one document): GenAI spans in start order, JSON-string attributes, other spans skipped', async () => {
    const doc = otlp([
      span('b', '1764496805000000000', genai([q, { role: 'assistant', parts: [{ type: 'text', content: 'a' }] }, q])),
      span('a', '1764496800000000000', genai([q])),
      span('c', '1764496801000000000', { 'http.method': 'GET' }),
    ]);
    const { result, errors } = run(JSON.stringify(doc, null, 2), { file: 'traces/t.json' });
    expect(errors).toEqual([]);
    expect(result!.format).toBe('otel-genai');
    expect(result!.skippedSpans).toBe(1);
    // Located at the skipped span itself: the `{` line just above its `"spanId": "c"` line.
    const spanLine = JSON.stringify(doc, null, 2)
      .split('\n')
      .findIndex((l) => l.includes('"spanId": "c"'));
    expect(result!.leftOut).toEqual([
      { what: 'spans without recorded input messages', count: 1, why: 'no `gen_ai.input.messages`, `gen_ai.prompt` or message events: not a request to rebuild', line: spanLine },
    ]);
    const ev = events(result!.yaml);
    expect(ev.map((e) => [e.off, e.t])).toEqual([
      [1, '0ms'],
      [2, '5s'],
    ]);
    expect(ev[0]!.payload.body).toEqual({ model: 'gpt-5', system_instructions: [{ type: 'text', content: 'S' }], input_messages: [q] });
    expect((await renders(result!.yaml)).errors).toEqual([]);
  });

  it('OTLP JSON Lines with structured (arrayValue / kvlistValue) attributes', () => {
    const { result, errors } = run(jsonl(otlp([span('a', '1000000', genai([q]), true)]), otlp([span('b', '2000000', genai([q, q]), true)])));
    expect(errors).toEqual([]);
    expect(events(result!.yaml).map((e) => (e.payload.body.input_messages as unknown[]).length)).toEqual([1, 2]);
  });

  it('is deterministic: the same trace gives the same bytes', () => {
    const t = jsonl({ timestamp: '2026-11-30T10:00:00Z', body: chat1 }, { timestamp: '2026-11-30T10:00:01Z', body: chat2 });
    expect(run(t).result!.yaml).toBe(run(t).result!.yaml);
  });

  it('a re-import keeps the previous file’s annotations and expect', async () => {
    const first = run(jsonl(chat1)).result!.yaml;
    const edited = `${first}expect:\n  busts: []\nannotations:\n  - request: "@1"\n    find: "q"\n    comment: the question\n`;
    const again = run(jsonl(chat1), { previous: edited }).result!.yaml;
    expect(parse(again)).toMatchObject({ expect: { busts: [] }, annotations: [{ request: '@1', find: 'q', comment: 'the question' }] });
    expect((await renders(again)).errors).toEqual([]);
  });
});

describe('secrets', () => {
  it('credential headers, credential fields and key-looking strings are dropped and reported, never written', () => {
    const key = 'sk-proj-abcdefghijklmnopqrstuvwxyz012345';
    const body = { ...chat1, api_key: key, messages: [{ role: 'user', content: `my key is ${key}, token Bearer abcdefghijklmnopqrstuvwxyz.0123` }] };
    const { result, errors } = run(jsonl({ headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body }));
    expect(errors).toEqual([]);
    expect(result!.yaml).not.toContain(key);
    expect(result!.yaml).not.toContain('abcdefghijklmnopqrstuvwxyz.0123');
    expect(result!.yaml).not.toMatch(/api_key|Authorization/);
    expect(result!.yaml).toContain('my key is [redacted secret], token [redacted secret]');
    const line = JSON.stringify({ headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body });
    const col = (s: string) => line.indexOf(s) + 1;
    expect(result!.dropped.map((d) => `${d.pos.line}:${d.pos.col} ${d.what}: ${d.where}`)).toEqual([
      `1:${col('"Authorization"')} a credential header: header Authorization`,
      `1:${col('"my key')} an API key (sk-…): messages.0.content`,
      `1:${col('"my key')} a bearer token: messages.0.content`,
      `1:${col('"api_key"')} a credential field (\`api_key\`): api_key`,
    ]);
  });
});

describe('errors name the trace line and column, and nothing is produced', () => {
  it('an empty file', () => {
    expect(errorsOf('\n  \n')).toEqual(['traces/t.jsonl:1:1 error: the trace is empty\n  fix: capture at least one request: one JSON request body per line']);
  });

  it('a line that is not JSON', () => {
    const [e] = errorsOf(`${jsonl(chat1)}{"model": "gpt-5", "messages": [}\n`);
    expect(e).toMatch(/^traces\/t\.jsonl:2:33 error: not JSON: expected a value, found `}`\n/);
    expect(e).toMatch(/fix: write one complete JSON object per line/);
    expect(run(`${jsonl(chat1)}{"model"\n`).result).toBeUndefined();
  });

  it('a line of another JSON type', () => {
    expect(errorsOf(jsonl(chat1, [1, 2]))[0]).toMatch(/^traces\/t\.jsonl:2:1 error: line 2 is a JSON list, not an object/);
  });

  it('an unknown shape', () => {
    expect(errorsOf(jsonl({ model: 'm', prompt: 'hi' }))[0]).toMatch(
      /^traces\/t\.jsonl:1:1 error: not a request body of a known provider: not OpenAI Chat Completions: it has no `messages`; not OpenAI Responses: it has no `input`/,
    );
  });

  it('mixed providers: names both lines', () => {
    const [e] = errorsOf(jsonl(chat1, chat2, anth1));
    expect(e).toMatch(/^traces\/t\.jsonl:3:1 error: this line is an Anthropic Messages request body, but line 1 is an OpenAI Chat Completions one — mixed providers/);
    expect(e).toMatch(/fix: .*split the trace per provider/);
  });

  it('mixed request bodies and OTLP documents', () => {
    expect(errorsOf(jsonl({ resourceSpans: [] }, chat1))[0]).toMatch(
      /^traces\/t\.jsonl:2:1 error: this line is a request body, but line 1 is an OTLP trace document or span — mixed inputs/,
    );
  });

  it('timestamps on some requests only', () => {
    expect(errorsOf(jsonl({ timestamp: '2026-11-30T10:00:00Z', body: chat1 }, chat2))[0]).toMatch(/^traces\/t\.jsonl:2:1 error: this request has no timestamp, but line 1's has/);
  });

  it('a bad timestamp and an unknown wrapper field, located', () => {
    expect(errorsOf(jsonl({ timestamp: 'yesterday', trace: 1, body: chat1 }))).toEqual([
      expect.stringMatching(/^traces\/t\.jsonl:1:26 error: unknown field `trace` around a request body/),
      expect.stringMatching(/^traces\/t\.jsonl:1:14 error: `timestamp` is not an ISO-8601 instant or a Unix time, got "yesterday"/),
    ]);
  });

  it('a payload the requests fold rejects points at the field', () => {
    const line = JSON.stringify({ model: 'claude', max_tokens: 5, system: 'S', messages: [{ role: 'user', content: 7 }] });
    const [e] = errorsOf(`${line}\n`);
    expect(e).toMatch(new RegExp(`^traces/t\\.jsonl:1:${line.indexOf('7') + 1} error: Anthropic Messages request: \`messages\\.0\\.content\``));
  });

  it('an OTLP export without GenAI content', () => {
    expect(errorsOf(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ spanId: 'a', startTimeUnixNano: '1', attributes: [] }] }] }] }, null, 2))[0]).toMatch(
      /^traces\/t\.jsonl:1:1 error: no span records its input messages \(`gen_ai\.input\.messages`, `gen_ai\.prompt` or message events; 1 span read\)\n {2}fix: turn on message content capture/,
    );
  });

  it('Vercel AI SDK telemetry spans (their prompt in `ai.prompt.messages`, recorded by default): said to be not read, with what to import instead — not told to turn on a capture that is on', () => {
    const span = {
      spanId: 'a',
      startTimeUnixNano: '1',
      attributes: [
        { key: 'ai.model.id', value: { stringValue: 'gpt-4o-mini' } },
        { key: 'ai.prompt.messages', value: { stringValue: '[{"role":"user","content":[{"type":"text","text":"hi"}]}]' } },
      ],
    };
    const [error] = errorsOf(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] }, null, 2));
    expect(error).toMatch(
      /\n {2}fix: these are Vercel AI SDK telemetry spans \(`ai\.prompt\.messages`\), which this import does not read: record the calls with the AI SDK DevTools middleware/,
    );
    expect(error).not.toContain('turn on message content capture');
  });

  it('OTLP spans of two providers: names the span line', () => {
    const mk = (provider: string, t: string) => ({
      spanId: t,
      startTimeUnixNano: t,
      attributes: [
        { key: 'gen_ai.provider.name', value: { stringValue: provider } },
        { key: 'gen_ai.request.model', value: { stringValue: 'm' } },
        { key: 'gen_ai.input.messages', value: { stringValue: '[{"role":"user","parts":[{"type":"text","content":"q"}]}]' } },
      ],
    });
    const text = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [mk('openai', '1'), mk('anthropic', '2')] }] }] }, null, 1);
    const [e] = errorsOf(text);
    const line = text.split('\n').findIndex((l) => l.includes('"anthropic"')); // the attribute's value starts the line above
    expect(e).toMatch(new RegExp(`^traces/t\\.jsonl:${line}:\\d+ error: this span's provider is \`anthropic\`, but an earlier span's \\(line \\d+\\) is \`openai\``));
  });
});

describe('jsonError', () => {
  it('names the offset and the problem', async () => {
    const { jsonError } = await import('./json-error.ts');
    expect(jsonError('{"a": 1,}')).toEqual({ offset: 8, problem: 'expected a field name in double quotes, found `}`' });
    expect(jsonError('{"a": "x')).toEqual({ offset: 6, problem: 'a string that never ends' });
    expect(jsonError('{"a": 1} x')).toEqual({ offset: 9, problem: 'expected nothing more after the value, found `x`' });
    expect(jsonError('{"a" 1}')).toEqual({ offset: 5, problem: 'expected `:`, found `1`' });
    expect(jsonError('[1 2]')).toEqual({ offset: 3, problem: 'expected `,` or `]`, found `2`' });
  });
});
