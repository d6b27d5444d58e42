/**
 * Scenarios sharing one provider cache (`sharesCache:`, shared-cache.ts), on crafted requests of
 * exactly known size (`word word …` is one o200k token per word, the count Anthropic's ≈ uses too;
 * a message adds 4 framing tokens, a request 3 reply-priming tokens). Every expected figure is worked
 * out here by hand from those counts and the providers' published prices — never read back from the
 * code that computes it:
 *
 * - Claude Sonnet 4.5: $3 / MTok input, $3.75 5-minute cache writes, $0.30 cache hits
 *   (https://platform.claude.com/docs/en/about-claude/pricing, "Model pricing", read 2026-12-03);
 *   TTL 5 min, refreshed by a read; minimum 1,024 tokens.
 * - GPT-4o: $2.50 / MTok input, $1.25 cached; automatic prefix caching from 1,024 tokens in
 *   128-token steps (https://developers.openai.com/api/docs/guides/prompt-caching, read 2026-12-03).
 */
import { describe, expect, it } from 'vitest';
import type { Breakpoint, RenderedMessage } from '../folds/types.ts';
import type { RenderedRequest, RenderedScenario } from '../prompt/render.ts';
import type { Scenario } from '../scenarios/model.ts';
import { scenarioEconomics, type RequestEconomics } from './compute.ts';
import { DEFAULT_ECONOMICS } from './profiles.ts';
import { causeText, paneTokens } from './view.ts';

const words = (n: number, w: string): string => w + ` ${w}`.repeat(n - 1);
const msg = (role: string, n: number, w: string): RenderedMessage => {
  const content = words(n, w);
  return { role, content, parts: [{ text: content, from: [] }] };
};
/** Tokens of a message of `n` content tokens; the reply priming. */
const M = (n: number): number => n + 4;
const PRIMING = 3;
const T0 = Date.UTC(2026, 0, 1);

interface Req {
  off: number;
  t: number; // seconds on the scenario's own clock
  messages: RenderedMessage[];
  breakpoints?: Breakpoint[];
}

/** A rendered scenario of crafted requests, each one's previous the one before; `link` is its `sharesCache:`. */
function scenario(id: string, model: string, reqs: Req[], link?: { scenario: string; at: number }): RenderedScenario {
  const chain: RenderedRequest[] = reqs.map((q, i) => ({
    offset: q.off,
    model,
    lines: [],
    cut: null,
    previous: i ? reqs[i - 1]!.off : null,
    anchors: [],
    text: '',
    messages: q.messages,
    createdAt: new Date(T0 + q.t * 1000).toISOString(),
    ...(q.breakpoints && { breakpoints: q.breakpoints }),
  }));
  const events = reqs.map((q) => ({ offset: q.off, elapsedMs: q.t * 1000, payload: null, scenarioId: id }));
  const s = { id, chain: events, events, ...(link && { sharesCache: { ...link } }) } as unknown as Scenario;
  return { scenario: s, fold: undefined as never, options: {}, requests: chain, chain, events: [], warnings: [] };
}

const SONNET = 'claude-sonnet-4-5';
// Anthropic, USD per token.
const IN = 3e-6;
const WRITE = 3.75e-6;
const HIT = 0.3e-6;

const sys = msg('system', 2000, 'rule');
const bp = (...messages: number[]): Breakpoint[] => messages.map((message) => ({ message }));

/** The parent: @1 at 0 s writes the system entry (2,004 tokens) and its turn; @2 at 60 s reads and refreshes both. */
const parentReqs = (): Req[] => [
  { off: 1, t: 0, messages: [sys, msg('user', 100, 'alpha')], breakpoints: bp(0, 1) },
  { off: 2, t: 60, messages: [sys, msg('user', 100, 'alpha'), msg('assistant', 20, 'gamma'), msg('user', 20, 'delta')], breakpoints: bp(0, 3) },
];
/** A child started at the parent's @2 (60 s), first sending at its own `t`. */
const child = (t: number, system = sys, model = SONNET): RenderedScenario =>
  scenario('child', model, [{ off: 1, t, messages: [system, msg('user', 50, 'beta')], breakpoints: bp(0, 1) }], { scenario: 'parent', at: 2 });

const econ = (r: RenderedScenario, ...others: RenderedScenario[]): RequestEconomics[] =>
  scenarioEconomics(r, DEFAULT_ECONOMICS, { attribute: false, corpus: new Map([r, ...others].map((x) => [x.scenario.id, x])) }).requests;
const close = (got: number | null, want: number): void => expect(got).toBeCloseTo(want, 12);

describe('a child scenario starts with its parent’s cache entries', () => {
  it('reads the system prompt entry the parent wrote, and pays only for its own turn', () => {
    const parent = scenario('parent', SONNET, parentReqs());
    const [c] = econ(child(30), parent);
    // Input: system 2,004 + brief 54 + priming 3. Read: the 2,004-token system entry (written by
    // the parent's @1, refreshed by its @2 at 60 s; the child sends at 60 + 30 s). Written: the brief.
    expect(c!.inputTokens).toBe(M(2000) + M(50) + PRIMING);
    expect(c!.cachedTokens).toBe(M(2000));
    expect(c!.cacheWriteTokens).toBe(M(50));
    expect(c!.readFrom).toBe(1);
    expect(c!.readFromScenario).toBe('parent');
    expect(causeText(c!)).toBe('first request of the chain: it reads what `parent` @1 wrote to the cache they share');
    expect(paneTokens(c!).firstStory).toBe(
      "First request of this conversation, but not of the cache it shares with parent: it reads the ≈2,004 tokens that scenario's @1 wrote, whose bytes it repeats exactly, and writes only what follows them.",
    );
    close(c!.costUsd, 2004 * HIT + 54 * WRITE + 3 * IN); // $0.0008127
    // Alone, the same request is a cold start: everything up to its last breakpoint is written.
    const [alone] = scenarioEconomics(child(30), DEFAULT_ECONOMICS, { attribute: false }).requests;
    expect(alone!.cachedTokens).toBe(0);
    expect(causeText(alone!)).toBe('first request of the chain: nothing cached yet');
    expect(paneTokens(alone!).firstStory).toBeUndefined();
    close(alone!.costUsd, 2058 * WRITE + 3 * IN); // $0.0077265
  });

  it('the entry lives 5 min after its last use on the shared clock: read at 300 s idle, gone at 301 s', () => {
    const parent = scenario('parent', SONNET, parentReqs());
    // Last use: the parent's @2 at 60 s. The child's clock starts there, so its own t is the idle time.
    expect(econ(child(300), parent)[0]!.cachedTokens).toBe(2004);
    const late = econ(child(301), parent)[0]!;
    expect(late.cachedTokens).toBe(0);
    close(late.costUsd, 2058 * WRITE + 3 * IN);
  });

  it('only entries whose bytes are a prefix of the child’s request: one word changed in the system prompt reads nothing', () => {
    const parent = scenario('parent', SONNET, parentReqs());
    const other = msg('system', 2000, 'rule');
    const changed = { ...other, content: `${words(1999, 'rule')} rules`, parts: [{ text: `${words(1999, 'rule')} rules`, from: [] }] };
    expect(econ(child(30, changed), parent)[0]!.cachedTokens).toBe(0);
  });

  it('another model is another cache: a child on Haiku reads nothing the Sonnet parent wrote', () => {
    const big = msg('system', 5000, 'rule'); // above Haiku 4.5's 4,096-token minimum
    const parent = scenario(
      'parent',
      SONNET,
      parentReqs().map((q) => ({ ...q, messages: [big, ...q.messages.slice(1)] })),
    );
    expect(econ(child(30, big), parent)[0]!.cachedTokens).toBe(M(5000)); // the same model reads it
    expect(econ(child(30, big, 'claude-haiku-4-5'), parent)[0]!.cachedTokens).toBe(0);
  });

  it('a scenario with no link is simulated exactly as alone, whatever the corpus holds', () => {
    const parent = scenario('parent', SONNET, parentReqs());
    const alone = scenarioEconomics(parent, DEFAULT_ECONOMICS, { attribute: false });
    expect(scenarioEconomics(parent, DEFAULT_ECONOMICS, { attribute: false, corpus: new Map([['parent', parent]]) })).toEqual(alone);
  });
});

describe('request parameters the provider keys on', () => {
  /** The scenario's events carry an Anthropic body with `thinking` (params.ts reads it, as for a `requests` scenario). */
  const withThinking = (r: RenderedScenario, thinking: unknown): RenderedScenario => {
    const chain = r.scenario.chain.map((e) => ({ ...e, payload: { format: 'anthropic', body: { thinking } } }));
    return { ...r, scenario: { ...r.scenario, chain, events: chain } };
  };
  const fork = (): RenderedScenario =>
    scenario('child', SONNET, [{ off: 1, t: 30, messages: [sys, msg('user', 100, 'alpha'), msg('user', 10, 'fork')], breakpoints: bp(0, 2) }], { scenario: 'parent', at: 2 });

  it('a forked child (the parent’s first turn too) reads the parent’s turn entry when its parameters match', () => {
    const parent = withThinking(scenario('parent', SONNET, parentReqs()), { type: 'enabled', budget_tokens: 2048 });
    const [c] = econ(withThinking(fork(), { type: 'enabled', budget_tokens: 2048 }), parent);
    expect(c!.cachedTokens).toBe(M(2000) + M(100)); // 2,108: the entry on the parent's first user message
  });

  it('changed thinking parameters invalidate the messages entries for it: only tools and system are read (Anthropic)', () => {
    const parent = withThinking(scenario('parent', SONNET, parentReqs()), { type: 'enabled', budget_tokens: 2048 });
    const [c] = econ(withThinking(fork(), { type: 'disabled' }), parent);
    expect(c!.cachedTokens).toBe(M(2000));
    close(c!.costUsd, 2004 * HIT + (M(100) + M(10)) * WRITE + 3 * IN);
  });
});

describe('the parent sees what the child read and wrote', () => {
  it('a child’s reads keep the shared system entry alive through the parent’s idle gap', () => {
    // The child (from 60 s) sends at 260 s and 460 s; each read refreshes the system entry. The
    // parent's @3 at 700 s: its own turn entries were last used at 60 s (idle 640 s: gone), the
    // system entry at 460 s (idle 240 s: alive).
    const turns = [sys, msg('user', 100, 'alpha'), msg('assistant', 20, 'gamma'), msg('user', 20, 'delta'), msg('assistant', 10, 'eta'), msg('user', 10, 'theta')];
    const parent = scenario('parent', SONNET, [...parentReqs(), { off: 3, t: 700, messages: turns, breakpoints: bp(0, 5) }]);
    const kid = scenario(
      'child',
      SONNET,
      [
        { off: 1, t: 200, messages: [sys, msg('user', 50, 'beta')], breakpoints: bp(0, 1) },
        { off: 2, t: 400, messages: [sys, msg('user', 50, 'beta'), msg('assistant', 10, 'eps'), msg('user', 10, 'zeta')], breakpoints: bp(0, 3) },
      ],
      { scenario: 'parent', at: 2 },
    );
    const p3 = econ(parent, kid).find((e) => e.offset === 3)!;
    const input = M(2000) + M(100) + M(20) + M(20) + M(10) + M(10) + PRIMING; // 2,187
    expect(p3.inputTokens).toBe(input);
    expect(p3.cachedTokens).toBe(2004);
    expect(p3.cacheWriteTokens).toBe(input - PRIMING - 2004); // 180, up to the breakpoint on the last message
    close(p3.costUsd, 2004 * HIT + 180 * WRITE + 3 * IN); // $0.0012852
    // Without the child the system entry expired with the rest: @3 is a cold start.
    const lone = scenarioEconomics(parent, DEFAULT_ECONOMICS, { attribute: false }).requests.find((e) => e.offset === 3)!;
    expect(lone.cachedTokens).toBe(0);
    expect(lone.cacheBreak?.cause).toBe('expired');
  });
});

describe('OpenAI automatic prefix caching across scenarios', () => {
  it('the common token prefix, rounded down to the 128-token steps above 1,024', () => {
    const parent = scenario('parent', 'gpt-4o', parentReqs());
    const c = scenario('child', 'gpt-4o', [{ off: 1, t: 30, messages: [sys, msg('user', 50, 'beta')] }], { scenario: 'parent', at: 2 });
    const [e] = econ(c, parent);
    // Common prefix with the parent's requests: the system message (2,004) and the next message's
    // opening `<|im_start|>user<|im_sep|>` (3); "alpha" vs "beta" differ at the first content token.
    // 2,007 → 1,024 + ⌊(2,007 − 1,024) / 128⌋ × 128 = 1,920.
    expect(e!.cachedTokens).toBe(1920);
    expect(e!.inputTokens).toBe(2061);
    close(e!.costUsd, 1920 * 1.25e-6 + (2061 - 1920) * 2.5e-6); // $0.0027525
  });
});
