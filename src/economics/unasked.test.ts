/**
 * Requests as sent that never ask for caching (unasked.ts), on crafted requests of known size
 * (`word word …` is one o200k token per word; a message adds 4 framing tokens, a request 3
 * reply-priming tokens — checked in compute.test.ts): nothing cached or written, and what asking
 * would save, worked out by hand from those counts and Claude Sonnet 4.5's prices ($3 input,
 * $0.30 read, $3.75 5-minute write per MTok). A fold's own request without breakpoints keeps the
 * provider's default placement.
 */
import { describe, expect, it } from 'vitest';
import type { RenderedMessage } from '../folds/types.ts';
import type { RenderedRequest, RenderedScenario } from '../prompt/render.ts';
import type { Scenario } from '../scenarios/model.ts';
import { scenarioEconomics } from './compute.ts';
import { DEFAULT_ECONOMICS } from './profiles.ts';
import { cacheBadge } from '../render/cache-badge.ts';
import { changeOf } from './traffic-change.ts';
import { MARKERS_UNRECORDED, measuredComparison } from './measured.ts';
import { unaskedCaching } from './unasked.ts';
import { causeName, causeText } from './view.ts';

const words = (n: number, w = 'word'): string => w + ` ${w}`.repeat(n - 1);
const msg = (role: string, n: number, w = 'word'): RenderedMessage => {
  const content = words(n, w);
  return { role, content, parts: [{ text: content, from: [] }] };
};

/** Four requests a minute apart: one 1,100-token system prompt, then a different 96-token question each. */
function scenario(asSent: boolean, payload: (i: number) => unknown = () => ({}), model = 'claude-sonnet-4-5'): RenderedScenario {
  const questions = ['alpha', 'beta', 'other', 'note'];
  const chain: RenderedRequest[] = questions.map((w, i) => ({
    offset: i + 1,
    model,
    lines: [],
    cut: null,
    previous: i ? i : null,
    anchors: [],
    text: '',
    messages: [msg('system', 1100), msg('user', 96, w)],
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    ...(asSent && { asSent: true as const }),
  }));
  const s = { id: 'crafted', chain: chain.map((q, i) => ({ offset: q.offset, payload: payload(i) })), events: [] } as unknown as Scenario;
  return { scenario: s, fold: undefined as never, options: {}, requests: chain, chain, events: [], warnings: [] };
}

// Tokens: the system message 1,100 + 4 = 1,104; the question 96 + 4 = 100; priming 3 → 1,207 a request.
const SYSTEM = 1104;
const REST = 100 + 3;
const INPUT = SYSTEM + REST;

describe('requests that never ask for caching', () => {
  it('are modelled with nothing cached and nothing written, and the finding says what one breakpoint after the system prompt would save', () => {
    const r = scenario(true);
    const econ = scenarioEconomics(r, DEFAULT_ECONOMICS, { attribute: false });
    expect(econ.requests.map((e) => [e.inputTokens, e.cachedTokens, e.cacheWriteTokens])).toEqual(Array(4).fill([INPUT, 0, 0]));
    // As is: 4 × 1,207 tokens at $3/MTok = $0.014484.
    expect(econ.totals.costUsd).toBeCloseTo((4 * INPUT * 3) / 1e6, 12);
    // Each way of asking is a copy of the requests (prompt/render.ts requestWith): none weaves its fixture text.
    let reads = 0;
    for (const q of r.chain)
      Object.defineProperty(q, 'text', {
        enumerable: true,
        get: () => {
          reads++;
          return '';
        },
      });
    const u = unaskedCaching(r, econ, DEFAULT_ECONOMICS)!;
    expect(reads).toBe(0);
    expect(u.requests).toBe(4);
    const after = u.options.find((o) => o.id === 'after-system')!;
    // A breakpoint after the system prompt: the first request writes its 1,104 tokens ($3.75) and pays the 103 others ($3);
    // the next three read them ($0.30) and pay the 103 others. 4,140 + 309 + 3 × (331.2 + 309) = 6,369.6 → $0.0063696.
    const withBreakpoint = (SYSTEM * 3.75 + REST * 3 + 3 * (SYSTEM * 0.3 + REST * 3)) / 1e6;
    expect(withBreakpoint).toBeCloseTo(0.0063696, 12);
    expect(after.totals.cachedTokens).toBe(3 * SYSTEM);
    expect(after.totals.cacheWriteTokens).toBe(SYSTEM);
    // Saved: 0.014484 − 0.0063696 = $0.0081144 a conversation, $8.1144 per 1,000.
    expect(after.savedUsd).toBeCloseTo(0.0081144, 10);
    expect(after.per1000Usd).toBeCloseTo(8.1144, 7);
    // Automatic caching puts its one breakpoint on the last block: each question differs, so every request writes
    // its 1,204 tokens and reads nothing — 1,204 × ($3.75 − $3) = $0.000903 more a request, $0.003612 for four.
    const auto = u.options.find((o) => o.id === 'automatic')!;
    expect([auto.totals.cachedTokens, auto.totals.cacheWriteTokens]).toEqual([0, 4 * (SYSTEM + 100)]);
    expect(auto.savedUsd).toBeCloseTo(-(4 * (SYSTEM + 100) * 0.75) / 1e6, 12);
    expect(u.sentence).toBe(
      'These 4 requests never ask for caching: nothing is read from the cache or written to it, and every input token is billed at the full price. ' +
        'One `cache_control` breakpoint after the system prompt would save ≈$0.00811 per conversation (≈$8.11 per 1,000 conversations like it); ' +
        'automatic caching (a top-level `cache_control`: one breakpoint on the last block, moving forward as the conversation grows) would cost ≈$0.00361 more here (≈0 tokens read from the cache: too few to pay for its writes).',
    );
  });

  it('name the cause of every uncached request after the first as “asks for no caching”, never the minimum (the prompt is 1,207 tokens, above the 1,024 minimum)', () => {
    const r = scenario(true);
    const econ = scenarioEconomics(r, DEFAULT_ECONOMICS, { attribute: false });
    expect(econ.requests.map((e) => e.cacheBreak?.cause)).toEqual(['first-request', 'not-asked', 'not-asked', 'not-asked']);
    expect(causeText(econ.requests[1]!)).toBe('not cached: the request as sent asks for no caching (it carries no cache breakpoint)');
    expect(causeName('not-asked', econ.requests[1]!)).toBe('the request asks for no caching');
    // Nothing was cached before, so nothing was lost and no event is to blame.
    expect(econ.requests[1]!.cacheBreak).toMatchObject({ tokensLost: 0, events: [] });
  });

  it('a request that asks after ones that did not reads nothing because nothing was written — not because of the minimum (its 1,104-token system prompt is above it)', () => {
    // The same system prompt and question each time (the bytes stay), the last two requests asking after the system prompt.
    const r = scenario(true);
    const same = r.chain.map((q, i) => ({ ...q, messages: r.chain[0]!.messages, ...(i >= 2 && { breakpoints: [{ message: 0 }] }) }));
    const asked = { ...r, chain: same, requests: same };
    const econ = scenarioEconomics(asked, DEFAULT_ECONOMICS, { attribute: false });
    expect(econ.requests.map((e) => [e.cacheBreak?.cause, e.cachedTokens, e.cacheWriteTokens])).toEqual([
      ['first-request', 0, 0],
      ['not-asked', 0, 0],
      ['previous-not-asked', 0, SYSTEM],
      [undefined, SYSTEM, 0],
    ]);
    // Before, the third was said to be "below the 1,024-token minimum".
    expect(causeText(econ.requests[2]!)).toBe('nothing to read yet: the request before asked for no caching, so it wrote nothing');
  });

  it('a fold’s own requests without breakpoints keep the provider’s default placement, and no finding', () => {
    const r = scenario(false);
    const econ = scenarioEconomics(r, DEFAULT_ECONOMICS, { attribute: false });
    // The default placement: after the system prompt and on the last message; requests 2–4 read the system prompt.
    expect(econ.requests.map((e) => e.cachedTokens)).toEqual([0, SYSTEM, SYSTEM, SYSTEM]);
    expect(unaskedCaching(r, econ, DEFAULT_ECONOMICS)).toBeNull();
  });

  it('no finding when the bill shows cached tokens (something the capture does not show asked for them)', () => {
    const r = scenario(true, (i) => ({ measured: { inputTokens: 1300, cachedTokens: i ? 1200 : 0, cacheWriteTokens: i ? 0 : 1200 } }));
    const econ = scenarioEconomics(r, DEFAULT_ECONOMICS, { attribute: false });
    expect(unaskedCaching(r, econ, DEFAULT_ECONOMICS)).toBeNull();
  });

  it('when the bill shows caching, the cause names what the capture lacks (its markers), not the request — in the table, the badge and the traffic label', () => {
    // A Claude Code transcript: the requests as captured carry no marker, the bill shows the provider wrote then read.
    const r = scenario(true, (i) => ({ measured: { inputTokens: 1300, cachedTokens: i ? 1200 : 0, cacheWriteTokens: i ? 0 : 1200 } }));
    const econ = scenarioEconomics(r, DEFAULT_ECONOMICS, { attribute: false });
    // The model still caches nothing (it never invents a marker) …
    expect(econ.requests.map((e) => [e.cachedTokens, e.cacheWriteTokens])).toEqual(Array(4).fill([0, 0]));
    // … but no request is said to ask for no caching.
    expect(econ.requests.map((e) => e.cacheBreak?.cause)).toEqual(['first-request', 'markers-unrecorded', 'markers-unrecorded', 'markers-unrecorded']);
    expect(causeName('markers-unrecorded', econ.requests[1]!)).toBe('the capture records no cache marker');
    expect(causeText(econ.requests[1]!)).toBe(
      'not cached in the model: the capture records no cache marker, so whether the request as sent asked for caching is not known (the model never invents one)',
    );
    expect(cacheBadge(econ.requests[2]!).text).toBe('0 % cached — the capture records no cache marker');
    expect(changeOf('markers-unrecorded', undefined, undefined)).toBe('cache markers not in the capture');
  });

  it('a bill that shows writes only is enough; a bill of zeros keeps “asks for no caching” (the provider did not cache: the request did not ask)', () => {
    const writes = scenario(true, (i) => ({ measured: { inputTokens: 1300, cachedTokens: 0, cacheWriteTokens: i === 3 ? 1200 : 0 } }));
    expect(scenarioEconomics(writes, DEFAULT_ECONOMICS, { attribute: false }).requests[1]!.cacheBreak?.cause).toBe('markers-unrecorded');
    const zeros = scenario(true, () => ({ measured: { inputTokens: 1300, cachedTokens: 0, cacheWriteTokens: 0 } }));
    const econ = scenarioEconomics(zeros, DEFAULT_ECONOMICS, { attribute: false });
    expect(econ.requests.map((e) => e.cacheBreak?.cause)).toEqual(['first-request', 'not-asked', 'not-asked', 'not-asked']);
    expect(cacheBadge(econ.requests[1]!).text).toBe('0 % cached — the request asks for no caching');
  });

  it('a capture that says it does not record cache markers (a Claude Code transcript) is never said to ask for no caching, even on a bill of zeros — and gets no “never ask” finding', () => {
    const r = scenario(true, () => ({
      measured: { inputTokens: 1300, cachedTokens: 0, cacheWriteTokens: 0 },
      unrecorded: ['the system prompt', 'the cache markers (breakpoints such as cache_control)'],
    }));
    const econ = scenarioEconomics(r, DEFAULT_ECONOMICS, { attribute: false });
    expect(econ.requests.map((e) => e.cacheBreak?.cause)).toEqual(['first-request', 'markers-unrecorded', 'markers-unrecorded', 'markers-unrecorded']);
    expect(unaskedCaching(r, econ, DEFAULT_ECONOMICS)).toBeNull();
    // The wording the captures write is the one the economics read.
    expect(MARKERS_UNRECORDED).toBe('the cache markers (breakpoints such as cache_control)');
  });

  it('billed reads and writes the model lacks are put down to the markers the capture does not record — not the minimum — and the markers carry no tokens (a GenAI span of a Claude model)', () => {
    // What an OpenTelemetry GenAI span holds: every message, no marker (the conventions have no attribute for one).
    // Billed: @1 writes 1,104 (the system prompt), @2–@4 read them; 1,207 input each, as the model counts.
    const r = scenario(true, (i) => ({
      measured: { inputTokens: INPUT, cachedTokens: i ? SYSTEM : 0, cacheWriteTokens: i ? 0 : SYSTEM },
      unrecorded: [MARKERS_UNRECORDED],
    }));
    const econ = scenarioEconomics(r, DEFAULT_ECONOMICS, { attribute: false });
    const m = measuredComparison(r, econ)!;
    // Only the markers are missing: the input is compared whole (93 = 0 tokens unseen), on the model's own count.
    expect(m.requests.map((q) => [q.unseenTokens, q.figures.inputTokens.diff])).toEqual(Array(4).fill([0, 0]));
    expect(m.summary).not.toMatch(/does not show/);
    expect(m.requests.map((q) => q.reason?.kind)).toEqual(Array(4).fill('markers-unrecorded'));
    expect(m.requests[0]!.reason!.text).toBe(
      'the provider wrote 1,104 tokens to the cache where the model writes 0: the capture records no cache marker, and the model caches only what a request asks for — the requests as sent carried breakpoints the capture does not show',
    );
    expect(m.requests[1]!.reason!.text).toMatch(/^the provider read 1,104 cached tokens where the model reads 0: the capture records no cache marker/);
    // A capture that lacks a part with tokens still says that first, with the billed tokens it does not show (1,300 − 1,207 = 93).
    const partial = scenario(true, () => ({ measured: { inputTokens: 1300, cachedTokens: 1200, cacheWriteTokens: 0 }, unrecorded: ['the system prompt', MARKERS_UNRECORDED] }));
    const p = measuredComparison(partial, scenarioEconomics(partial, DEFAULT_ECONOMICS, { attribute: false }))!;
    expect(p.requests[1]!.reason!.kind).toBe('unrecorded');
    expect(p.requests[1]!.unseenTokens).toBe(93);
  });

  it('below the minimum in what a partial capture holds (the tools not recorded) says so, in the badge and the cause — the minimum is the model’s, not the bill’s', () => {
    const small = (payload: (i: number) => unknown) => {
      const r = scenario(true, payload);
      const chain = r.chain.map((q) => ({ ...q, messages: [msg('system', 100), r.chain[0]!.messages[1]!], breakpoints: [{ message: 0 }] }));
      return { ...r, chain, requests: chain };
    };
    // 100 + 4 tokens above the breakpoint: below Claude Sonnet 4.5's 1,024-token minimum, so nothing is cached in the model.
    const partial = scenarioEconomics(
      small(() => ({ unrecorded: ['the tool definitions'] })),
      DEFAULT_ECONOMICS,
      { attribute: false },
    );
    expect(partial.requests.map((e) => [e.cacheBreak?.cause, e.cachedTokens, e.partial])).toEqual([
      ['first-request', 0, true],
      ['below-minimum', 0, true],
      ['below-minimum', 0, true],
      ['below-minimum', 0, true],
    ]);
    expect(cacheBadge(partial.requests[1]!).text).toBe('0 % cached — below the 1,024-token minimum in what the capture holds');
    expect(causeText(partial.requests[1]!)).toMatch(
      /^not cached in the model: what the capture holds of the request stays below the profile’s 1,024-token minimum — the capture does not record every part/,
    );
    // A whole capture (or only its markers unrecorded) keeps the plain words.
    for (const payload of [() => ({}), () => ({ unrecorded: [MARKERS_UNRECORDED] })]) {
      const whole = scenarioEconomics(small(payload), DEFAULT_ECONOMICS, { attribute: false });
      expect(whole.requests[1]!.partial).toBeUndefined();
      expect(cacheBadge(whole.requests[1]!).text).toBe('0 % cached — below the 1,024-token minimum');
    }
  });

  it('a capture where some request carries a marker keeps “asks for no caching” on the ones that do not (their bodies are whole)', () => {
    const r = scenario(true, (i) => ({ measured: { inputTokens: 1300, cachedTokens: i === 3 ? 1104 : 0, cacheWriteTokens: i === 2 ? 1104 : 0 } }));
    const same = r.chain.map((q, i) => ({ ...q, messages: r.chain[0]!.messages, ...(i >= 2 && { breakpoints: [{ message: 0 }] }) }));
    const econ = scenarioEconomics({ ...r, chain: same, requests: same }, DEFAULT_ECONOMICS, { attribute: false });
    expect(econ.requests.map((e) => e.cacheBreak?.cause)).toEqual(['first-request', 'not-asked', 'previous-not-asked', undefined]);
  });
});

describe('Bedrock requests that never ask for caching (no cachePoint)', () => {
  // Claude Sonnet 4.5 through Bedrock's global inference profile: Anthropic's list prices ($3 input, $0.30 read, $3.75 write).
  const MODEL = 'global.anthropic.claude-sonnet-4-5-20250929-v1:0';
  const converse = () => scenario(true, () => ({ format: 'bedrock-converse' }), MODEL);

  it('are modelled with nothing cached, and the first sentence says what one checkpoint after the system prompt would save', () => {
    const r = converse();
    const econ = scenarioEconomics(r, DEFAULT_ECONOMICS, { attribute: false });
    expect(econ.profiles.map((p) => p.id)).toEqual(['bedrock-claude-sonnet-4.5-global']);
    expect(econ.requests.map((e) => [e.inputTokens, e.cachedTokens, e.cacheWriteTokens])).toEqual(Array(4).fill([INPUT, 0, 0]));
    const u = unaskedCaching(r, econ, DEFAULT_ECONOMICS)!;
    // The same hand arithmetic as Anthropic's: 4 × 1,207 at $3 = $0.014484 as is; with the checkpoint $0.0063696; saved $0.0081144.
    const after = u.options.find((o) => o.id === 'after-system')!;
    expect([after.totals.cachedTokens, after.totals.cacheWriteTokens]).toEqual([3 * SYSTEM, SYSTEM]);
    expect(after.savedUsd).toBeCloseTo(0.0081144, 10);
    expect(after.source.source).toBe('https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html');
    // A checkpoint on the newest message: every question differs, so each request writes 1,204 tokens and reads none.
    const newest = u.options.find((o) => o.id === 'newest-message')!;
    expect([newest.totals.cachedTokens, newest.totals.cacheWriteTokens]).toEqual([0, 4 * (SYSTEM + 100)]);
    expect(u.sentence).toMatch(
      /^These 4 requests never ask for caching: nothing is read from the cache or written to it, and every input token is billed at the full price\. One cache checkpoint after the system prompt \(a cachePoint block at the end of system\) would save ≈\$0\.00811 per conversation \(≈\$8\.11 per 1,000 conversations like it\); one cache checkpoint at the end of the newest message/,
    );
    // Plain text (the lede shows it as text), and no Anthropic-only way to ask.
    expect(u.sentence).not.toMatch(/`|cache_control|automatic caching/);
  });

  it('a Converse request that asks (a checkpoint) gets no finding', () => {
    const r = converse();
    const marked = { ...r, requests: r.requests.map((q) => ({ ...q, breakpoints: [{ message: 0 }] })) };
    const econ = scenarioEconomics(marked, DEFAULT_ECONOMICS, { attribute: false });
    expect(unaskedCaching(marked, econ, DEFAULT_ECONOMICS)).toBeNull();
  });
});
