/**
 * Anthropic's usage as the bill (anthropic.ts readUsage), on usage objects of our own in the shapes
 * the API returns: `input_tokens` excludes cache reads and writes; a `cache_creation` breakdown must
 * add up; and with server-side compaction, `usage.iterations` holds a `compaction` step whose tokens
 * the top-level counts leave out (the shape of pydantic/pydantic-ai's recorded call
 * test_anthropic_compaction_usage_with_cache.yaml). Every expected figure is added up by hand.
 */
import { describe, expect, it } from 'vitest';
import type { UsageIssue } from './types.ts';
import { anthropic } from './anthropic.ts';

const read = (u: unknown) => {
  const issues: UsageIssue[] = [];
  const m = anthropic.usage!.read(u as Record<string, unknown>, issues);
  return { m, issues };
};

describe('Anthropic usage', () => {
  it('a plain usage: all input = input + reads + writes', () => {
    expect(read({ input_tokens: 3, cache_read_input_tokens: 1111, cache_creation_input_tokens: 409, output_tokens: 33 }).m).toEqual({
      inputTokens: 1523,
      cachedTokens: 1111,
      cacheWriteTokens: 409,
      outputTokens: 33,
    });
  });

  it('a usage without the cache fields (logged through a type that predates caching): the cached and written figures are not reported, never 0', () => {
    expect(read({ input_tokens: 1523, output_tokens: 33 }).m).toEqual({ inputTokens: 1523, outputTokens: 33 });
    // One reported, one absent or null: only the reported one is a figure.
    expect(read({ input_tokens: 3, cache_read_input_tokens: 1111, output_tokens: 33 }).m).toEqual({ inputTokens: 1114, cachedTokens: 1111, outputTokens: 33 });
    expect(read({ input_tokens: 3, cache_read_input_tokens: null, cache_creation_input_tokens: 409 }).m).toEqual({ inputTokens: 412, cacheWriteTokens: 409 });
    // The 5 min / 1 h breakdown alone reports the writes.
    expect(read({ input_tokens: 3, cache_creation: { ephemeral_5m_input_tokens: 400, ephemeral_1h_input_tokens: 9 } }).m).toEqual({
      inputTokens: 412,
      cacheWriteTokens: 409,
      cacheWrite1hTokens: 9,
    });
  });

  it('server-side compaction: the compaction iteration is billed beside the top-level (message) counts', () => {
    const usage = {
      input_tokens: 229,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      output_tokens: 5,
      iterations: [
        {
          type: 'compaction',
          input_tokens: 100,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 5000,
          cache_creation: { ephemeral_5m_input_tokens: 4000, ephemeral_1h_input_tokens: 1000 },
          output_tokens: 131,
        },
        { type: 'message', input_tokens: 229, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 5 },
      ],
    };
    // Input: 229 + 100 uncached + 5,000 written = 5,329; written 5,000 (1,000 for an hour); output 5 + 131 = 136.
    // The message iteration is the top level already: not added twice.
    expect(read(usage).m).toEqual({ inputTokens: 5329, cachedTokens: 0, cacheWriteTokens: 5000, cacheWrite1hTokens: 1000, outputTokens: 136 });
  });

  it('a compaction iteration that does not add up is an issue at its path, and nothing is read', () => {
    const { m, issues } = read({
      input_tokens: 10,
      output_tokens: 1,
      iterations: [{ type: 'compaction', input_tokens: 5, cache_creation_input_tokens: 7, cache_creation: { ephemeral_5m_input_tokens: 6 } }],
    });
    expect(m).toBeUndefined();
    expect(issues.map((i) => [i.path, i.message])).toEqual([
      [['iterations', 0, 'cache_creation'], '`cache_creation` adds up to 6 tokens (5 min: 6, 1 h: 0), but `cache_creation_input_tokens` is 7'],
    ]);
  });
});
