/**
 * Importing Amazon Bedrock and Google Gemini traffic: JSON Lines of wrapped requests as a
 * proxy or an SDK hook writes them — the model beside the body (Bedrock and Gemini take it in the URL),
 * the response with its usage (Converse `usage`, Gemini `usageMetadata`) — detected from the body or
 * named with `--format`; a Converse body carrying Anthropic's `cache_control` imports with a warning
 * at that key. Small fixtures of our own in the shapes those APIs return.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { formatError } from '../scenarios/errors.ts';
import { importTrace } from './index.ts';

const FILE = 'traces/p.jsonl';
const line = (o: unknown) => JSON.stringify(o);

const converseLine = (i: number, extra: Record<string, unknown> = {}) =>
  line({
    timestamp: `2026-12-06T09:00:0${i}Z`,
    model: 'us.anthropic.claude-haiku-4-5-20251001-v1:0',
    body: {
      system: [{ text: 'You review pull requests.', ...extra }],
      messages: [{ role: 'user', content: [{ text: `PR ${i}` }] }],
      inferenceConfig: { maxTokens: 512 },
    },
    response: {
      output: { message: { role: 'assistant', content: [{ text: 'ok' }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: 20, outputTokens: 5, totalTokens: 4125, cacheReadInputTokens: 4100, cacheWriteInputTokens: 0 },
    },
  });

describe('import: Bedrock and Gemini', () => {
  it('Converse lines: detected, the wrapper’s model kept in the body, usage read with inputTokens excluding cache reads', () => {
    const { result, errors } = importTrace([converseLine(1), converseLine(2)].join('\n'), { file: FILE, id: 'p' });
    expect(errors.map(formatError)).toEqual([]);
    expect(result!.format).toBe('bedrock-converse');
    expect(result!.detected).toBe(true);
    const doc = parse(result!.yaml) as { events: { payload: { body: { model: string }; measured: unknown } }[] };
    expect(doc.events[0]!.payload.body.model).toBe('us.anthropic.claude-haiku-4-5-20251001-v1:0');
    expect(doc.events[0]!.payload.measured).toEqual({ inputTokens: 4120, cachedTokens: 4100, cacheWriteTokens: 0, outputTokens: 5 });
    expect(result!.warnings).toEqual([]);
  });

  it('a Converse body with cache_control imports, with a warning at the key and the fix', () => {
    const text = converseLine(1, { cache_control: { type: 'ephemeral' } });
    const { result, errors } = importTrace(text, { file: FILE, id: 'p', format: 'bedrock-converse' });
    expect(errors.map(formatError)).toEqual([]);
    expect(result!.warnings.map((w) => [w.pos.line, w.message])).toEqual([
      [1, 'an Anthropic-style cache_control in a Converse body: Converse has no such field and caches nothing for it'],
    ]);
    // The column of the key itself (1-based).
    expect(result!.warnings[0]!.pos.col).toBe(text.indexOf('"cache_control"') + 1);
    expect(result!.warnings[0]!.fix).toMatch(/cachePoint/);
  });

  it('a Converse line without any model is an error naming the fix', () => {
    const bare = line({ body: { messages: [{ role: 'user', content: [{ text: 'hi' }] }], inferenceConfig: {} } });
    const { errors } = importTrace(bare, { file: FILE, id: 'p' });
    expect(errors.map((e) => e.fix).join('\n')).toMatch(/modelId/);
  });

  it('Gemini lines: usageMetadata counts the cached tokens inside promptTokenCount', () => {
    const g = line({
      timestamp: '2026-12-06T09:00:00Z',
      model: 'gemini-2.5-pro',
      body: { systemInstruction: { parts: [{ text: 'S' }] }, contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      response: {
        candidates: [{ content: { role: 'model', parts: [{ text: 'hello' }] } }],
        usageMetadata: { promptTokenCount: 5000, cachedContentTokenCount: 4096, candidatesTokenCount: 12, totalTokenCount: 5012 },
      },
    });
    const { result, errors } = importTrace(g, { file: FILE, id: 'p' });
    expect(errors.map(formatError)).toEqual([]);
    expect(result!.format).toBe('gemini');
    const doc = parse(result!.yaml) as { events: { payload: { measured: unknown } }[] };
    expect(doc.events[0]!.payload.measured).toEqual({ inputTokens: 5000, cachedTokens: 4096, cacheWriteTokens: 0, outputTokens: 12 });
  });
});
