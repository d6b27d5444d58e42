/**
 * OpenAI GPT-5.6 explicit mode (`prompt_cache_options.mode: "explicit"`, OpenAI's API text as
 * generated into async-openai 0.42, read 2026-12-03: it disables the implicit breakpoint): a
 * request without markers caches nothing; with a `prompt_cache_breakpoint` only the marked prefix
 * is written, and the next request reads exactly it. In the default (implicit) mode the implicit
 * breakpoint at the newest user message is written and read.
 */
import { describe, expect, it } from 'vitest';
import { renderTexts } from '../corpus/check.ts';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { importTrace } from '../import/index.ts';
import { formatError } from '../scenarios/errors.ts';

const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
const DOC = 'The repository keeps money in integer cents; every total is summed in cents and printed once. '.repeat(60);

async function economics(options: Record<string, unknown>, marked: boolean) {
  const first = [{ role: 'user', content: [{ type: 'input_text', text: DOC, ...(marked && { prompt_cache_breakpoint: { mode: 'explicit' } }) }] }];
  const bodies = [
    { model: 'gpt-5.6-terra', input: [...first, { role: 'user', content: 'Find the failing test.' }], ...options },
    {
      model: 'gpt-5.6-terra',
      input: [...first, { role: 'user', content: 'Find the failing test.' }, { role: 'assistant', content: 'run.test.ts' }, { role: 'user', content: 'Fix it.' }],
      ...options,
    },
  ];
  const text = bodies.map((b, i) => JSON.stringify({ timestamp: `2026-08-24T16:41:0${i}.000Z`, body: b })).join('\n');
  const { result, errors } = importTrace(`${text}\n`, { file: 'traces/o.jsonl', id: 'o' });
  expect(errors.map(formatError)).toEqual([]);
  const r = await renderTexts([{ file: 'scenarios/o.yaml', text: result!.yaml }], config, { everyEvent: false });
  expect(r.errors.map(formatError)).toEqual([]);
  return r.economics.get('o')!.requests;
}

describe('OpenAI GPT-5.6 cache modes', () => {
  it('implicit (the default): the newest user message is a breakpoint; the next request reads it', async () => {
    const [one, two] = await economics({}, false);
    expect(one!.profile).toBe('openai-gpt-5.6-terra');
    expect(one!.breakpointTokens).toHaveLength(1);
    expect(one!.cacheWriteTokens).toBe(one!.breakpointTokens[0]);
    expect(two!.cachedTokens).toBe(one!.breakpointTokens[0]);
  });

  it('explicit mode without a marker caches nothing', async () => {
    for (const q of await economics({ prompt_cache_options: { mode: 'explicit' } }, false)) {
      expect(q.breakpointTokens).toEqual([]);
      expect(q.cachedTokens).toBe(0);
      expect(q.cacheWriteTokens).toBe(0);
    }
  });

  it('explicit mode with a marker writes only the marked prefix, and the next request reads it', async () => {
    const [one, two] = await economics({ prompt_cache_options: { mode: 'explicit' } }, true);
    const [implicitOne] = await economics({}, false);
    expect(one!.breakpointTokens).toHaveLength(1);
    // The marked prefix ends before the newest user message, where the implicit breakpoint would sit.
    expect(one!.breakpointTokens[0]).toBeLessThan(implicitOne!.breakpointTokens[0]!);
    expect(one!.cacheWriteTokens).toBe(one!.breakpointTokens[0]);
    expect(two!.cachedTokens).toBe(one!.breakpointTokens[0]);
  });
});
