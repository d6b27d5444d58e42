/**
 * The economics of rendered scenarios: OpenAI's 1,024-token minimum and 128-token steps at their
 * edges, expiry from the events' timestamps (just under and just over the retention), breakpoint
 * caching and its writes, costs, and cache-break attribution on the bundled scenarios (the rewrite
 * names its event; the re-add busts nothing).
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../cli/config.ts';
import { resolveOptions } from '../integration/options.ts';
import { assertClean, renderCorpus, renderTexts } from '../prompt/corpus.ts';
import { roundedHit } from './compute.ts';
import { DEFAULT_ECONOMICS, profileFor, resolveEconomics } from './profiles.ts';
import { PROFILES } from './providers.ts';

const openai = PROFILES['openai-automatic']!;

/** A system text of about `words` tokens (o200k: " word" is one token). */
const long = (words: number): string => `Rules:${' word'.repeat(words)}`;

function twoRequests(model: string, secondAt: string, words = 1500, extra = ''): string {
  return `id: two
title: "Two requests"
events:
  - {off: 1, t: 0ms, type: agents/context-added, payload: {role: system, key: rules, content: "${long(words)}"}}
  - {off: 2, t: 0ms, type: agents/context-added, payload: {role: user, content: "first", actor: {type: user, origin: web}}}
  - {off: 3, t: 1s, type: agent/llm-request-requested, payload: {model: ${model}}}
  - {off: 4, t: 2s, type: agent/llm-request-settled, payload: {requestOffset: 3, result: {status: succeeded, text: "done"}}}
  - {off: 5, t: 2s, type: agents/context-added, payload: {role: user, content: "second${extra}", actor: {type: user, origin: web}}}
  - {off: 6, t: ${secondAt}, type: agent/llm-request-requested, payload: {model: ${model}}}
`;
}

async function econ(text: string, economics?: Parameters<typeof resolveOptions>[1]) {
  const config = await resolveOptions(process.cwd(), economics);
  const corpus = assertClean(renderTexts([{ file: 'scenarios/two.yaml', text }], config, { everyEvent: false }));
  return corpus.economics.get('two')!;
}

describe('OpenAI prefix caching', () => {
  it('caches nothing below 1,024 prefix tokens, then grows in 128-token steps', () => {
    expect(roundedHit(openai, 0)).toBe(0);
    expect(roundedHit(openai, 1023)).toBe(0);
    expect(roundedHit(openai, 1024)).toBe(1024);
    expect(roundedHit(openai, 1151)).toBe(1024);
    expect(roundedHit(openai, 1152)).toBe(1152);
    expect(roundedHit(openai, 1279)).toBe(1152);
    expect(roundedHit(openai, 1280)).toBe(1280);
  });

  it('a second request reuses the first one’s prefix, rounded to a step, and that is no cache break', async () => {
    const e = await econ(twoRequests('openai/gpt-4o', '3s'));
    const [a, b] = e.requests;
    expect(a!.profile).toBe('openai-automatic');
    expect(a!.exact).toBe(true);
    expect(a!.cacheBreak).toEqual({ cause: 'first-request', events: [], tokensLost: 0 });
    expect(b!.prefixTokens).toBeGreaterThan(1024 + 128);
    expect(b!.cachedTokens).toBe(roundedHit(openai, b!.prefixTokens));
    expect(b!.cachedTokens % 128).toBe(0);
    expect(b!.uncachedTokens).toBe(b!.inputTokens - b!.cachedTokens);
    expect(b!.cacheBreak).toBeNull();
    expect(b!.costUsd).toBeNull(); // no price is configured for this profile
  });

  it('below the minimum, the whole request is billed and the cause says why', async () => {
    const e = await econ(twoRequests('openai/gpt-4o', '3s', 100));
    expect(e.requests[1]!.cachedTokens).toBe(0);
    expect(e.requests[1]!.cacheBreak?.cause).toBe('below-minimum');
  });

  it('expires exactly at the retention: alive just under 5 minutes idle, evicted just over', async () => {
    // The first request was sent at 1s; the retention is 5 minutes of inactivity.
    const under = await econ(twoRequests('openai/gpt-4o', '5m 0.999s'));
    expect(under.requests[1]!.cachedTokens).toBeGreaterThan(0);
    expect(under.requests[1]!.expired).toBe(false);
    const edge = await econ(twoRequests('openai/gpt-4o', '5m 1s'));
    expect(edge.requests[1]!.cachedTokens).toBeGreaterThan(0);
    const over = await econ(twoRequests('openai/gpt-4o', '5m 1.001s'));
    expect(over.requests[1]!.cachedTokens).toBe(0);
    expect(over.requests[1]!.prefixTokens).toBe(0);
    expect(over.requests[1]!.expired).toBe(true);
    expect(over.requests[1]!.cacheBreak).toMatchObject({ cause: 'expired', tokensLost: over.requests[0]!.inputTokens });
  });

  it('a changed model breaks the cache', async () => {
    const text = twoRequests('openai/gpt-4o', '3s').replace(/(off: 6.*model: )openai\/gpt-4o/, '$1openai/gpt-4.1');
    const e = await econ(text);
    expect(e.requests[1]!.cacheBreak).toMatchObject({ cause: 'model-changed', events: [6] });
    expect(e.requests[1]!.cachedTokens).toBe(0);
  });
});

describe('breakpoint caching and prices', () => {
  it('GPT-5.6 Terra: writes the prefix up to the last message at 1.25×, reads it next turn at the cached price', async () => {
    const e = await econ(twoRequests('openai/gpt-5.6-terra', '3s'));
    const [a, b] = e.requests;
    expect(a!.profile).toBe('openai-gpt-5.6-terra');
    expect(a!.cachedTokens).toBe(0);
    expect(a!.cacheWriteTokens).toBe(a!.inputTokens - 3); // all but the reply priming
    // The whole first request (to its last message) is read back; the new user message is written.
    expect(b!.cachedTokens).toBe(a!.inputTokens - 3);
    expect(b!.cacheWriteTokens).toBe(b!.inputTokens - 3 - b!.cachedTokens);
    const p = PROFILES['openai-gpt-5.6-terra']!.prices;
    const expected = (b!.cachedTokens * p.cachedInput!.value + b!.cacheWriteTokens * p.cacheWrite!.value + 3 * p.input!.value) / 1e6;
    expect(b!.costUsd).toBeCloseTo(expected, 12);
    expect(b!.noCacheCostUsd).toBeCloseTo((b!.inputTokens * p.input!.value) / 1e6, 12);
    expect(e.totals.costUsd).toBeCloseTo(a!.costUsd! + b!.costUsd!, 12);
  });

  it('Anthropic: ≈ counts, system breakpoint survives a changed last message, the 5-minute TTL expires', async () => {
    const text = twoRequests('anthropic/claude-sonnet-4-5', '3s');
    const e = await econ(text);
    expect(e.requests[0]!.exact).toBe(false);
    expect(e.requests[1]!.cachedTokens).toBeGreaterThan(1024);
    const late = await econ(twoRequests('anthropic/claude-sonnet-4-5', '6m'));
    expect(late.requests[1]!.cacheBreak?.cause).toBe('expired');
  });

  it('maps invented model ids by explicit entry, then prefix, then the fallback; config overrides prices', async () => {
    expect(profileFor(DEFAULT_ECONOMICS, 'openai/gpt-5.6-terra')).toMatchObject({ matched: 'model', profile: { id: 'openai-gpt-5.6-terra' } });
    expect(profileFor(DEFAULT_ECONOMICS, 'openai/gpt-9-nova')).toMatchObject({ matched: 'prefix', by: 'openai/', profile: { id: 'openai-automatic' } });
    expect(profileFor(DEFAULT_ECONOMICS, 'acme/one')).toMatchObject({ matched: 'fallback', profile: { id: 'unknown' } });
    // Bare provider ids, as imported traces carry them.
    expect(profileFor(DEFAULT_ECONOMICS, 'claude-sonnet-4-5')).toMatchObject({ matched: 'model', profile: { id: 'anthropic-claude-sonnet-4.5' } });
    expect(profileFor(DEFAULT_ECONOMICS, 'claude-opus-9')).toMatchObject({ matched: 'prefix', by: 'claude-', profile: { id: 'anthropic' } });
    expect(profileFor(DEFAULT_ECONOMICS, 'gpt-4.1')).toMatchObject({ matched: 'prefix', by: 'gpt-', profile: { id: 'openai-automatic' } });
    const e = await econ(twoRequests('acme/one', '3s'), {
      economics: {
        profiles: {
          acme: { tokenizer: 'cl100k_base', strategy: 'prefix', minPrefixTokens: 0, retentionMinutes: 60, refreshOnHit: true, prices: { input: 1, cachedInput: 0.5, output: 2 } },
        },
        prefixes: { 'acme/': 'acme' },
      },
    });
    expect(e.requests[0]).toMatchObject({ profile: 'acme', exact: true });
    expect(e.requests[1]!.costUsd).toBeCloseTo((e.requests[1]!.uncachedTokens * 1 + e.requests[1]!.cachedTokens * 0.5) / 1e6, 12);
    const bad = resolveEconomics({ models: { 'x/y': 'nope' }, profiles: { half: { tokenizer: 'o200k_base' } } }).problems;
    expect(bad.join('\n')).toContain('economics.models["x/y"] names profile "nope", which does not exist');
    expect(bad.join('\n')).toContain('economics.profiles["half"] is a new profile but lacks strategy, minPrefixTokens, retentionMinutes, refreshOnHit');
    await expect(resolveOptions(process.cwd(), { economics: { models: { 'x/y': 'nope' } } })).rejects.toThrow(/fix: use one of/);
  });
});

describe('cache-break attribution on the bundled scenarios', () => {
  it('names the rewrite event in the rewrite scenario, and no event in the re-add scenario', async () => {
    const corpus = renderCorpus(await loadConfig(), { everyEvent: false });
    const rewrite = corpus.economics.get('rewrite-vs-re-add')!;
    const r42 = rewrite.requests.find((e) => e.offset === 42)!;
    const scenario = corpus.scenarios.find((r) => r.scenario.id === 'rewrite-vs-re-add')!.scenario;
    expect(scenario.chain.find((e) => e.offset === 40)!.type).toBe('agents/context-rewritten');
    expect(r42.cacheBreak).toMatchObject({ cause: 'system-changed', events: [40] });
    expect(r42.cacheBreak!.tokensLost).toBe(rewrite.requests.find((e) => e.offset === 32)!.inputTokens - r42.cachedTokens);
    // The re-add (@32) keeps every byte of @21: whatever it costs, no event broke the prefix.
    const r32 = rewrite.requests.find((e) => e.offset === 32)!;
    expect(r32.cutTokens).toBe(r32.prefixTokens);
    expect(r32.cacheBreak?.events ?? []).toEqual([]);
    for (const e of corpus.economics.get('sent-re-add')!.requests) {
      expect(['below-minimum', 'expired', undefined]).toContain(e.cacheBreak?.cause);
      expect(e.cacheBreak?.events ?? []).toEqual([]);
    }
  });
});
