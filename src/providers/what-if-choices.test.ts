/**
 * The retention choices each cache strategy offers the what-if (types.ts WhatIfChoices), against the
 * provider pages they cite: OpenAI's 24-hour retention at the same price where the catalog lists it,
 * GPT-5.6+'s 12-hour writes (priced only where a model page states the price), no keep-alive where a
 * read is not documented to refresh; per-breakpoint TTL strategies keep their TTL choices in the what-if.
 */
import { describe, expect, it } from 'vitest';
import { anthropicCache } from './anthropic/cache.ts';
import { bedrockCache } from './bedrock/cache.ts';
import { geminiImplicitCache } from './gemini/cache.ts';
import { OPENAI_BREAKPOINT_RULES } from './openai/catalog.ts';
import { openaiBreakpointsCache, openaiPrefixCache } from './openai/cache.ts';
import { CACHE_STRATEGIES } from './registry.ts';
import type { Sourced } from './types.ts';

const day: Sourced<number> = { value: 24 * 60, source: 'https://developers.openai.com/api/docs/guides/prompt-caching', read: '2026-12-01' };

describe('what-if choices per cache strategy', () => {
  it('OpenAI prefix caching: 24-hour retention where the catalog lists it, priced as in-memory; a keep-alive', () => {
    const c = openaiPrefixCache.whatIf!;
    expect(c.asIs).toBe('in-memory (the default)');
    const longer = c.longer!('openai-gpt-4.1', day);
    expect(longer).toMatchObject({ id: 'retention-24h', minutes: day, notes: [expect.stringContaining('best case')] });
    expect('write' in longer && typeof longer.write === 'object' && 'same' in longer.write && longer.write.same.source).toMatch(/prompt-caching$/);
    expect(c.longer!('openai-gpt-4o', undefined)).toEqual({ none: 'the catalog lists no extended retention for this model' });
    expect(c.keepAlive).toBe(true);
  });

  it('OpenAI breakpoints: 12-hour writes at $5/M for GPT-6.2 Sol (its model page), unpriced for the others; no keep-alive', () => {
    const c = openaiBreakpointsCache.whatIf!;
    expect(c.asIs).toBe('30-minute writes (the default)');
    const sol = c.longer!('openai-gpt-6.2-sol', undefined);
    expect(sol).toMatchObject({
      id: 'write-12h',
      label: '12-hour writes',
      write: { price: { value: 5, source: 'https://developers.openai.com/api/docs/models/gpt-6.2-sol' } },
      notes: [],
    });
    // Without a catalog figure the retention is the API's 12-hour option: 720 minutes.
    expect('minutes' in sol && sol.minutes.value).toBe(12 * 60);
    expect('minutes' in sol && sol.minutes).toBe(OPENAI_BREAKPOINT_RULES.ttlLongMinutes);
    const terra = c.longer!('openai-gpt-5.6-terra', day);
    expect(terra).toMatchObject({ label: '12-hour writes (not priced)', write: 'unpriced', minutes: day });
    expect(c.keepAlive).toEqual({ no: 'no keep-alive: a read is not documented to refresh a GPT-5.6 entry' });
  });

  it('per-breakpoint TTLs (Anthropic, Bedrock) offer a keep-alive and leave the TTL rows to the what-if; Gemini implicit offers none', () => {
    for (const c of [anthropicCache, bedrockCache]) {
      expect(c.perBreakpointTtl).toBe(true);
      expect(c.whatIf).toEqual({ keepAlive: true });
    }
    expect(geminiImplicitCache.whatIf).toBeUndefined();
  });

  it('every strategy with a longer retention says what its rows are called, and no two strategies share an option id', () => {
    const ids = CACHE_STRATEGIES.flatMap((c) => {
      const l = c.whatIf?.longer?.('x', day);
      expect(c.whatIf?.longer === undefined || c.whatIf.asIs !== undefined).toBe(true);
      return l && 'id' in l ? [l.id] : [];
    });
    expect(new Set(ids).size).toBe(ids.length);
  });
});
