/**
 * Request parameters as a cache dimension on Anthropic (docs/cache-economics.md, "What the provider would cache"): a changed
 * `tool_choice`, thinking configuration or image set between two requests invalidates the messages
 * entries only — the next request still reads the tools + system entry — and the break is
 * `parameter-changed`, naming the parameter and the request event that changed it; an unchanged
 * parameter keeps every entry.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { importTrace } from '../import/index.ts';
import { renderTexts } from '../corpus/check.ts';
import { formatError } from '../scenarios/errors.ts';

const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
const SYSTEM = 'You are a careful assistant. Read the repository before you change it, and say what you did. '.repeat(80);
const HISTORY = 'Earlier findings: the failing test sums money in floating point. '.repeat(80);
const IMAGE = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } };

/** The system prompt with a breakpoint on it, and automatic caching (a top-level `cache_control`) for the last block: what the requests ask for. */
const ASKED = { system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }], cache_control: { type: 'ephemeral' } };

const TOOL = (description: string) => ({ name: 'read_file', description, input_schema: { type: 'object', properties: { path: { type: 'string' } } } });

async function economics(second: Record<string, unknown>, secondContent: unknown = 'Fix it.', tools?: unknown[]) {
  const first = [{ role: 'user', content: HISTORY }];
  const bodies = [
    { model: 'claude-sonnet-4-5', max_tokens: 100, ...(tools && { tools: [TOOL('Read a file')] }), ...ASKED, messages: first },
    {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      ...ASKED,
      messages: [...first, { role: 'assistant', content: 'Understood.' }, { role: 'user', content: secondContent }],
      ...second,
    },
  ];
  const text = bodies.map((b, i) => JSON.stringify({ timestamp: `2026-08-24T16:41:0${i}.000Z`, body: b })).join('\n');
  const { result, errors } = importTrace(`${text}\n`, { file: 'traces/p.jsonl', id: 'p' });
  expect(errors.map(formatError)).toEqual([]);
  const r = await renderTexts([{ file: 'scenarios/p.yaml', text: result!.yaml }], config, { everyEvent: false });
  expect(r.errors.map(formatError)).toEqual([]);
  return r.economics.get('p')!.requests;
}

describe('Anthropic request parameters', () => {
  it('unchanged parameters: the second request reads the whole first request', async () => {
    const [one, two] = await economics({});
    expect(two!.cachedTokens).toBe(one!.breakpointTokens.at(-1));
    expect(two!.cacheBreak).toBeNull();
  });

  it.each([
    ['tool_choice', { tool_choice: { type: 'any' } }, undefined],
    ['thinking', { thinking: { type: 'enabled', budget_tokens: 2048 } }, undefined],
    ['images', {}, [IMAGE, { type: 'text', text: 'Fix it.' }]],
  ] as const)('a changed %s breaks only the messages entries: the tools + system entry is still read', async (param, second, content) => {
    const [one, two] = await economics(second, content);
    // The first request's breakpoints: after the system prompt, and at the end of its last message.
    const [systemEnd, messagesEnd] = one!.breakpointTokens;
    expect(systemEnd).toBeGreaterThan(1024);
    expect(messagesEnd).toBeGreaterThan(systemEnd!);
    expect(two!.cachedTokens).toBe(systemEnd);
    expect(two!.cacheBreak).toMatchObject({ cause: 'parameter-changed', param, events: [two!.offset], tokensLost: messagesEnd! - systemEnd! });
  });

  it('a changed tool definition invalidates every entry: nothing is read, the break is a change of the tools level', async () => {
    const [one, two] = await economics({}, 'Fix it.', [TOOL('Read one file from the repository')]);
    expect(one!.breakpointTokens.length).toBe(2);
    expect(two!.cachedTokens).toBe(0);
    expect(two!.cacheBreak).toMatchObject({ cause: 'system-changed', tokensLost: one!.breakpointTokens.at(-1) });
  });
});
