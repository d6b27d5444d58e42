/**
 * The cache rules of each provider at their edges, on crafted requests of exactly known size
 * (`word word …` is one o200k token per word; a message adds 4 framing tokens, a request 3 reply-
 * priming tokens): every minimum ±1 token, retention ±1 s, Anthropic's lookback 20 vs 21 blocks,
 * a read refreshing one entry and not another, 4 vs 5 breakpoints, a tool list ahead of the system
 * prompt, OpenAI's 128-token steps and reply priming, GPT-5.6's implicit and explicit breakpoints,
 * a breakpoint inside a message, tokens lost (an older entry's hit, a below-minimum chain, a break
 * after a refresh), costs split by part, and model ids mapped by id, family and prefix. Expected
 * figures are worked out by hand in each test from those token counts and the prices.
 */
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import type { Breakpoint, RenderedMessage } from '../folds/types.ts';
import { resolveOptions } from '../integration/options.ts';
import { UserError } from '../errors.ts';
import type { RenderedRequest, RenderedScenario } from '../prompt/render.ts';
import type { Scenario } from '../scenarios/model.ts';
import { everyProfile, roundedHit, scenarioEconomics, shapeCache, totalsOf, underEveryProfile, type RequestEconomics } from './compute.ts';
import { formatDuration } from './format.ts';
import { DEFAULT_ECONOMICS, profileFor, resolveEconomics, type EconomicsConfig } from './profiles.ts';
import { PROFILES } from './shipped-profiles.ts';
import { approximateWhy, causeText, cutNote } from './view.ts';

/** Content of exactly `n` o200k tokens. */
const words = (n: number, w = 'word'): string => w + ` ${w}`.repeat(n - 1);
const msg = (role: string, n: number, w = 'word'): RenderedMessage => {
  const content = words(n, w);
  return { role, content, parts: [{ text: content, from: [] }] };
};
/** Tokens of a message of `n` content tokens. */
const M = (n: number): number => n + 4;
const PRIMING = 3;

interface Req {
  t: number; // seconds
  messages: RenderedMessage[];
  breakpoints?: Breakpoint[];
  model?: string;
}

/** A rendered scenario of crafted requests (offsets 1, 2, …), each one's previous the one before. */
function scenario(reqs: Req[], model: string): RenderedScenario {
  const chain: RenderedRequest[] = reqs.map((q, i) => ({
    offset: i + 1,
    model: q.model ?? model,
    lines: [],
    cut: null,
    previous: i ? i : null,
    anchors: [],
    text: '',
    messages: q.messages,
    createdAt: new Date(Date.UTC(2026, 0, 1) + q.t * 1000).toISOString(),
    ...(q.breakpoints && { breakpoints: q.breakpoints }),
  }));
  const s = { id: 'crafted', chain: [], events: [] } as unknown as Scenario;
  return { scenario: s, fold: undefined as never, options: {}, requests: chain, chain, events: [], warnings: [] };
}

function run(reqs: Req[], model: string, config: EconomicsConfig = DEFAULT_ECONOMICS): RequestEconomics[] {
  return scenarioEconomics(scenario(reqs, model), config, { attribute: false }).requests;
}

const SONNET = 'anthropic/claude-sonnet-4-5';
const TERRA = 'openai/gpt-5.6-terra';
const GPT4O = 'openai/gpt-4o';

describe('the crafted texts', () => {
  it('are one token per word in both encodings (checked with gpt-tokenizer itself)', () => {
    for (const w of ['word', 'go', 'ask', 'more', 'note', 'other', 'alpha', 'beta', 'one', 'two', 'stamp', 'changed', 'u', 'a', 'b', 'c', 'd', 'e', 'x', 'y']) {
      expect([o200k.encode(words(50, w)).length, cl100k.encode(words(50, w)).length]).toEqual([50, 50]);
    }
    expect(o200k.encode('[{"name":"a"}]')).toHaveLength(7);
    expect(o200k.encodeChat([{ role: 'user', content: words(5) }], 'gpt-4o')).toHaveLength(M(5) + PRIMING);
  });
});

describe('exact counts', () => {
  it('an OpenAI request is exact, unless a message holds a run of letters counted in pieces (tokens.ts LONG_RUN): then ≈', () => {
    const blob = (content: string): RenderedMessage => ({ role: 'user', content, parts: [{ text: content, from: [] }] });
    const [plain] = run([{ t: 0, messages: [msg('user', 50)] }], GPT4O);
    expect(plain!.exact).toBe(true);
    const [pieced, after] = run(
      [
        { t: 0, messages: [blob(`a pasted blob: ${'A'.repeat(20_000)}`)] },
        { t: 1, messages: [msg('user', 50)] },
      ],
      GPT4O,
    );
    expect(pieced!.exact).toBe(false);
    expect(after!.exact, 'a request without such a message stays exact').toBe(true);
    // The page says why, per profile (EconomicsPanel): an OpenAI request's ≈ is never the provider's.
    const openai = { id: pieced!.profile, tokenizer: 'o200k_base' };
    expect(approximateWhy({ requests: [pieced!, after!] }, openai)).toBe('a run of more than 4,096 characters of one kind — letters, spaces or punctuation — is counted in pieces');
    expect(approximateWhy({ requests: [plain!] }, openai)).toBeUndefined();
    const [claude] = run([{ t: 0, messages: [msg('user', 50)] }], SONNET);
    expect(approximateWhy({ requests: [claude!, plain!] }, { id: claude!.profile, tokenizer: 'approx' })).toBe('no offline tokenizer for this provider');
    // In a scenario of both, the OpenAI profile's counts are exact: no sentence under it.
    expect(approximateWhy({ requests: [claude!, plain!] }, { id: plain!.profile, tokenizer: 'o200k_base' })).toBeUndefined();
  });
});

describe('the entry read, found newest first', () => {
  // The search for the entry a request reads goes newest first and stops when no older entry holds
  // enough tokens to beat what it found (entries.ts ProviderCache.best, simulate.ts offered): an
  // older entry longer than every newer one must still be found, and of equals the same one as a
  // search oldest first.
  const long = [msg('system', 1500, 'alpha'), msg('user', 400)];
  it('an older, longer entry beats the newer short ones (OpenAI prefix caching and Anthropic breakpoints)', () => {
    for (const model of [GPT4O, SONNET]) {
      const qs = run(
        [
          { t: 0, messages: long },
          // Newer entries that give request 4 something, but less than request 1's: its system prompt alone.
          { t: 1, messages: [long[0]!] },
          { t: 2, messages: [long[0]!, msg('user', 40, 'note')] },
          { t: 3, messages: [...long, msg('user', 20, 'go')] },
        ],
        model,
      );
      expect(qs[3]!.readFrom, model).toBe(1);
      expect(qs[3]!.cachedTokens, model).toBeGreaterThan(1700); // the system prompt and the first user message (alone: about 1,500)
    }
  });

  it('of entries that give the same, the later used, then the newer — as the search oldest first chose', () => {
    // Requests 1 and 2 are the same text: their entries give request 3 the same tokens. Request 2
    // read entry 1 (its last use now second 1, as entry 2's): the newer, entry 2, is read.
    const qs = run(
      [
        { t: 0, messages: long },
        { t: 1, messages: long },
        { t: 2, messages: [...long, msg('user', 20, 'go')] },
      ],
      GPT4O,
    );
    expect(qs[1]!.readFrom).toBe(1);
    expect(qs[2]!.readFrom).toBe(2);
  });
});

describe('roundedHit (OpenAI automatic caching)', () => {
  it('caches nothing below 1,024 prefix tokens, then grows in 128-token steps', () => {
    const p = PROFILES['openai-automatic']!;
    expect([0, 1023, 1024, 1151, 1152, 1279, 1280].map((n) => roundedHit(p, n))).toEqual([0, 0, 1024, 1024, 1152, 1152, 1280]);
  });
});

describe('OpenAI before GPT-5.6: the token prefix', () => {
  // A = [user n]; B = A + [user 5]. Shared tokens: A's message (n + 4) and the <|im_start|> that opens
  // both A's reply priming and B's next message — the other two priming tokens (assistant, <|im_sep|>) differ.
  it('the minimum ±1 token, counting the one shared reply-priming token', () => {
    const two = (n: number) =>
      run(
        [
          { t: 0, messages: [msg('user', n)] },
          { t: 1, messages: [msg('user', n), msg('user', 5, 'go')] },
        ],
        GPT4O,
      );
    expect(M(1019) + 1).toBe(1024);
    expect(two(1019)[1]!.cachedTokens).toBe(1024);
    expect(two(1018)[1]!.cachedTokens).toBe(0);
    expect(two(1018)[1]!.cacheBreak?.cause).toBe('below-minimum');
    expect(two(1019)[1]!.cacheWriteTokens).toBe(0); // no write cost before GPT-5.6
  });

  it('128-token steps: 1,151 shared tokens read 1,024, 1,152 read 1,152', () => {
    const two = (n: number) =>
      run(
        [
          { t: 0, messages: [msg('user', n)] },
          { t: 1, messages: [msg('user', n), msg('user', 5, 'go')] },
        ],
        GPT4O,
      );
    expect(two(1146)[1]!.cachedTokens).toBe(1024); // 1146 + 4 + 1 = 1151
    expect(two(1147)[1]!.cachedTokens).toBe(1152); // 1152
  });

  it('retention ±1 s: a lower bound, so the text says the entry may have been evicted', () => {
    const at = (s: number) =>
      run(
        [
          { t: 0, messages: [msg('user', 1200)] },
          { t: s, messages: [msg('user', 1200), msg('user', 5, 'go')] },
        ],
        GPT4O,
      )[1]!;
    expect(at(300).cachedTokens).toBe(1152); // 1205 shared → 1152
    const late = at(301);
    expect(late.cachedTokens).toBe(0);
    expect(late.expired).toBe(true);
    expect(late.cacheBreak).toMatchObject({ cause: 'expired', tokensLost: 1152 });
    expect(causeText(late)).toBe('byte-stable, but the cache entry may have been evicted (idle 5 min 1 s; documented minimum 5 min)');
  });
});

describe('OpenAI GPT-5.6: implicit and explicit breakpoints', () => {
  const stamp = msg('developer', 6, 'stamp');
  it('the implicit breakpoint ends at the newest user message; writes cost 1.25×, reads are exact (no 128 rounding)', () => {
    const a = [msg('system', 1500), msg('user', 10, 'ask'), stamp];
    const b = [...a, msg('user', 7, 'more'), msg('developer', 6, 'note')];
    const [x, y] = run(
      [
        { t: 0, messages: a },
        { t: 60, messages: b },
      ],
      TERRA,
    );
    const entry = M(1500) + M(10); // 1518, up to the end of the user message
    expect(x!.cacheWriteTokens).toBe(entry);
    expect(x!.breakpointTokens).toEqual([entry]);
    expect(y!.cachedTokens).toBe(entry);
    const input = M(1500) + M(10) + M(6) + M(7) + M(6) + PRIMING;
    expect(y!.inputTokens).toBe(input);
    expect(y!.cacheWriteTokens).toBe(M(1500) + M(10) + M(6) + M(7) - entry);
    // $2 input, $0.20 cached, $2.50 writes per million tokens (GPT-5.6 Terra).
    const writes = M(6) + M(7);
    const uncached = input - entry - writes;
    expect(y!.cost).toEqual({ input: (uncached * 2) / 1e6, cached: (entry * 0.2) / 1e6, writes: (writes * 2.5) / 1e6, output: 0 });
    expect(y!.costUsd).toBeCloseTo((uncached * 2 + entry * 0.2 + writes * 2.5) / 1e6, 12);
    expect(y!.noCacheCostUsd).toBeCloseTo((input * 2) / 1e6, 12);
  });

  it('the minimum ±1 token at the implicit breakpoint', () => {
    const first = (n: number) => run([{ t: 0, messages: [msg('user', n), stamp] }], TERRA)[0]!;
    expect(first(1020).cacheWriteTokens).toBe(1024);
    expect(first(1019).cacheWriteTokens).toBe(0);
  });

  it('an explicit breakpoint after the system prompt survives a changed user message', () => {
    const bp: Breakpoint[] = [{ message: 0 }];
    const [, y] = run(
      [
        { t: 0, messages: [msg('system', 1500), msg('user', 10, 'ask')], breakpoints: bp },
        { t: 60, messages: [msg('system', 1500), msg('user', 10, 'other')], breakpoints: bp },
      ],
      TERRA,
    );
    expect(y!.cachedTokens).toBe(M(1500));
    expect(y!.breakpointTokens).toEqual([M(1500), M(1500) + M(10)]);
  });

  it('retention ±1 s after the write (30 min, no refresh on read is documented)', () => {
    const at = (s: number) =>
      run(
        [
          { t: 0, messages: [msg('user', 1500)] },
          { t: s, messages: [msg('user', 1500), msg('user', 5, 'go')] },
        ],
        TERRA,
      )[1]!;
    expect(at(1800).cachedTokens).toBe(M(1500));
    const late = at(1801);
    expect(late.cachedTokens).toBe(0);
    expect(causeText(late)).toBe('byte-stable, but the cache entry may have been evicted (idle 30 min 1 s; documented minimum 30 min)');
  });
});

describe('Anthropic: breakpoints, minimum, TTL, lookback, refresh', () => {
  it('the minimum ±1 token (Sonnet 4.5: 1,024) at the default breakpoint on the last message', () => {
    const first = (n: number) => run([{ t: 0, messages: [msg('user', n)] }], SONNET)[0]!;
    expect(first(1020).cacheWriteTokens).toBe(1024);
    expect(first(1019).cacheWriteTokens).toBe(0);
    expect(first(1020).exact).toBe(false);
    // $3 input, $3.75 per million 5-minute write tokens: 1,024 written, the 3 priming tokens billed as input.
    expect(first(1020).costUsd).toBeCloseTo((1024 * 3.75 + 3 * 3) / 1e6, 12);
  });

  it('TTL ±1 s: 5 minutes, and 1 hour with `ttl: "1h"` written at 2×', () => {
    const two = (s: number, ttl?: '1h') =>
      run(
        [
          { t: 0, messages: [msg('user', 1500)], breakpoints: [{ message: 0, ...(ttl && { ttl }) }] },
          { t: s, messages: [msg('user', 1500), msg('user', 5, 'go')], breakpoints: [{ message: 1 }] },
        ],
        SONNET,
      );
    expect(two(300)[1]!.cachedTokens).toBe(M(1500));
    const late = two(301)[1]!;
    expect(late.cachedTokens).toBe(0);
    expect(causeText(late)).toBe('byte-stable, but the cache entry expired (idle 5 min 1 s; TTL 5 min)');
    const hour = two(3600, '1h');
    expect(hour[0]!.cacheWriteTokens1h).toBe(M(1500));
    expect(hour[0]!.cost!.writes).toBeCloseTo((M(1500) * 6) / 1e6, 12);
    expect(hour[1]!.cachedTokens).toBe(M(1500));
    expect(two(3601, '1h')[1]!.cachedTokens).toBe(0);
  });

  it('a tool list ahead of the system prompt keeps the system breakpoint (default placement)', () => {
    const tools: RenderedMessage = { role: 'tools', content: '[{"name":"a"}]', parts: [] };
    const sys = msg('system', 1200);
    const [x, y] = run(
      [
        { t: 0, messages: [tools, sys, msg('user', 10, 'ask')] },
        { t: 60, messages: [tools, sys, msg('user', 10, 'other')] },
      ],
      SONNET,
    );
    const toolsTokens = 7 + 4; // '[{"name":"a"}]' is 7 tokens
    expect(x!.breakpointTokens).toEqual([toolsTokens + M(1200), toolsTokens + M(1200) + M(10)]);
    expect(y!.cachedTokens).toBe(toolsTokens + M(1200));
  });

  it('a trace’s own markers: on the tool list and on a message, the cached figures those markers imply', () => {
    // Tools 500 tokens (one JSON string tool), no system breakpoint: the entries end after the tools and after message 2.
    const tools: RenderedMessage = { role: 'tools', content: `["${words(500)}"]`, parts: [] };
    const toolsTokens = o200k.encode(tools.content).length + 4;
    const marks: Breakpoint[] = [{ message: 0 }, { message: 2 }];
    const sys = msg('system', 700);
    const [x, y, z] = run(
      [
        { t: 0, messages: [tools, sys, msg('user', 400, 'ask')], breakpoints: marks },
        // The user message changed: only the tool-list entry (below the 1,024 minimum: never written) … nothing read.
        { t: 10, messages: [tools, sys, msg('user', 400, 'other')], breakpoints: marks },
        // The same bytes as the first request plus a turn: the entry after message 2 is read.
        { t: 20, messages: [tools, sys, msg('user', 400, 'ask'), msg('user', 5, 'go')], breakpoints: [{ message: 0 }, { message: 3 }] },
      ],
      SONNET,
    );
    expect(toolsTokens).toBeLessThan(1024);
    expect(x!.breakpointTokens).toEqual([toolsTokens, toolsTokens + M(700) + M(400)]);
    expect(x!.cacheWriteTokens).toBe(toolsTokens + M(700) + M(400));
    expect(y!.cachedTokens).toBe(0);
    expect(z!.cachedTokens).toBe(toolsTokens + M(700) + M(400));
    expect(z!.readFrom).toBe(1);
  });

  it('4 breakpoints are accepted, 5 are the API error (nothing cached or billed)', () => {
    const ms = ['a', 'b', 'c', 'd', 'e'].map((w) => msg('user', 300, w));
    const four = run([{ t: 0, messages: ms, breakpoints: [1, 2, 3, 4].map((message) => ({ message })) }], SONNET)[0]!;
    expect(four.apiError).toBeUndefined();
    expect(four.cacheWriteTokens).toBe(5 * M(300));
    const five = run([{ t: 0, messages: ms, breakpoints: [0, 1, 2, 3, 4].map((message) => ({ message })) }], SONNET)[0]!;
    expect(five.apiError).toBe('5 cache breakpoints; the API accepts at most 4 and rejects the request');
    expect([five.cachedTokens, five.cacheWriteTokens, five.costUsd]).toEqual([0, 0, null]);
  });

  it('lookback: 20 positions counting the breakpoint’s own — an entry 19 blocks back is read, 20 blocks back is not', () => {
    const sys = msg('system', 1500);
    const turns = (n: number) => Array.from({ length: n }, (_, i) => msg('user', 3, i % 2 ? 'x' : 'y'));
    const withTurns = (n: number) =>
      run(
        [
          { t: 0, messages: [sys], breakpoints: [{ message: 0 }] },
          { t: 60, messages: [sys, ...turns(n)], breakpoints: [{ message: n }] },
        ],
        SONNET,
      )[1]!;
    // The entry ends after block 1; the breakpoint sits after block 1 + n and checks the boundaries
    // after blocks 1 + n, n, …, n − 18 (20 positions): block 1 is among them for n ≤ 19.
    expect(withTurns(19).cachedTokens).toBe(M(1500));
    const far = withTurns(20);
    expect(far.cachedTokens).toBe(0);
    expect(far.cacheBreak).toMatchObject({ cause: 'out-of-reach', tokensLost: M(1500) });
  });

  it('reading one entry refreshes that entry, not the other entries the same request wrote', () => {
    // A writes E1 (system) and E2 (whole). B, 4 min later, changes the user message: reads E1 only.
    // C, 8 min after A, has A's bytes again: E2 is 8 min idle (expired), E1 4 min (alive).
    const sys = msg('system', 1300);
    const u1 = msg('user', 2000, 'alpha');
    const [a, b, c] = run(
      [
        { t: 0, messages: [sys, u1] },
        { t: 240, messages: [sys, msg('user', 2000, 'beta')] },
        { t: 480, messages: [sys, u1, msg('user', 5, 'go')] },
      ],
      SONNET,
    );
    expect(a!.cacheWriteTokens).toBe(M(1300) + M(2000));
    expect(b!.cachedTokens).toBe(M(1300));
    expect(c!.cachedTokens).toBe(M(1300));
    expect(c!.readFrom).toBe(1);
    // Against its previous request B, C lost B's own entry (system + beta) beyond the system entry it reads.
    expect(c!.cacheBreak).toMatchObject({ cause: 'earlier-message-changed', tokensLost: M(2000) });
    // Had B read E2 (same bytes), E2 would have been refreshed and C would read it whole.
    const refreshed = run(
      [
        { t: 0, messages: [sys, u1] },
        { t: 240, messages: [sys, u1] },
        { t: 480, messages: [sys, u1, msg('user', 5, 'go')] },
      ],
      SONNET,
    );
    expect(refreshed[2]!.cachedTokens).toBe(M(1300) + M(2000));
  });

  it('a breakpoint inside a message covers that many characters: their tokens count', () => {
    const head = words(1100);
    const content = `${head} tail that changes`;
    const m1: RenderedMessage = { role: 'user', content, parts: [] };
    const m2: RenderedMessage = { role: 'user', content: `${head} another tail`, parts: [] };
    const bp = [{ message: 0, end: head.length }];
    const [x, y] = run(
      [
        { t: 0, messages: [m1], breakpoints: bp },
        { t: 60, messages: [m2], breakpoints: bp },
      ],
      SONNET,
    );
    expect(x!.breakpointTokens).toEqual([3 + 1100]); // the message's 3 opening tokens + 1,100 content tokens
    expect(y!.cachedTokens).toBe(1103);
  });
});

describe('tokens lost', () => {
  const sys = msg('system', 1300);
  it('a hit on an older entry: lost is what the previous request’s entry held beyond it, never negative', () => {
    const base = [sys, msg('user', 100, 'one')];
    const longer = run(
      [
        { t: 0, messages: base },
        { t: 10, messages: [sys, msg('user', 400, 'two')] }, // rewrites the user message: writes system + 400
        { t: 20, messages: [...base, msg('user', 5, 'go')] }, // A's bytes again: reads A's entry
      ],
      SONNET,
    );
    expect(longer[2]!.cachedTokens).toBe(M(1300) + M(100));
    expect(longer[2]!.cacheBreak!.tokensLost).toBe(M(1300) + M(400) - (M(1300) + M(100)));
    const shorter = run(
      [
        { t: 0, messages: base },
        { t: 10, messages: [sys, msg('user', 20, 'two')] },
        { t: 20, messages: [...base, msg('user', 5, 'go')] },
      ],
      SONNET,
    );
    expect(shorter[2]!.cachedTokens).toBe(M(1300) + M(100));
    expect(shorter[2]!.cacheBreak!.tokensLost).toBe(0);
  });

  it('a chain below the minimum loses nothing, whatever changes', () => {
    const es = run(
      [
        { t: 0, messages: [msg('system', 200), msg('user', 10)] },
        { t: 10, messages: [msg('system', 200), msg('user', 10), msg('user', 10, 'b')] },
        { t: 20, messages: [msg('system', 201), msg('user', 10)] },
      ],
      SONNET,
    );
    expect(es.map((e) => e.cacheBreak?.cause)).toEqual(['first-request', 'below-minimum', 'system-changed']);
    expect(es.map((e) => e.cacheBreak?.tokensLost)).toEqual([0, 0, 0]);
    expect(cutNote(es[2]!, () => '').lost).toBe('nothing cached was lost');
  });

  it('a break after a refresh loses the refreshed entry, priced at the input minus the cached price', () => {
    const u = msg('user', 500, 'u');
    const es = run(
      [
        { t: 0, messages: [sys, u] },
        { t: 200, messages: [sys, u, msg('user', 5, 'go')] }, // reads A's whole entry (refreshes it)
        { t: 400, messages: [msg('system', 1300, 'changed'), u, msg('user', 5, 'go')] }, // 6 min 40 s after A
      ],
      SONNET,
    );
    expect(es[1]!.cachedTokens).toBe(M(1300) + M(500));
    const lost = M(1300) + M(500) + M(5); // B's own last entry
    expect(es[2]!.cacheBreak).toMatchObject({ cause: 'system-changed', tokensLost: lost });
    // Those tokens are written again in C (at $3.75) instead of read (at $0.30).
    expect(es[2]!.cacheBreak!.lostCostUsd).toBeCloseTo((lost * (3.75 - 0.3)) / 1e6, 12);
    const note = cutNote(es[2]!, () => '');
    expect(note.lost).toBe(`≈${lost.toLocaleString('en-US')} tokens lost, ≈$${((lost * 3.45) / 1e6).toPrecision(3)}`);
  });

  it('a changed instruction (developer) message of the leading run is system-changed; one after the conversation began is not', () => {
    const cause = (first: RenderedMessage[], second: RenderedMessage[]) =>
      run(
        [
          { t: 0, messages: first },
          { t: 10, messages: second },
        ],
        TERRA,
      )[1]!.cacheBreak?.cause;
    expect(cause([msg('developer', 1300), msg('user', 5)], [msg('developer', 1300, 'other'), msg('user', 5)])).toBe('system-changed');
    expect(cause([msg('system', 1300), msg('user', 5), msg('developer', 5)], [msg('system', 1300), msg('user', 5), msg('developer', 5, 'other')])).toBe('earlier-message-changed');
  });

  it('a model change loses the previous model’s entry', () => {
    const es = run(
      [
        { t: 0, messages: [sys] },
        { t: 10, messages: [sys, msg('user', 5)], model: 'anthropic/claude-sonnet-4-5-20250929' },
      ],
      SONNET,
    );
    expect(es[1]!.cacheBreak).toMatchObject({ cause: 'model-changed', events: [2], tokensLost: M(1300) });
  });
});

describe('every profile side by side', () => {
  it('grouping profiles that cache alike and repricing gives what each profile computes on its own', () => {
    const sys = msg('system', 1300);
    const r = scenario(
      [
        { t: 0, messages: [sys, msg('user', 200)] },
        { t: 100, messages: [sys, msg('user', 200), msg('user', 5, 'go')] },
        { t: 200, messages: [msg('system', 1300, 'changed'), msg('user', 200)] },
      ],
      SONNET,
    );
    const all = underEveryProfile(r, DEFAULT_ECONOMICS, false);
    expect(all.map((x) => x.profile.id)).toEqual(Object.keys(DEFAULT_ECONOMICS.profiles));
    for (const { profile, requests } of all) expect(requests).toEqual(scenarioEconomics(r, DEFAULT_ECONOMICS, { profile: profile.id, attribute: false }).requests);
    // The side-by-side table's totals (repriced from the figures totals read) are each profile's own run's totals, to the last digit.
    expect(everyProfile(r, DEFAULT_ECONOMICS)).toEqual(
      Object.values(DEFAULT_ECONOMICS.profiles).map((p) => ({
        profile: p.id,
        title: p.title,
        totals: scenarioEconomics(r, DEFAULT_ECONOMICS, { profile: p.id, attribute: false }).totals,
      })),
    );
    // Cache-positive under Sonnet 4.5 (1,024 minimum), not under Haiku 4.5 (4,096).
    const cached = (id: string) => all.find((x) => x.profile.id === id)!.requests[1]!.cachedTokens;
    expect(cached('anthropic-claude-sonnet-4.5')).toBe(M(1300) + M(200));
    expect(cached('anthropic-claude-haiku-4.5')).toBe(0);
  });

  it('over the shape cache the scenario’s own economics ran with: the same figures, each request shaped once', () => {
    const sys = msg('system', 1300);
    const r = scenario(
      [
        { t: 0, messages: [sys, msg('user', 200)] },
        { t: 100, messages: [sys, msg('user', 200), msg('user', 5, 'go')], breakpoints: [{ message: 1 }] },
        { t: 4000, messages: [sys, msg('user', 200), msg('user', 5, 'go'), msg('assistant', 30)] },
      ],
      SONNET,
    );
    const shapes = shapeCache();
    const own = scenarioEconomics(r, DEFAULT_ECONOMICS, { shapes });
    const firstShape = [...shapes.byMessages.get(r.chain[1]!.messages)![0]!.byEncoding.values()][0];
    const shared = underEveryProfile(r, DEFAULT_ECONOMICS, false, undefined, shapes);
    expect(shared).toEqual(underEveryProfile(r, DEFAULT_ECONOMICS, false));
    expect(own.requests).toEqual(scenarioEconomics(r, DEFAULT_ECONOMICS).requests);
    // Every run reused the shape the first one made (one entry per request's messages and breakpoints, one per encoding).
    for (const q of r.chain) expect(shapes.byMessages.get(q.messages)).toHaveLength(1);
    expect([...shapes.byMessages.get(r.chain[1]!.messages)![0]!.byEncoding.values()]).toEqual([firstShape]);
    expect(everyProfile(r, DEFAULT_ECONOMICS, undefined, shapes)).toEqual(everyProfile(r, DEFAULT_ECONOMICS));
    // The cache given is the one used.
    const given = shapeCache();
    everyProfile(r, DEFAULT_ECONOMICS, undefined, given);
    for (const q of r.chain) expect(given.byMessages.get(q.messages)).toHaveLength(1);
  });
});

describe('durations are printed unrounded', () => {
  it('formats idle times', () => {
    expect(formatDuration(1_801_000)).toBe('30 min 1 s');
    expect(formatDuration(300_999)).toBe('5 min 0.999 s');
    expect(formatDuration(3_600_000)).toBe('1 h');
    expect(formatDuration(0)).toBe('0 s');
  });
});

describe('model ids → profiles', () => {
  it('by explicit id, family (dated ids, variants), provider prefix, then the fallback', () => {
    const id = (m: string) => profileFor(DEFAULT_ECONOMICS, m);
    // Exact and dated ids, with or without the provider/ prefix a scenario writes.
    expect(id('openai/gpt-5.6-terra')).toMatchObject({ matched: 'model', by: 'gpt-5.6-terra', profile: { id: 'openai-gpt-5.6-terra' } });
    expect(id('claude-sonnet-4-5-20250929')).toMatchObject({ matched: 'model', profile: { id: 'anthropic-claude-sonnet-4.5' } });
    expect(id('openai/gpt-5.6-luna')).toMatchObject({ matched: 'model', profile: { id: 'openai-gpt-5.6-luna', cache: 'openai-breakpoints' } });
    // Families: a later dated id, an unnamed family member, a later family.
    expect(id('claude-haiku-4-5-20991231')).toMatchObject({ matched: 'family', by: 'claude-haiku-4-5', profile: { id: 'anthropic-claude-haiku-4.5' } });
    expect(id('claude-haiku-4-5').profile.minPrefixTokens.value).toBe(4096);
    expect(id('gpt-5.6-sol-2026-07-01')).toMatchObject({ matched: 'family', profile: { id: 'openai-gpt-5.6-sol' } });
    expect(id('gpt-5.6-nova')).toMatchObject({ matched: 'family', by: 'gpt-5.6-', profile: { cache: 'openai-breakpoints' } });
    expect(id('gpt-7-nova')).toMatchObject({ matched: 'family', profile: { cache: 'openai-breakpoints' } });
    // gpt-4o and gpt-4.1 are priced (an imported trace from them shows money).
    for (const m of ['gpt-4o', 'openai/gpt-4.1-2025-04-14']) {
      const p = id(m).profile;
      expect([p.cache, !!p.prices.input, !!p.prices.cachedInput, !!p.prices.output]).toEqual(['openai-prefix', true, true, true]);
    }
    // Provider prefixes, then the fallback.
    expect(id('openai/gpt-9-nova')).toMatchObject({ matched: 'prefix', by: 'openai/', profile: { id: 'openai-automatic' } });
    expect(id('claude-opus-9')).toMatchObject({ matched: 'prefix', by: 'claude-', profile: { id: 'anthropic', cache: 'anthropic' } });
    expect(id('acme/one')).toMatchObject({ matched: 'fallback', profile: { id: 'unknown' } });
  });

  it('astro.config.mjs adds profiles (old `strategy` spelling too), families and prices; bad entries are errors with a fix', async () => {
    const config = await resolveOptions(process.cwd(), {
      economics: {
        profiles: {
          acme: { tokenizer: 'cl100k_base', strategy: 'prefix', minPrefixTokens: 0, retentionMinutes: 60, refreshOnHit: true, prices: { input: 1, cachedInput: 0.5, output: 2 } },
        },
        families: { 'acme-': 'acme' },
      },
    });
    const c = config.economics!;
    expect(profileFor(c, 'acme-7')).toMatchObject({ matched: 'family', profile: { id: 'acme', cache: 'openai-prefix', stepTokens: { value: 1 } } });
    const [, y] = run(
      [
        { t: 0, messages: [msg('user', 100)] },
        { t: 10, messages: [msg('user', 100), msg('user', 5, 'go')] },
      ],
      'acme-7',
      c,
    );
    // cl100k: the same words, one token each; the message (104) and the shared <|im_start|>.
    expect(y!.cachedTokens).toBe(M(100) + 1);
    expect(y!.costUsd).toBeCloseTo(((M(100) + 1) * 0.5 + (y!.inputTokens - M(100) - 1) * 1) / 1e6, 12);
    const problems = resolveEconomics({
      models: { 'x/y': 'nope' },
      profiles: { half: { tokenizer: 'o200k_base' }, odd: { cache: 'lru' as never }, old: { strategy: 'lru' as never } },
    }).problems;
    const bad = problems.map((p) => p.problem).join('\n');
    expect(bad).toContain('economics.models["x/y"] names profile "nope", which does not exist');
    expect(bad).toContain('economics.profiles["half"] is a new profile but lacks cache, minPrefixTokens, retentionMinutes, refreshOnHit');
    expect(bad).toContain('economics.profiles["odd"].cache "lru" is not one of openai-prefix, openai-breakpoints, anthropic');
    // The older spellings are the strategies' aliases, in registry order.
    expect(bad).toContain('economics.profiles["old"].strategy "lru" is not one of prefix, breakpoints');
    // The fix is its own field, never in the message.
    expect(bad).not.toContain('fix:');
    expect(problems.find((p) => p.problem.startsWith('economics.models'))!.fix).toMatch(/^use one of .*, or define it under economics.profiles$/);
    expect(problems.find((p) => p.problem.startsWith('economics.profiles["old"]'))!.fix).toMatch(/^write cache: one of openai-prefix, openai-breakpoints, anthropic/);
    await expect(resolveOptions(process.cwd(), { economics: { models: { 'x/y': 'nope' } } })).rejects.toThrow(/fix: use one of/);
    const one = await resolveOptions(process.cwd(), { economics: { models: { 'x/y': 'nope' } } }).catch((e: unknown) => e as UserError);
    expect(UserError.is(one) && one.problem).toMatch(/: economics.models\["x\/y"\] names profile "nope", which does not exist$/);
    expect(UserError.is(one) && one.fix).toMatch(/^use one of /);
    // Several problems: numbered, each fix under its number.
    const two = await resolveOptions(process.cwd(), { economics: { models: { 'x/y': 'nope' }, families: { z: 'gone' } } }).catch((e: unknown) => e as UserError);
    expect(UserError.is(two) && two.problem.split('\n').map((l) => l.replace(/^.*?: /, ''))).toEqual([
      '(1) economics.models["x/y"] names profile "nope", which does not exist',
      '(2) economics.families["z"] names profile "gone", which does not exist',
    ]);
    expect(UserError.is(two) && two.fix).toMatch(/^\(1\) use one of .*; \(2\) use one of /);
  });
});

describe('totals of a scenario’s requests', () => {
  const req = (e: Partial<RequestEconomics>): RequestEconomics =>
    ({
      inputTokens: 0,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: null,
      costUsd: null,
      cost: null,
      noCacheCostUsd: null,
      cacheBreak: null,
      exact: true,
      ...e,
    }) as RequestEconomics;
  const a = req({ inputTokens: 1000, cacheWriteTokens: 1000, outputTokens: 50, costUsd: 0.6, cost: { input: 0.1, cached: 0, writes: 0.2, output: 0.3 }, noCacheCostUsd: 0.5 });
  const b = req({
    inputTokens: 1500,
    cachedTokens: 1000,
    costUsd: 0.2,
    cost: { input: 0.1, cached: 0.05, writes: 0, output: 0.05 },
    noCacheCostUsd: 0.3,
    cacheBreak: { tokensLost: 200, lostCostUsd: 0.07 } as RequestEconomics['cacheBreak'],
    exact: false,
  });

  it('adds every figure (by hand: 1,000 + 1,500 input, $0.6 + $0.2, 0.3 + 0.05 output dollars …)', () => {
    expect(totalsOf([a, b])).toEqual({
      inputTokens: 2500,
      cachedTokens: 1000,
      uncachedTokens: 1500,
      cacheWriteTokens: 1000,
      outputTokens: 50,
      tokensLost: 200,
      costUsd: 0.8,
      cost: { input: 0.2, cached: 0.05, writes: 0.2, output: 0.35 },
      noCacheCostUsd: 0.8,
      lostCostUsd: 0.07,
      cachedShare: 0.4,
      exact: false,
      rejected: 0,
    });
  });

  it('a dollar figure is unknown when one request’s is; a rejected request is counted; no requests, no dollars', () => {
    const rejected = req({ inputTokens: 10, apiError: 'too many breakpoints' });
    const t = totalsOf([a, rejected, b]);
    expect([t.costUsd, t.cost, t.noCacheCostUsd, t.lostCostUsd, t.rejected, t.inputTokens]).toEqual([null, null, null, 0.07, 1, 2510]);
    expect(totalsOf([])).toMatchObject({ inputTokens: 0, costUsd: null, cost: null, noCacheCostUsd: null, lostCostUsd: null, cachedShare: null, exact: true, rejected: 0 });
  });
});
