/**
 * What the provider billed, imported with the trace: each usage shape (Anthropic with and without
 * its cache_creation breakdown, OpenAI Chat with and without GPT-5.6's cache_write_tokens, OpenAI
 * Responses, OTLP GenAI spans under the current and the deprecated attribute names) normalised to
 * `{inputTokens (all), cachedTokens, cacheWriteTokens, outputTokens}` on the payload's `measured`; a trace
 * without usage imports exactly as before; malformed usage is an error at the trace's
 * line:column with the fix, and no scenario.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { renderTexts } from '../corpus/check.ts';
import { formatError } from '../scenarios/errors.ts';
import { importTrace } from './index.ts';

const FILE = 'traces/t.jsonl';
const run = (text: string) => importTrace(text, { file: FILE, id: 'imported' });
const jsonl = (...v: unknown[]) => `${v.map((x) => JSON.stringify(x)).join('\n')}\n`;
const payloads = (yaml: string) => (parse(yaml) as { events: { payload: { measured?: unknown; body: unknown } }[] }).events.map((e) => e.payload);
const measured = (text: string) => {
  const { result, errors } = run(text);
  expect(errors.map(formatError)).toEqual([]);
  return payloads(result!.yaml).map((p) => p.measured);
};
const errorsOf = (text: string) => {
  const { result, errors } = run(text);
  expect(result).toBeUndefined();
  return errors.map(formatError);
};
/** 1-based column of the first occurrence of `needle` on line `line` of `text`. */
const colOf = (text: string, line: number, needle: string) => text.split('\n')[line - 1]!.indexOf(needle) + 1;

const anth = { model: 'claude-sonnet-4-5', max_tokens: 100, system: 'S', messages: [{ role: 'user', content: 'q' }] };
const chat = { model: 'gpt-5.6-terra', messages: [{ role: 'user', content: 'q' }] };
const resp = { model: 'gpt-5', input: [{ role: 'user', content: 'q' }] };

describe('usage shapes → measured', () => {
  it('Anthropic: input_tokens excludes reads and writes, so all three are added; the 5m/1h breakdown alone gives the writes', () => {
    const t = jsonl(
      {
        timestamp: '2026-11-30T10:00:00Z',
        body: anth,
        response: {
          type: 'message',
          content: [{ type: 'text', text: 'secret-free reply' }],
          usage: { input_tokens: 12, cache_read_input_tokens: 1800, cache_creation_input_tokens: 240, output_tokens: 9 },
        },
      },
      {
        timestamp: '2026-11-30T10:00:05Z',
        body: anth,
        usage: { input_tokens: 3, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 352 } },
      },
      {
        timestamp: '2026-11-30T10:00:09Z',
        body: anth,
        usage: {
          input_tokens: 20,
          cache_read_input_tokens: null,
          cache_creation_input_tokens: 1352,
          cache_creation: { ephemeral_5m_input_tokens: 1352, ephemeral_1h_input_tokens: 0 },
        },
      },
    );
    expect(measured(t)).toEqual([
      { inputTokens: 2052, cachedTokens: 1800, cacheWriteTokens: 240, outputTokens: 9 },
      { inputTokens: 1355, cachedTokens: 0, cacheWriteTokens: 1352, cacheWrite1hTokens: 352 },
      // A null read (the SDKs' type for a field the response did not carry) is not reported: not judged, never 0.
      { inputTokens: 1372, cacheWriteTokens: 1352 },
    ]);
    // Nothing of the response but its usage reaches the scenario.
    expect(run(t).result!.yaml).not.toContain('secret-free reply');
  });

  it('OpenAI Chat: prompt_tokens already includes cached tokens; cache_write_tokens (GPT-5.6) when reported, left out when not', () => {
    const t = jsonl(
      { body: chat, response: { usage: { prompt_tokens: 2600, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 2000, cache_write_tokens: 400 } } } },
      { body: chat, usage: { prompt_tokens: 2006, prompt_tokens_details: { cached_tokens: 1920 } } },
      { body: chat, usage: { prompt_tokens: 50 } },
    );
    expect(measured(t)).toEqual([
      { inputTokens: 2600, cachedTokens: 2000, cacheWriteTokens: 400, outputTokens: 10 },
      { inputTokens: 2006, cachedTokens: 1920 },
      { inputTokens: 50 },
    ]);
  });

  it('OpenAI Responses: input_tokens and input_tokens_details', () => {
    const t = jsonl({ body: resp, response: { object: 'response', usage: { input_tokens: 12033, input_tokens_details: { cached_tokens: 11904 }, output_tokens: 44 } } });
    expect(measured(t)).toEqual([{ inputTokens: 12033, cachedTokens: 11904, outputTokens: 44 }]);
  });

  const attr = (key: string, v: unknown) => ({ key, value: typeof v === 'number' ? { intValue: String(v) } : { stringValue: typeof v === 'string' ? v : JSON.stringify(v) } });
  const span = (id: string, start: string, usage: Record<string, unknown>) => ({
    spanId: id,
    startTimeUnixNano: start,
    attributes: [
      attr('gen_ai.provider.name', 'openai'),
      attr('gen_ai.request.model', 'gpt-5'),
      attr('gen_ai.input.messages', [{ role: 'user', parts: [{ type: 'text', content: 'q' }] }]),
      ...Object.entries(usage).map(([k, v]) => attr(k, v)),
    ],
  });
  const otlp = (...spans: unknown[]) => JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }, null, 1);

  it('OTLP GenAI spans: gen_ai.usage.input_tokens (includes cached), cache_read and cache_write (current names), the deprecated cache_creation, or no usage', () => {
    const doc = otlp(
      span('a', '1000', {
        'gen_ai.usage.input_tokens': 1500,
        'gen_ai.usage.cache_read.input_tokens': 1024,
        'gen_ai.usage.cache_write.input_tokens': 300,
        'gen_ai.usage.output_tokens': 77,
      }),
      span('b', '2000', { 'gen_ai.usage.input_tokens': 1600, 'gen_ai.usage.cache_creation.input_tokens': 200 }),
      span('c', '3000', {}),
      // Output alone is no input figure to compare with: nothing measured, no error.
      span('d', '4000', { 'gen_ai.usage.output_tokens': 5 }),
    );
    const { result, errors } = importTrace(doc, { file: 'traces/t.json', id: 'imported' });
    expect(errors.map(formatError)).toEqual([]);
    expect(payloads(result!.yaml).map((p) => p.measured)).toEqual([
      { inputTokens: 1500, cachedTokens: 1024, cacheWriteTokens: 300, outputTokens: 77 },
      { inputTokens: 1600, cacheWriteTokens: 200 },
      undefined,
      undefined,
    ]);
    expect(result!.measured).toBe(2);
  });

  it('OTLP usage that breaks the convention: no input count, or one smaller than reads + writes (an uncached count)', () => {
    const doc = otlp(
      span('a', '1000', { 'gen_ai.usage.cache_read.input_tokens': 5 }),
      span('b', '2000', { 'gen_ai.usage.input_tokens': 3, 'gen_ai.usage.cache_read.input_tokens': 1352 }),
    );
    const errs = importTrace(doc, { file: 'traces/t.json', id: 'imported' }).errors.map(formatError);
    expect(errs).toHaveLength(2);
    expect(errs[0]).toMatch(
      /^traces\/t\.json:\d+:\d+ error: GenAI span usage: this span has `gen_ai\.usage\.cache_read\.input_tokens` but no `gen_ai\.usage\.input_tokens`\n {2}fix: /,
    );
    expect(errs[1]).toMatch(/GenAI span usage: `gen_ai\.usage\.input_tokens` \(3\) is less than the cache read \+ write tokens \(1352\)/);
    // The error names the attribute's own line in the pretty-printed document.
    const line = Number(/:(\d+):/.exec(errs[1]!)![1]);
    expect(doc.split('\n')[line - 1]).toMatch(/"intValue": "3"|"value"/);
  });

  it('a trace without usage imports exactly as before: no `measured` anywhere', () => {
    const { result } = run(jsonl({ timestamp: '2026-11-30T10:00:00Z', body: anth }, anth));
    expect(result).toBeUndefined(); // mixed timestamps is the old rule, unchanged
    const ok = run(jsonl(anth, anth)).result!;
    expect(ok.yaml).not.toContain('measured');
    expect(ok.measured).toBe(0);
    expect(payloads(ok.yaml)[0]).toEqual({ format: 'anthropic', body: anth });
  });

  it('the imported figures render clean and stay on the request', async () => {
    const t = jsonl({ body: chat, usage: { prompt_tokens: 30, prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 } } });
    const r = await renderTexts(
      [{ file: 'scenarios/imported.yaml', text: run(t).result!.yaml }],
      { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' },
      { everyEvent: false },
    );
    expect(r.errors.map(formatError)).toEqual([]);
    expect((r.scenarios[0]!.scenario.events[0]!.payload as { measured: unknown }).measured).toEqual({ inputTokens: 30, cachedTokens: 0, cacheWriteTokens: 0 });
  });
});

describe('malformed usage: located errors, no scenario', () => {
  it("a count that is not a whole number: the value's line and column", () => {
    const t = jsonl({ body: anth }, { body: anth, response: { usage: { input_tokens: 3, cache_read_input_tokens: -1 } } });
    expect(errorsOf(t)).toEqual([
      `traces/t.jsonl:2:${colOf(t, 2, '-1')} error: response usage: \`cache_read_input_tokens\` must be a whole number of tokens (0 or more), got -1\n  fix: write the count the provider returned, e.g. "cache_read_input_tokens": 1024 — or leave \`cache_read_input_tokens\` out if it was not reported`,
    ]);
    expect(errorsOf(jsonl({ body: resp, usage: { input_tokens: 5, input_tokens_details: {}, output_tokens: 1.5 } }))[0]).toMatch(
      /^traces\/t\.jsonl:1:\d+ error: response usage: `output_tokens` must be a whole number of tokens \(0 or more\), got 1\.5/,
    );
    expect(errorsOf(jsonl({ body: chat, usage: { prompt_tokens: 5, completion_tokens: -2 } }))[0]).toMatch(/`completion_tokens` must be a whole number of tokens/);
    expect(errorsOf(jsonl({ body: chat, usage: { prompt_tokens: '2006' } }))[0]).toMatch(
      /^traces\/t\.jsonl:1:\d+ error: response usage: `prompt_tokens` must be a whole number of tokens/,
    );
  });

  it("another provider's usage, a breakdown that does not add up, counts that contradict each other", () => {
    const other = jsonl({ body: anth, usage: { prompt_tokens: 10, prompt_tokens_details: { cached_tokens: 0 } } });
    expect(errorsOf(other)).toEqual([
      `traces/t.jsonl:1:${colOf(other, 1, '{"prompt_tokens"')} error: response usage: this is an OpenAI Chat Completions usage, but the requests are Anthropic Messages requests\n  fix: give each request the usage of its own response: an Anthropic Messages usage ({"input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"})`,
    ]);
    expect(errorsOf(jsonl({ body: resp, usage: { input_tokens: 10, cache_read_input_tokens: 0 } }))[0]).toMatch(
      /this is an Anthropic Messages usage, but the requests are OpenAI Responses requests/,
    );
    const sum = jsonl({
      body: anth,
      usage: { input_tokens: 3, cache_creation_input_tokens: 100, cache_creation: { ephemeral_5m_input_tokens: 60, ephemeral_1h_input_tokens: 30 } },
    });
    expect(errorsOf(sum)[0]).toBe(
      `traces/t.jsonl:1:${colOf(sum, 1, '{"ephemeral_5m')} error: response usage: \`cache_creation\` adds up to 90 tokens (5 min: 60, 1 h: 30), but \`cache_creation_input_tokens\` is 100\n  fix: copy the usage exactly as the API returned it: cache_creation_input_tokens is the sum of ephemeral_5m_input_tokens and ephemeral_1h_input_tokens`,
    );
    expect(errorsOf(jsonl({ body: chat, usage: { prompt_tokens: 10, prompt_tokens_details: { cached_tokens: 8, cache_write_tokens: 4 } } }))[0]).toMatch(
      /`prompt_tokens` \(10\) is less than prompt_tokens_details\.cached_tokens \+ cache_write_tokens \(12\), but OpenAI counts cached and written tokens inside prompt_tokens/,
    );
  });

  it('usage in the wrong place: both response and usage, a response that is not an object, a usage that is not one', () => {
    const both = jsonl({ body: anth, response: { usage: { input_tokens: 1 } }, usage: { input_tokens: 1 } });
    expect(errorsOf(both)[0]).toBe(
      `traces/t.jsonl:1:${both.lastIndexOf('"usage"') + 1} error: this line has both \`response\` and \`usage\`: which one did the provider bill?\n  fix: keep one: the whole response ({"response": {"usage": {…}, …}}) or its usage alone ({"usage": {…}})`,
    );
    expect(errorsOf(jsonl({ body: anth, response: 'ok' }))[0]).toMatch(/^traces\/t\.jsonl:1:\d+ error: `response` must be the provider's response object/);
    expect(errorsOf(jsonl({ body: anth, usage: [1] }))[0]).toMatch(/^traces\/t\.jsonl:1:\d+ error: response usage: the usage must be an object of token counts/);
    expect(errorsOf(jsonl({ body: chat, usage: { completion_tokens: 3 } }))[0]).toMatch(/this usage has no `prompt_tokens`/);
  });
});
