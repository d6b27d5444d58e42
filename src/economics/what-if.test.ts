/**
 * What-if, checked by hand: two crafted requests ten minutes apart (`word word …` is one o200k token
 * per word; a message adds 4 framing tokens, a request 3 reply-priming tokens), priced from the
 * catalog's documented rates — Claude Sonnet 4.5 ($3 input, $3.75 5-minute write, $6 1-hour write,
 * $0.30 read per million) and GPT-4.1 ($2 input, $0.50 cached; automatic prefix caching, hits of
 * 1,024 + whole 128-token steps). Every expected figure is worked out in the test from those counts.
 */
import { describe, expect, it } from 'vitest';
import { renderCorpus } from '../corpus/check.ts';
import type { Breakpoint, RenderedMessage } from '../folds/types.ts';
import type { RenderedRequest, RenderedScenario } from '../prompt/render.ts';
import { resolveOptions } from '../integration/options.ts';
import type { Scenario } from '../scenarios/model.ts';
import { DEFAULT_ECONOMICS, resolveEconomics } from './profiles.ts';
import { isWhatIf, whatIf, type WhatIf, type WhatIfOptionId } from './what-if.ts';
import { paysFromText } from '../render/what-if-text.ts';
import { CORPUS_TIMEOUT } from '../../tests/support/timeouts.ts';

const words = (n: number, w = 'word'): string => w + ` ${w}`.repeat(n - 1);
const msg = (role: string, n: number, w = 'word'): RenderedMessage => ({ role, content: words(n, w), parts: [] });
const M = (n: number): number => n + 4;
const PRIMING = 3;

function scenario(reqs: { t: number; messages: RenderedMessage[]; breakpoints?: Breakpoint[] }[], model: string): RenderedScenario {
  const chain: RenderedRequest[] = reqs.map((q, i) => ({
    offset: i + 1,
    model,
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

const usd = (microDollars: number): number => microDollars / 1e6;
const option = (w: WhatIf, id: WhatIfOptionId) => w.options.find((o) => o.id === id);
const run = (r: RenderedScenario): WhatIf => {
  const w = whatIf(r, DEFAULT_ECONOMICS);
  if (!isWhatIf(w)) throw new Error(w.reason);
  return w;
};

describe('what-if, Anthropic (Claude Sonnet 4.5): 5 min against 1 h, and a keep-alive', () => {
  // One breakpoint after the system message (1,500 words): 1,504 tokens cached; the rest is input.
  const sys = msg('system', 1500);
  const first = [sys, msg('user', 5, 'go')];
  const r = scenario(
    [
      { t: 0, messages: first, breakpoints: [{ message: 0 }] },
      { t: 600, messages: [...first, msg('user', 5, 'ask')], breakpoints: [{ message: 0 }] },
    ],
    'anthropic/claude-sonnet-4-5',
  );
  const cached = M(1500);
  const rest1 = M(5) + PRIMING; // 12
  const rest2 = 2 * M(5) + PRIMING; // 21
  const w = run(r);

  it('as placed (5 min): the entry expires in the 10-minute gap and is written twice', () => {
    const asIs = option(w, 'as-is')!;
    // 1,504 × $3.75 + 12 × $3, then 1,504 × $3.75 + 21 × $3.
    const want = usd(cached * 3.75 + rest1 * 3) + usd(cached * 3.75 + rest2 * 3);
    expect(asIs.totals.costUsd).toBeCloseTo(want, 12);
    expect(asIs.totals.cachedTokens).toBe(0);
    expect(asIs.same).toEqual(['every breakpoint 5 min']);
    expect(asIs.per1000Usd).toBeCloseTo(want * 1000, 9);
  });

  it('1 h: written once at $6, read at $0.30; with one breakpoint "1 h on the first" is the same row', () => {
    const hour = option(w, 'ttl-1h-first')!;
    expect(hour.same).toEqual(['every breakpoint 1 h']);
    const want = usd(cached * 6 + rest1 * 3) + usd(cached * 0.3 + rest2 * 3);
    expect(hour.totals.costUsd).toBeCloseTo(want, 12);
    expect(hour.totals.cachedTokens).toBe(cached);
    const asIs = usd(cached * 3.75 + rest1 * 3) + usd(cached * 3.75 + rest2 * 3);
    expect(hour.deltaUsd).toBeCloseTo(want - asIs, 12);
    expect(option(w, 'ttl-1h')).toBeUndefined();
  });

  it('keep-alive: the first request sent again at 4 min 30 s and 9 min, each reading the entry', () => {
    const ka = option(w, 'keep-alive')!;
    expect(ka.keepAlive).toBe(2);
    const ping = usd(cached * 0.3 + rest1 * 3);
    const want = usd(cached * 3.75 + rest1 * 3) + 2 * ping + usd(cached * 0.3 + rest2 * 3);
    expect(ka.totals.costUsd).toBeCloseTo(want, 12);
  });

  it('the 1-hour TTL pays once every idle gap exceeds 5 min, up to 60 min', () => {
    expect(w.paysFrom).toEqual({ longer: 'ttl-1h', shortMinutes: 5, longMinutes: 60, fromMinutes: 5, untilMinutes: 60 });
    expect(w.idleGapsMs).toEqual([600_000]);
  });
  it('a long conversation (40 requests): gaps tried down to R/32, the same answer, and it says so', () => {
    const long = scenario(
      Array.from({ length: 40 }, (_, i) => ({ t: i * 600, messages: [...first, ...Array.from({ length: i }, (_, k) => msg('user', 5, `t${k}`))], breakpoints: [{ message: 0 }] })),
      'anthropic/claude-sonnet-4-5',
    );
    const lw = run(long);
    expect(lw.paysFrom).toEqual({ longer: 'ttl-1h', shortMinutes: 5, longMinutes: 60, fromMinutes: 5, untilMinutes: 60, coarseK: 32 });
    expect(paysFromText(lw)).toContain('(Gaps were tried down to 1/32 of each retention: a conversation this long is not re-priced at every shorter one.)');
    expect(paysFromText(w)).not.toContain('Gaps were tried');
  });

  it('no gap over 5 min: no keep-alive row, and the note says why', () => {
    const near = run(
      scenario(
        [
          { t: 0, messages: first, breakpoints: [{ message: 0 }] },
          { t: 60, messages: first, breakpoints: [{ message: 0 }] },
        ],
        'anthropic/claude-sonnet-4-5',
      ),
    );
    expect(option(near, 'keep-alive')).toBeUndefined();
    expect(near.notes).toContain('no idle gap reaches the 5-minute retention: a keep-alive request is never needed');
  });
});

describe('what-if, OpenAI (GPT-4.1): in-memory against 24-hour retention', () => {
  const r = scenario(
    [
      { t: 0, messages: [msg('user', 2000)] },
      { t: 600, messages: [msg('user', 2000), msg('user', 5, 'go')] },
    ],
    'openai/gpt-4.1',
  );
  const in1 = M(2000) + PRIMING; // 2,007
  const in2 = M(2000) + M(5) + PRIMING; // 2,016
  // The common prefix is the first message (2,004 tokens) and at most a framing token: 1,024 + 7 × 128 = 1,920 cached.
  const hit = 1024 + 7 * 128;
  const w = run(r);

  it('in-memory (5 min): the prefix is gone after 10 minutes; every token at $2', () => {
    expect(option(w, 'as-is')!.totals.costUsd).toBeCloseTo(usd((in1 + in2) * 2), 12);
  });

  it('24 h: the same prices, 1,920 tokens read at $0.50', () => {
    const long = option(w, 'retention-24h')!;
    expect(long.totals.cachedTokens).toBe(hit);
    expect(long.totals.costUsd).toBeCloseTo(usd(in1 * 2 + hit * 0.5 + (in2 - hit) * 2), 12);
    expect(w.sources.some((s) => s.source.includes('learn.microsoft.com'))).toBe(true);
  });

  it('keep-alive: two pings, each reading 1,920 of its 2,007 tokens', () => {
    const ka = option(w, 'keep-alive')!;
    expect(ka.keepAlive).toBe(2);
    const ping = usd(hit * 0.5 + (in1 - hit) * 2);
    expect(ka.totals.costUsd).toBeCloseTo(usd(in1 * 2) + 2 * ping + usd(hit * 0.5 + (in2 - hit) * 2), 12);
  });

  it('24 h costs the same until gaps exceed 5 min, then less, up to 24 h', () => {
    expect(w.paysFrom).toEqual({ longer: 'retention-24h', shortMinutes: 5, longMinutes: 1440, fromMinutes: 5, untilMinutes: 1440 });
  });
});

describe('what-if variants copy a request, not its fixture text', () => {
  // A rendered request weaves its fixture text when first read (prompt/render.ts): an object spread
  // reads it. The variants (retimed, re-marked with a TTL, keep-alive pings) must not.
  function counted(r: RenderedScenario): { r: RenderedScenario; reads: () => number } {
    let reads = 0;
    const chain = r.chain.map((q) => {
      const { text: _, ...rest } = q;
      return Object.defineProperty(rest, 'text', {
        enumerable: true,
        get: () => {
          reads++;
          return 'woven';
        },
      }) as RenderedRequest;
    });
    return { r: { ...r, chain, requests: chain }, reads: () => reads };
  }
  const sys = msg('system', 1500);
  it.each([
    ['anthropic/claude-sonnet-4-5', [{ message: 0 }]],
    ['openai/gpt-4.1', undefined],
  ] as const)('%s: every option computed, no text read, the same figures as from plain requests', (model, breakpoints) => {
    const plain = scenario(
      [
        { t: 0, messages: [sys], ...(breakpoints && { breakpoints: [...breakpoints] }) },
        { t: 600, messages: [sys, msg('user', 5, 'go')], ...(breakpoints && { breakpoints: [...breakpoints] }) },
      ],
      model,
    );
    const { r, reads } = counted(plain);
    const w = run(r);
    expect(w.options.map((o) => o.id)).toContain('keep-alive');
    expect(reads()).toBe(0);
    expect(w).toEqual(run(plain));
    // The copies still read as their request's text when asked.
    expect(r.chain[0]!.text).toBe('woven');
  });
});

describe('what-if, GPT-5.6 Terra and the cases it declines', () => {
  it('GPT-5.6 Terra: the 12-hour write is shown without a cost (its price is not in the catalog), and no keep-alive', () => {
    const r = scenario(
      [
        { t: 0, messages: [msg('user', 2000)] },
        { t: 3600, messages: [msg('user', 2000), msg('user', 5, 'go')] },
      ],
      'openai/gpt-5.6-terra',
    );
    const w = run(r);
    expect(w.options.map((o) => o.id)).toEqual(['as-is', 'write-12h']);
    const twelve = option(w, 'write-12h')!;
    expect(twelve.totals.costUsd).toBeNull();
    expect(twelve.totals.cachedTokens).toBeGreaterThan(0);
    expect(option(w, 'as-is')!.totals.cachedTokens).toBe(0);
    expect(w.paysFrom).toBeNull();
  });

  it('an Anthropic model the catalog does not price (the generic profile: no 1-hour write price): no 1-hour rows and no "pays from", and the note says why', () => {
    // Two requests ten minutes apart, as an imported span of a retired model carries them; this threw (no 1-hour run to compare) and broke the site's build.
    const r = scenario(
      [
        { t: 0, messages: [msg('user', 1500)], breakpoints: [{ message: 0 }] },
        { t: 600, messages: [msg('user', 1500), msg('user', 5, 'go')], breakpoints: [{ message: 0 }] },
      ],
      'claude-3-5-sonnet-20240620',
    );
    const w = run(r);
    expect(w.profile).toBe('anthropic');
    expect(w.options.map((o) => o.id)).toEqual(['as-is', 'keep-alive']);
    expect(w.paysFrom).toBeNull();
    expect(w.notes).toContain('the 1-hour TTL is not priced for this profile');
  });

  it('requests under two profiles, and a profile that never expires, have no what-if, with the reason', () => {
    const two = scenario([{ t: 0, messages: [msg('user', 10)] }], 'openai/gpt-4.1');
    two.chain = [...two.chain, { ...two.chain[0]!, offset: 2, previous: 1, model: 'anthropic/claude-sonnet-4-5' }];
    expect(whatIf(two, DEFAULT_ECONOMICS)).toEqual({
      reason: 'its requests use 2 profiles (openai-gpt-4.1, anthropic-claude-sonnet-4.5); a what-if re-prices one',
    });
    expect(whatIf(scenario([{ t: 0, messages: [msg('user', 10)] }], 'acme/model'), DEFAULT_ECONOMICS)).toEqual({
      reason: 'profile unknown never expires an entry: retention changes nothing',
    });
    expect(whatIf({ ...two, requests: [] }, DEFAULT_ECONOMICS)).toEqual({ reason: 'the scenario has no request' });
  });

  it('a strategy that offers no retention choice (Gemini implicit, given a retention by a project) has no what-if, and says so', () => {
    const { config, problems } = resolveEconomics({ profiles: { 'google-gemini-2.5-pro': { retentionMinutes: 60 } } });
    expect(problems).toEqual([]);
    expect(whatIf(scenario([{ t: 0, messages: [msg('user', 10)] }], 'gemini-2.5-pro'), config)).toEqual({
      reason: 'Gemini implicit caching (2.5 and later: automatic prefix caching, no markers) offers no retention choice to compare',
    });
  });
});

describe('what-if over the bundled scenarios', () => {
  it(
    'as-is is each scenario’s own figures (the totals its page shows), and a longer retention never caches less',
    async () => {
      const config = await resolveOptions(process.cwd());
      const corpus = await renderCorpus(config, { everyEvent: false });
      expect(corpus.errors).toEqual([]);
      let checked = 0;
      const byId = new Map(corpus.scenarios.map((r) => [r.scenario.id, r]));
      for (const r of corpus.scenarios) {
        const w = whatIf(r, config.economics, byId);
        if (!isWhatIf(w)) continue;
        const t = corpus.economics.get(r.scenario.id)!.totals;
        const asIs = w.options[0]!;
        expect(asIs.id).toBe('as-is');
        expect([asIs.totals.costUsd, asIs.totals.cachedTokens, asIs.totals.inputTokens], r.scenario.id).toEqual([t.costUsd, t.cachedTokens, t.inputTokens]);
        for (const o of w.options.filter((x) => x.id === 'ttl-1h' || x.id === 'retention-24h' || x.id === 'write-12h'))
          expect(o.totals.cachedTokens, `${r.scenario.id} ${o.id}`).toBeGreaterThanOrEqual(asIs.totals.cachedTokens);
        checked++;
      }
      expect(checked).toBeGreaterThan(15);
      // An independent check: the lifecycle scenarios run the same stream with the fold's breakpoints
      // at 5 min and at 1 h (the layered fold's breakpointTtl option). Each one's what-if re-prices it
      // under the other's TTL: the figures must be the other scenario's own totals.
      const of = (id: string) => {
        const w = whatIf(corpus.scenarios.find((r) => r.scenario.id === id)!, config.economics);
        if (!isWhatIf(w)) throw new Error(w.reason);
        return w;
      };
      const [five, hour] = [of('lifecycle-resume-after-idle'), of('lifecycle-resume-after-idle-1h')];
      const own = (id: string) => corpus.economics.get(id)!.totals.costUsd;
      expect(option(five, 'ttl-1h')!.totals.costUsd).toBe(own('lifecycle-resume-after-idle-1h'));
      expect(option(hour, 'ttl-5m')!.totals.costUsd).toBe(own('lifecycle-resume-after-idle'));
      // The keep-alive keeps 5-minute breakpoints alive, whichever TTL the fold asked for.
      expect(option(hour, 'keep-alive')!.totals.costUsd).toBe(option(five, 'keep-alive')!.totals.costUsd);
      expect(option(five, 'keep-alive')!.keepAlive).toBe(2);
    },
    CORPUS_TIMEOUT,
  );
});
