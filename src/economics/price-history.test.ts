/**
 * Prices with history: a request pays the prices in force at its own instant, and a
 * prompt over a long-prompt threshold pays that tier on every token. Expected figures are written
 * out by hand from the providers' pages, not taken from the catalog.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { renderTexts } from '../corpus/check.ts';
import { formatError } from '../scenarios/errors.ts';
import { billedOf } from './billed.ts';
import { pricesAt } from './price-history.ts';
import { DEFAULT_ECONOMICS } from './profiles.ts';
import { paneTokens } from './view.ts';

const P = DEFAULT_ECONOMICS.profiles;

describe('pricesAt', () => {
  it('Claude Sonnet 5.5 cache reads: $0.20 until 2026-10-07, $0.10 from then on', () => {
    const p = P['anthropic-claude-sonnet-5.5']!;
    const before = pricesAt(p, Date.parse('2026-10-06T23:59:59.999Z'), 5000);
    expect(before.profile.prices.cachedInput!.value).toBe(0.2);
    expect(before.applied.map((a) => [a.field, a.value, a.why])).toEqual([['cachedInput', 0.2, 'in force until 2026-10-07']]);
    const after = pricesAt(p, Date.parse('2026-10-07T00:00:00Z'), 5000);
    expect(after.profile.prices.cachedInput!.value).toBe(0.1);
    expect(after.applied).toEqual([]);
    // Nothing else changed.
    expect(before.profile.prices.input!.value).toBe(2);
  });

  it('Gemini 4 Argon doubled on 2026-12-01; Gemini 2.5 Pro pays its long-prompt tier over 200,000 tokens', () => {
    const argon = P['google-gemini-4-argon']!;
    const nov = pricesAt(argon, Date.parse('2026-11-30T12:00:00Z'), 10_000).profile.prices;
    const dec = pricesAt(argon, Date.parse('2026-12-01T00:00:00Z'), 10_000).profile.prices;
    expect([nov.input!.value, nov.cachedInput!.value, nov.output!.value]).toEqual([2, 0.1, 10]);
    expect([dec.input!.value, dec.cachedInput!.value, dec.output!.value]).toEqual([4, 0.2, 20]);
    const pro = P['google-gemini-2.5-pro']!;
    expect(pricesAt(pro, 0, 200_000).profile.prices.input!.value).toBe(1.25);
    const long = pricesAt(pro, 0, 200_001);
    expect([long.profile.prices.input!.value, long.profile.prices.cachedInput!.value, long.profile.prices.output!.value]).toEqual([2.5, 0.25, 15]);
    expect(long.applied[0]!.why).toBe('the prompt is longer than 200,000 tokens');
  });

  it('a profile without history or tiers is returned as it is', () => {
    const p = P['anthropic-claude-sonnet-4.5']!;
    expect(pricesAt(p, 0, 1e6).profile).toBe(p);
  });
});

describe('a conversation across the Sonnet 5.5 price change', () => {
  const SYSTEM = 'Review the change and say what breaks, citing the file and line. '.repeat(60);
  const body = (turns: string[]) => ({
    model: 'claude-sonnet-5-5',
    max_tokens: 256,
    system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
    messages: turns.map((t, i) => ({ role: i % 2 ? 'assistant' : 'user', content: t })),
  });
  const bodies = [body(['a']), body(['a', 'b', 'c']), body(['a', 'b', 'c', 'd', 'e'])];
  const scenario = (head: string) =>
    `id: p\ntitle: sonnet 5.5\nfold: requests\n${head}events:\n` +
    bodies
      .map((b, i) => `  - off: ${i + 1}\n    t: ${['0ms', '2m', '5m'][i]}\n    type: request/sent\n    payload: ${JSON.stringify({ format: 'anthropic', body: b })}\n`)
      .join('');
  const text = scenario('startedAt: 2026-10-06T23:56:00Z\n');

  it('the read before midnight pays $0.20 per million, the read after it $0.10; the page record says which applied', async () => {
    const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol', economics: DEFAULT_ECONOMICS };
    const r = await renderTexts([{ file: 'scenarios/p.yaml', text }], config, { everyEvent: false });
    expect(r.errors.map(formatError)).toEqual([]);
    const [w, before, after] = r.economics.get('p')!.requests;
    // 23:56 writes the system prompt; 23:58 and 00:01 read it (within 5 minutes of the last use).
    expect(w!.cacheWriteTokens).toBeGreaterThan(512);
    expect(before!.cachedTokens).toBe(w!.cacheWriteTokens);
    expect(after!.cachedTokens).toBe(w!.cacheWriteTokens);
    // By hand, USD per million: input $2, 5-minute writes $2.50, reads $0.20 before 2026-10-07 and $0.10 from it.
    const cost = (e: typeof w, read: number) => ((e!.inputTokens - e!.cachedTokens - e!.cacheWriteTokens) * 2 + e!.cacheWriteTokens * 2.5 + e!.cachedTokens * read) / 1e6;
    expect(before!.costUsd).toBeCloseTo(cost(before, 0.2), 12);
    expect(after!.costUsd).toBeCloseTo(cost(after, 0.1), 12);
    expect(before!.cost!.cached).toBeCloseTo((before!.cachedTokens * 0.2) / 1e6, 12);
    expect(after!.cost!.cached).toBeCloseTo((after!.cachedTokens * 0.1) / 1e6, 12);
    expect(before!.pricesApplied?.map((a) => [a.field, a.value, a.why])).toEqual([['cachedInput', 0.2, 'in force until 2026-10-07']]);
    expect(after!.pricesApplied).toBeUndefined();
    // The pane says which price applied.
    expect(paneTokens(before!).title).toMatch(
      /; priced with cache reads at \$0\.2 per million \(in force until 2026-10-07; https:\/\/platform\.claude\.com\/docs\/zh-CN\/models\/sonnet-5-5\/overview, read 2026-12-06\)$/,
    );
    expect(paneTokens(after!).title).not.toMatch(/priced with/);
  });

  it('the bill is priced at the same instant: 23:58 pays $0.20 per million for its billed reads, 00:01 pays $0.10', async () => {
    // Bills of round figures (the provider's counts): 5,000 input of which 4,000 read and 100 written; 200 output.
    const bill = { inputTokens: 5000, cachedTokens: 4000, cacheWriteTokens: 100, outputTokens: 200 };
    const billed = scenario('startedAt: 2026-10-06T23:56:00Z\n').replace(/"format":"anthropic",/g, `"format":"anthropic","measured":${JSON.stringify(bill)},`);
    const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol', economics: DEFAULT_ECONOMICS };
    const r = await renderTexts([{ file: 'scenarios/p.yaml', text: billed }], config, { everyEvent: false });
    expect(r.errors.map(formatError)).toEqual([]);
    const b = billedOf(r.scenarios[0]!, r.economics.get('p')!, DEFAULT_ECONOMICS.profiles)!;
    // By hand: 900 uncached × $2 + 100 written × $2.50 + 4,000 read × (0.20 | 0.10) + 200 output × $10, per million.
    // 23:56 and 23:58: 1,800 + 250 + 800 + 2,000 = 4,850 → $0.00485; 00:01: 1,800 + 250 + 400 + 2,000 = 4,450 → $0.00445.
    expect(b.requests.map((q) => q.costUsd)).toEqual([0.00485, 0.00485, 0.00445]);
    expect(b.costUsd).toBeCloseTo(0.01415, 12);
  });

  it("a scenario without startedAt runs on the site's illustrative clock: no date, today's prices ($0.10 reads)", async () => {
    // The site's time zero is before the change; a hand-written scenario's clock is no date, so it is not priced by it.
    const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol', economics: DEFAULT_ECONOMICS };
    const r = await renderTexts([{ file: 'scenarios/p.yaml', text: scenario('') }], config, { everyEvent: false });
    expect(r.errors.map(formatError)).toEqual([]);
    for (const e of r.economics.get('p')!.requests) {
      expect(e.pricesApplied).toBeUndefined();
      expect(e.cost!.cached).toBeCloseTo((e.cachedTokens * 0.1) / 1e6, 12);
    }
  });

  it('a startedAt that is not an instant with its offset is located, with the fix', async () => {
    const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol', economics: DEFAULT_ECONOMICS };
    const r = await renderTexts([{ file: 'scenarios/p.yaml', text: scenario('startedAt: 2026-10-06 23:56\n') }], config, { everyEvent: false });
    expect(r.errors.map(formatError)).toEqual([
      'scenarios/p.yaml:4:12 error: `startedAt` must be an ISO 8601 instant with its offset, got "2026-10-06 23:56"\n' +
        "  fix: write the instant the first event happened, e.g. `startedAt: 2026-11-30T09:12:00Z` (Z, or an offset such as +01:00), or remove it to use the site's illustrative clock",
    ]);
  });
});
