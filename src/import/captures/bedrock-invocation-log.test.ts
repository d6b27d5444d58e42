/**
 * Amazon Bedrock model-invocation logs: small records of our own in the shape Bedrock writes
 * (schemaType ModelInvocationLog, operation, modelId, input.inputBodyJson, output.outputBodyJson
 * with usage, timestamp) — a Converse call with cache checkpoints, a Claude InvokeModel call, and
 * the records the import leaves out and says so.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { formatError } from '../../scenarios/errors.ts';
import { importTrace } from '../index.ts';
import { leftOutLine } from '../left-out.ts';

const GUIDE = 'Review the change against the guide. '.repeat(40);
const base = {
  schemaType: 'ModelInvocationLog',
  schemaVersion: '1.0',
  accountId: '123456789012',
  region: 'us-east-1',
  identity: { arn: 'arn:aws:sts::123456789012:assumed-role/reviewer/s1' },
};
const converse = (i: number, usage: Record<string, number>) => ({
  ...base,
  timestamp: `2026-12-06T09:0${i}:00Z`,
  requestId: `req-${i}`,
  operation: 'Converse',
  modelId: 'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
  input: {
    inputContentType: 'application/json',
    inputBodyJson: {
      system: [{ text: GUIDE }, { cachePoint: { type: 'default' } }],
      messages: [{ role: 'user', content: [{ text: `PR ${i}` }] }],
      inferenceConfig: { maxTokens: 512 },
    },
    inputTokenCount: usage.inputTokens,
  },
  output: {
    outputContentType: 'application/json',
    outputBodyJson: { output: { message: { role: 'assistant', content: [{ text: 'ok' }] } }, stopReason: 'end_turn', usage },
    outputTokenCount: usage.outputTokens,
  },
});

describe('Bedrock model-invocation logs', () => {
  it('each Converse record is a request with the record’s modelId, its time, and the billed usage (inputTokens without the cache)', () => {
    const text = [
      converse(1, { inputTokens: 6, outputTokens: 2, cacheReadInputTokens: 0, cacheWriteInputTokens: 360 }),
      converse(2, { inputTokens: 6, outputTokens: 3, cacheReadInputTokens: 360, cacheWriteInputTokens: 0 }),
    ]
      .map((r) => JSON.stringify(r))
      .join('\n');
    const { result, errors } = importTrace(text, { file: 'logs/bedrock.jsonl', id: 'b' });
    expect(errors.map(formatError)).toEqual([]);
    expect(result!.format).toBe('bedrock-converse');
    const doc = parse(result!.yaml) as { events: { t: string; payload: { body: { modelId: string }; measured: unknown } }[] };
    expect(doc.events.map((e) => [e.t, e.payload.body.modelId])).toEqual([
      ['0ms', 'global.anthropic.claude-sonnet-4-5-20250929-v1:0'],
      ['1m', 'global.anthropic.claude-sonnet-4-5-20250929-v1:0'],
    ]);
    expect(doc.events.map((e) => e.payload.measured)).toEqual([
      { inputTokens: 366, cachedTokens: 0, cacheWriteTokens: 360, outputTokens: 2 },
      { inputTokens: 366, cachedTokens: 360, cacheWriteTokens: 0, outputTokens: 3 },
    ]);
  });

  it('a Claude InvokeModel record reads as Anthropic’s body and usage; other records are left out, each said with why', () => {
    const invoke = {
      ...base,
      timestamp: '2026-12-06T09:03:00Z',
      operation: 'InvokeModel',
      modelId: 'us.anthropic.claude-haiku-4-5-20251001-v1:0',
      input: {
        inputBodyJson: JSON.stringify({
          anthropic_version: 'bedrock-2023-05-31',
          max_tokens: 100,
          system: [{ type: 'text', text: GUIDE, cache_control: { type: 'ephemeral' } }],
          messages: [{ role: 'user', content: 'hi' }],
        }),
      },
      output: { outputBodyJson: { type: 'message', usage: { input_tokens: 4, output_tokens: 9, cache_read_input_tokens: 0, cache_creation_input_tokens: 360 } } },
    };
    const titan = {
      ...base,
      timestamp: '2026-12-06T09:04:00Z',
      operation: 'InvokeModel',
      modelId: 'amazon.titan-text-express-v1',
      input: { inputBodyJson: { inputText: 'Hello' } },
      output: { outputBodyJson: { results: [] } },
    };
    const large = {
      ...base,
      timestamp: '2026-12-06T09:05:00Z',
      operation: 'Converse',
      modelId: 'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
      input: { inputBodyS3Path: 's3://logs/data/1.json' },
      output: {},
    };
    const text = [invoke, titan, large].map((r) => JSON.stringify(r)).join('\n');
    const { result, errors } = importTrace(text, { file: 'logs/bedrock.jsonl', id: 'b' });
    expect(errors.map(formatError)).toEqual([]);
    const doc = parse(result!.yaml) as { events: { payload: { body: Record<string, unknown>; measured: unknown } }[] };
    expect(doc.events).toHaveLength(1);
    expect(doc.events[0]!.payload.body.anthropic_version).toBe('bedrock-2023-05-31');
    expect(doc.events[0]!.payload.measured).toEqual({ inputTokens: 364, cachedTokens: 0, cacheWriteTokens: 360, outputTokens: 9 });
    expect(result!.leftOut.map((l) => leftOutLine('bedrock.jsonl', l))).toEqual([
      'left out of bedrock.jsonl: 1 records of a non-chat body (neither a Converse request nor a Claude Messages body (another model family’s InvokeModel body); first at line 2)',
      'left out of bedrock.jsonl: 1 records without an `inputBodyJson` (the body was delivered to S3 as a large-data object (inputBodyS3Path) or text delivery is off: download the object, or turn on text data delivery; first at line 3)',
    ]);
  });

  it('a record without its modelId is an error at its line; a streamed call imports with a note that its usage was not read; --format names the log', () => {
    const { modelId: _, ...anonymous } = converse(1, { inputTokens: 6, outputTokens: 1 });
    const bad = importTrace([JSON.stringify(converse(0, { inputTokens: 6, outputTokens: 1 })), JSON.stringify(anonymous)].join('\n'), { file: 'logs/bedrock.jsonl', id: 'b' });
    expect(bad.result).toBeUndefined();
    expect(bad.errors.map(formatError)).toEqual([
      'logs/bedrock.jsonl:2:1 error: this invocation log record has no `modelId`\n  fix: import the records as Bedrock wrote them (each names its modelId)',
    ]);
    const { output: __, ...noOutput } = converse(2, { inputTokens: 6, outputTokens: 1 });
    const streamed = { ...noOutput, operation: 'ConverseStream' };
    const ok = importTrace(JSON.stringify(streamed), { file: 'logs/bedrock.jsonl', id: 'b', capture: 'bedrock-invocation-log' });
    expect(ok.errors.map(formatError)).toEqual([]);
    const doc = parse(ok.result!.yaml) as { events: { note?: string; payload: { measured?: unknown; body: Record<string, unknown> } }[] };
    expect(doc.events[0]!.payload.measured).toBeUndefined();
    expect(doc.events[0]!.payload.body.modelId).toBe('global.anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(ok.result!.yaml).toContain('a streamed response: its usage is spread over the stream’s events, not read');
  });
});
