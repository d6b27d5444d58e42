/**
 * The provider's verdict beside ours (provider-verdict.ts), from captures in the shapes the
 * provider documents: wrapped Anthropic responses carrying `diagnostics.cache_miss_reason`
 * (`{type, cache_missed_input_tokens}`; platform.claude.com/docs/en/build-with-claude/cache-diagnostics,
 * read 2026-12-06) and a Claude Code transcript keeping it as `message.diagnostics.cache_miss_reason`.
 * And an OpenAI Responses API response carrying `prompt_cache_diagnostics` (`{type: "cache_miss",
 * reason, cache_missed_tokens, comparison_reusable_tokens}`, or `cache_hit`,
 * `comparison_response_not_found`, `unavailable`; developers.openai.com/api/docs/guides/prompt-caching/diagnostics,
 * read 2026-12-06, whose example renames a function tool from get_time to get_date).
 * Fixtures are our own, small, in those shapes; the expected agreement is worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { renderTexts } from '../corpus/check.ts';
import { importTrace } from '../import/index.ts';
import { formatError } from '../scenarios/errors.ts';
import { buildReport, reportTable } from './report.ts';
import { providerVerdicts, verdictRowText } from './provider-verdict.ts';

const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
const SYSTEM = 'You are a careful assistant. Read the repository before you change it, and say what you did. '.repeat(60);
const jsonl = (...v: unknown[]) => `${v.map((x) => JSON.stringify(x)).join('\n')}\n`;
const system = (s: string) => [{ type: 'text', text: s, cache_control: { type: 'ephemeral' } }];
const turns = (n: number) =>
  Array.from({ length: n }, (_, i) => [
    { role: 'user', content: `Step ${i + 1}: read the next file.` },
    { role: 'assistant', content: `Read file ${i + 1}.` },
  ]).flat();
const body = (sys: string, n: number) => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 100,
  cache_control: { type: 'ephemeral' },
  system: system(sys),
  messages: [...turns(n), { role: 'user', content: `Step ${n + 1}: read the next file.` }],
});
const usage = (input: number, read: number, write: number) => ({
  input_tokens: input - read - write,
  cache_read_input_tokens: read,
  cache_creation_input_tokens: write,
  output_tokens: 5,
});
const diag = (type: string, tokens?: number) => ({ diagnostics: { cache_miss_reason: { type, ...(tokens !== undefined && { cache_missed_input_tokens: tokens }) } } });
const at = (s: number) => `2026-11-30T10:00:${String(s).padStart(2, '0')}Z`;

const TRACE = jsonl(
  { timestamp: at(0), body: body(SYSTEM, 0), response: { usage: usage(3000, 0, 2900) } },
  { timestamp: at(10), body: body(SYSTEM, 1), response: { usage: usage(3100, 2900, 150), diagnostics: { cache_miss_reason: null } } },
  // The system prompt changes: the provider says system_changed, and so do we.
  { timestamp: at(20), body: body(`${SYSTEM} Today is Monday.`, 2), response: { usage: usage(3200, 0, 3100), ...diag('system_changed', 3050) } },
  // Bytes kept, inside the retention, yet the bill reads nothing: provider-side.
  { timestamp: at(30), body: body(`${SYSTEM} Today is Monday.`, 3), response: { usage: usage(3300, 0, 3200) } },
  // The provider says the messages changed; the model finds the request extends the previous one: a disagreement.
  { timestamp: at(40), body: body(`${SYSTEM} Today is Monday.`, 4), response: { usage: usage(3400, 3200, 100), ...diag('messages_changed') } },
);

async function rendered(text: string, file = 'traces/t.jsonl') {
  const { result, errors } = importTrace(text, { file, id: 't' });
  expect(errors.map(formatError)).toEqual([]);
  const corpus = await renderTexts([{ file: 'scenarios/t.yaml', text: result!.yaml }], config, { everyEvent: false });
  expect(corpus.errors.map(formatError)).toEqual([]);
  return { corpus, yaml: result!.yaml };
}

describe("the provider's verdict beside ours", () => {
  it('imports Anthropic’s cache_miss_reason beside measured, and counts agreement: 1 of 2, one disagreement, one provider-side miss', async () => {
    const { corpus, yaml } = await rendered(TRACE);
    const payloads = (parse(yaml) as { events: { payload: { providerMiss?: unknown } }[] }).events.map((e) => e.payload.providerMiss);
    expect(payloads).toEqual([undefined, undefined, { type: 'system_changed', missedInputTokens: 3050 }, undefined, { type: 'messages_changed' }]);
    const r = corpus.scenarios[0]!;
    const v = providerVerdicts(r, corpus.economics.get('t')!)!;
    expect(v.rows.map((x) => [x.offset, x.provider ?? null, x.ours, x.agrees, x.providerSide])).toEqual([
      [3, 'system_changed', 'system-changed', true, false],
      // Held by @3: 0 read + 3,100 written; @4 read 0 of them.
      [4, null, null, null, true],
      [5, 'messages_changed', null, false, false],
    ]);
    expect(v.rows[1]!.billedMissTokens).toBe(3100);
    // As the page lists them under "Measured beside modelled".
    expect(v.rows.map(verdictRowText)).toEqual([
      'the provider: system_changed (3,050 tokens missed) — ours: system-changed (at @3) — agrees',
      'ours: no break — a billed miss of 3,100 tokens on a byte-identical prefix inside the retention: provider-side, not actionable',
      'the provider: messages_changed — ours: no break — disagrees',
    ]);
    expect(v.summary).toBe(
      'the provider agrees on 1 of 2 misses; one disagreement: @5 (the provider: messages_changed; ours: no break); 1 billed miss (3,100 tokens) on a byte-identical prefix inside the retention: provider-side, not actionable',
    );
    const report = buildReport(corpus);
    expect(report.scenarios[0]!.providerVerdicts).toMatchObject({ compared: 2, agreed: 1, providerSide: 1 });
    expect(reportTable(corpus)).toContain(`provider's verdict: ${v.summary}`);
  });

  it('a Claude Code transcript keeps the verdict on the reply (message.diagnostics.cache_miss_reason)', async () => {
    const line = (type: string, message: object, s: number) => ({ type, sessionId: 'sess-1', uuid: `u${s}`, timestamp: at(s), message });
    const text = jsonl(
      line('user', { role: 'user', content: 'Find the failing test.' }, 0),
      line(
        'assistant',
        {
          id: 'msg_1',
          model: 'claude-sonnet-4-5',
          role: 'assistant',
          content: [{ type: 'text', text: 'Looking.' }],
          usage: usage(14200, 0, 14100),
          diagnostics: { cache_miss_reason: { type: 'tools_changed', cache_missed_input_tokens: 14000 } },
        },
        1,
      ),
    );
    const { result, errors } = importTrace(text, { file: 'c.jsonl', id: 'c' });
    expect(errors.map(formatError)).toEqual([]);
    expect((parse(result!.yaml) as { events: { payload: { providerMiss?: unknown } }[] }).events[0]!.payload.providerMiss).toEqual({
      type: 'tools_changed',
      missedInputTokens: 14000,
    });
  });

  it('imports OpenAI’s prompt_cache_diagnostics (a miss by its reason; a hit is no miss) and counts agreement: 2 of 2, one not compared', async () => {
    const policy = 'Answer from the support policy below, and quote the section you used. '.repeat(80);
    const tool = (name: string) => [{ type: 'function', name, parameters: { type: 'object', properties: {} } }];
    const input = (n: number, first = 'Reply with exactly OK.') =>
      Array.from({ length: n }, (_, i) => [
        { role: 'user', content: i === 0 ? first : `Question ${i + 1}?` },
        { role: 'assistant', content: `Answer ${i + 1}.` },
      ])
        .flat()
        .concat([{ role: 'user', content: `Question ${n + 1}?` }]);
    const responses = (name: string, n: number, first?: string) => ({ model: 'gpt-5.6-terra', instructions: policy, tools: tool(name), input: input(n, first) });
    const used = (input: number, cached: number) => ({ input_tokens: input, input_tokens_details: { cached_tokens: cached }, output_tokens: 4 });
    const miss = (reason: string, missed: number, reusable: number) => ({
      prompt_cache_diagnostics: { type: 'cache_miss', reason, cache_missed_tokens: missed, comparison_reusable_tokens: reusable },
    });
    const text = jsonl(
      { timestamp: at(0), body: responses('get_time', 0), response: { usage: used(1400, 0) } },
      { timestamp: at(10), body: responses('get_time', 1), response: { usage: used(1420, 1380), prompt_cache_diagnostics: { type: 'cache_hit' } } },
      // The guide's own example: the function tool renamed.
      { timestamp: at(20), body: responses('get_date', 2), response: { usage: used(1440, 0), ...miss('tools_changed', 1400, 1420) } },
      // The first user message edited: the input changed.
      { timestamp: at(30), body: responses('get_date', 3, 'Reply with exactly OK, please.'), response: { usage: used(1460, 0), ...miss('input_changed', 1420, 1440) } },
      {
        timestamp: at(40),
        body: responses('get_date', 4, 'Reply with exactly OK, please.'),
        response: { usage: used(1480, 1440), prompt_cache_diagnostics: { type: 'comparison_response_not_found' } },
      },
    );
    const { corpus, yaml } = await rendered(text);
    const payloads = (parse(yaml) as { events: { payload: { providerMiss?: unknown } }[] }).events.map((e) => e.payload.providerMiss);
    expect(payloads).toEqual([
      undefined,
      undefined,
      { type: 'tools_changed', missedInputTokens: 1400 },
      { type: 'input_changed', missedInputTokens: 1420 },
      { type: 'comparison_response_not_found' },
    ]);
    const v = providerVerdicts(corpus.scenarios[0]!, corpus.economics.get('t')!)!;
    expect(v.rows.map((x) => [x.offset, x.provider ?? null, x.agrees])).toEqual([
      [3, 'tools_changed', true],
      [4, 'input_changed', true],
      [5, 'comparison_response_not_found', null],
    ]);
    expect(v.summary).toBe('the provider agrees on 2 of 2 misses');
    expect(verdictRowText(v.rows[2]!)).toBe('the provider: comparison_response_not_found — ours: no break — not compared (the provider’s reason says nothing about the request)');
  });

  it('OpenAI diagnostics in another shape: a located error with the fix', () => {
    const bad = (d: unknown) =>
      importTrace(jsonl({ body: { model: 'gpt-5.6-terra', input: 'Hi' }, response: { usage: { input_tokens: 5, output_tokens: 1 }, prompt_cache_diagnostics: d } }), {
        file: 'o.jsonl',
        id: 'o',
      }).errors.map(formatError);
    expect(bad('miss')).toEqual([
      expect.stringMatching(/^o\.jsonl:1:\d+ error: `prompt_cache_diagnostics` must be an object with a `type`\n {2}fix: import the response as the API returned it/),
    ]);
    expect(bad({ type: 'cache_miss', cache_missed_tokens: 3 })).toEqual([
      expect.stringMatching(/^o\.jsonl:1:\d+ error: a `cache_miss` in `prompt_cache_diagnostics` must say its `reason`/),
    ]);
    expect(bad({ type: 'cache_miss', reason: 'input_changed', cache_missed_tokens: -1 })).toEqual([
      expect.stringMatching(/error: `cache_missed_tokens` must be a whole number of tokens, got -1/),
    ]);
  });

  it('a verdict in another shape is an error at its line, with the fix', () => {
    const text = jsonl({ body: body(SYSTEM, 0), response: { usage: usage(3000, 0, 2900), diagnostics: { cache_miss_reason: 'system' } } });
    const errs = importTrace(text, { file: 't.jsonl', id: 't' }).errors.map(formatError);
    expect(errs).toEqual([
      expect.stringMatching(/^t\.jsonl:1:\d+ error: `diagnostics\.cache_miss_reason` must be an object with a `type`\n {2}fix: import the response as the API returned it/),
    ]);
  });
});
