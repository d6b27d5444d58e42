/**
 * What the provider billed (billed.ts), and the lede a page with a bill opens on
 * (render/billed-lede.ts): totals, the bill priced, each request's billed miss, the tokens the capture
 * does not show, and the page model marking misses and opening on the largest. The profile is the
 * test's own, with round prices, so every figure below is hand arithmetic.
 */
import { describe, expect, it } from 'vitest';
import { renderTexts } from '../corpus/check.ts';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { scenarioView } from '../prompt/view.ts';
import { billedLede, billedText } from '../render/billed-lede.ts';
import { billedOf, billedPaneText, withBilledMisses } from './billed.ts';
import { MARKERS_UNRECORDED, measuredComparison } from './measured.ts';
import { panelRows } from './view.ts';
import { DEFAULT_ECONOMICS, type EconomicsConfig } from './profiles.ts';
import type { Profile } from './shipped-profiles.ts';

const src = <T>(value: T) => ({ value, source: 'billed.test.ts', read: '2026-12-06' });
// $ per million tokens: input 2, cached 0.5, writes 4, output 10.
const priced: Profile = {
  id: 'priced',
  title: 'Priced',
  tokenizer: 'o200k_base',
  cache: 'openai-prefix',
  minPrefixTokens: src(0),
  stepTokens: src(1),
  retentionMinutes: src(10),
  refreshOnHit: src(true),
  prices: { input: src(2), cachedInput: src(0.5), cacheWrite: src(4), cacheWrite1h: src(6), output: src(10) },
} as Profile;
const economics: EconomicsConfig = { ...DEFAULT_ECONOMICS, profiles: { ...DEFAULT_ECONOMICS.profiles, priced }, models: { ...DEFAULT_ECONOMICS.models, 'test-priced': 'priced' } };

type Usage = { inputTokens: number; cachedTokens?: number; cacheWriteTokens?: number; cacheWrite1hTokens?: number; outputTokens?: number };
const msgs = ['Find the failing test.', 'It is run.test.ts.', 'Fix it.', 'Fixed.', 'Thanks.'];

/** Three OpenAI Chat requests of a growing conversation (no system prompt, no tools), each with its bill; `unrecorded`: what the capture says it does not record. */
function scenario(usage: Usage[], opens?: number, unrecorded?: string[]): string {
  const events = usage.map((m, i) => ({
    off: i + 1,
    t: `${i * 10}s`,
    type: 'request/sent',
    payload: {
      format: 'openai-chat',
      measured: m,
      ...(unrecorded && { unrecorded }),
      body: { model: 'test-priced', messages: msgs.slice(0, 2 * i + 1).map((content, k) => ({ role: k % 2 ? 'assistant' : 'user', content })) },
    },
  }));
  return JSON.stringify({ id: 'billed', title: 'Billed', fold: 'requests', ...(opens && { opens: `@${opens}` }), events });
}

async function run(usage: Usage[], opens?: number, unrecorded?: string[]) {
  const corpus = await renderTexts(
    [{ file: 'scenarios/billed.yaml', text: scenario(usage, opens, unrecorded) }],
    { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'requests', economics },
    { everyEvent: true },
  );
  expect(corpus.errors).toEqual([]);
  const r = corpus.scenarios[0]!;
  const econ = corpus.economics.get('billed')!;
  return { r, econ, billed: billedOf(r, econ, economics.profiles) };
}

const BILL: Usage[] = [
  { inputTokens: 1000, cachedTokens: 0, cacheWriteTokens: 990, outputTokens: 50 },
  { inputTokens: 1100, cachedTokens: 990, cacheWriteTokens: 100, outputTokens: 40 },
  // The previous request left 990 + 100 = 1,090 in the cache; this one reads none of it.
  { inputTokens: 1200, cachedTokens: 0, cacheWriteTokens: 1190, outputTokens: 30 },
];

describe('the bill of a capture', () => {
  it('totals, the bill priced, and each request’s miss', async () => {
    const { billed } = await run(BILL);
    expect(billed).not.toBeNull();
    const b = billed!;
    expect([b.inputTokens, b.cachedTokens, b.cacheWriteTokens, b.outputTokens]).toEqual([3300, 990, 2280, 120]);
    // Request 1: 10 uncached × 2 + 990 writes × 4 + 50 output × 10 = 20 + 3,960 + 500 = 4,480 → $0.00448
    // Request 2: 10 × 2 + 990 × 0.5 + 100 × 4 + 40 × 10 = 20 + 495 + 400 + 400 = 1,315 → $0.001315
    // Request 3: 10 × 2 + 1,190 × 4 + 30 × 10 = 20 + 4,760 + 300 = 5,080 → $0.00508
    expect(b.requests.map((q) => q.costUsd)).toEqual([0.00448, 0.001315, 0.00508]);
    expect(b.costUsd).toBeCloseTo(0.010875, 12);
    // Without caching: 3,300 × 2 + 120 × 10 = 6,600 + 1,200 = 7,800 → $0.0078
    expect(b.noCacheCostUsd).toBeCloseTo(0.0078, 12);
    expect(b.requests.map((q) => q.lostTokens)).toEqual([0, 0, 1090]);
    expect(b.worst?.offset).toBe(3);
    expect(billedPaneText(b.requests[1]!).text).toBe('billed: cached 990 · writes 100 · 1,100 tokens · output 40 · $0.00131');
  });

  it('writes the bill says were for an hour are priced at the 1-hour write price', async () => {
    const { billed } = await run([{ ...BILL[0]!, cacheWrite1hTokens: 600 }, ...BILL.slice(1)]);
    // Request 1: 10 × 2 + 390 five-minute writes × 4 + 600 one-hour writes × 6 + 50 × 10 = 20 + 1,560 + 3,600 + 500 = 5,680 → $0.00568
    expect(billed!.requests[0]!.costUsd).toBe(0.00568);
    expect(billedPaneText(billed!.requests[0]!).title).toContain('the 1-hour rate for the 600 the bill says were written for an hour');
    expect(billedPaneText(billed!.requests[1]!).title).toContain('Cache writes priced at the 5-minute rate.');
  });

  it('a figure not reported is not known: — and no cost, never $0.00', async () => {
    const { billed } = await run(BILL.map(({ outputTokens: _, ...m }, i) => (i === 1 ? { inputTokens: m.inputTokens } : m)));
    const b = billed!;
    expect([b.cachedTokens, b.cacheWriteTokens, b.outputTokens, b.costUsd]).toEqual([null, null, null, null]);
    expect(billedPaneText(b.requests[1]!).text).toBe('billed: cached — · writes — · 1,100 tokens · output — · cost —');
    // The economics table: a request whose output the model does not know shows — in the output column, never $0.00.
    const { econ } = await run(BILL);
    for (const [i, row] of panelRows(econ, () => 'request/sent').entries())
      expect(row.costs[3]).toEqual(econ.requests[i]!.outputTokens === null ? '—' : expect.stringMatching(/^≈?\$/));
    // Request 3 follows one whose cache figures are not known: no miss is claimed.
    expect(b.requests.map((q) => q.lostTokens)).toEqual([0, 0, 0]);
  });

  it('a model without a write price bills no writes: usage that reports none is priced (an OpenAI Responses or Codex bill)', async () => {
    const noWrites: Profile = { ...priced, id: 'no-writes', prices: { input: src(2), cachedInput: src(0.5), output: src(10) } } as Profile;
    const econ2: EconomicsConfig = { ...economics, profiles: { ...economics.profiles, 'no-writes': noWrites }, models: { ...economics.models, 'test-priced': 'no-writes' } };
    const usage: Usage[] = [
      { inputTokens: 1000, cachedTokens: 0, outputTokens: 50 },
      { inputTokens: 1100, cachedTokens: 990, outputTokens: 40 },
    ];
    const corpus = await renderTexts(
      [{ file: 'scenarios/billed.yaml', text: scenario(usage) }],
      { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'requests', economics: econ2 },
      { everyEvent: true },
    );
    expect(corpus.errors).toEqual([]);
    const b = billedOf(corpus.scenarios[0]!, corpus.economics.get('billed')!, econ2.profiles)!;
    // Request 1: 1,000 × 2 + 50 × 10 = 2,000 + 500 = 2,500 → $0.0025
    // Request 2: 110 × 2 + 990 × 0.5 + 40 × 10 = 220 + 495 + 400 = 1,115 → $0.001115
    expect(b.requests.map((q) => q.costUsd)).toEqual([0.0025, 0.001115]);
    expect(b.costUsd).toBeCloseTo(0.003615, 12);
    // The writes themselves stay unreported: — on the page, never 0.
    expect(b.cacheWriteTokens).toBeNull();
    expect(billedPaneText(b.requests[1]!).text).toBe('billed: cached 990 · writes — · 1,100 tokens · output 40 · $0.00112');
    // The same usage under a profile that prices writes: not known.
    const { billed } = await run(usage);
    expect([billed!.costUsd, ...billed!.requests.map((q) => q.costUsd)]).toEqual([null, null, null]);
  });

  it('the page leads with the bill, labels the model’s figures, says what the capture does not record and names the largest miss', async () => {
    const { billed, econ, r } = await run(BILL);
    const lede = (b: typeof billed, e: typeof econ, rr: typeof r) => billedText(billedLede(b, e, measuredComparison(rr, e)));
    const text = lede(billed, econ, r);
    expect(text).toContain(
      'Billed: what the provider’s usage reports for these 3 requests: 3,300 input tokens, 30 % of them read from the cache, 120 output tokens; $0.0109 ($0.0078 without caching).',
    );
    expect(text).toMatch(/^Modelled: what this page’s cache model computes from the requests as the capture holds them/m);
    expect(text).toContain('Largest miss: request 3 read 0 cached tokens where the request before it left 1,090 in the cache: 1,090 billed tokens not read.');
    // Each request holds a few dozen tokens of messages; the bill counts 1,000 and more. The capture says nothing is
    // unrecorded (the requests fold: each request whole), so the page does not invent a missing part: the count differs.
    const n = econ.requests[0]!.inputTokens;
    expect(n).toBeLessThan(100);
    expect(text).toContain(
      `Counted differently: the capture holds the requests whole, yet request 1 was billed 1,000 input tokens where the model counts ${n}; the comparison with the bill gives the likely reason, request by request.`,
    );
    expect(text).not.toContain('Not in the capture');
    // A difference the size of a framing (at most 128 tokens, or a tenth of the request) is not said at all: the table has it.
    const framed = await run(econ.requests.map((e, i) => ({ ...BILL[i]!, inputTokens: e.inputTokens + 100, cacheWriteTokens: 0, cachedTokens: 0 })));
    expect(lede(framed.billed, framed.econ, framed.r)).not.toMatch(/Counted differently|Approximate count|Not in the capture/);
    // A capture that says it does not record the system prompt and tools (a transcript): those are named, with the tokens.
    const lacking = await run(BILL, undefined, ['the system prompt', 'the tool definitions', MARKERS_UNRECORDED]);
    expect(lede(lacking.billed, lacking.econ, lacking.r)).toContain(
      `Not in the capture: this capture does not record the system prompt and the tool definitions: request 1 was billed 1,000 input tokens, of which the requests shown hold ${n} — ${1000 - n} billed tokens the page cannot show, and the model cannot see.`,
    );
    // A part named with code in it (`hook_progress`) is a code span on the page, not backticks in the text.
    const coded = await run(BILL, undefined, ['the context its hooks added (its `hook_progress` lines)']);
    const paragraph = billedLede(coded.billed, coded.econ, measuredComparison(coded.r, coded.econ)).find((p) => p.lead === 'Not in the capture')!;
    expect(paragraph.segments.slice(0, 3)).toEqual([
      { text: 'this capture does not record the context its hooks added (its ' },
      { text: 'hook_progress', code: true },
      { text: ' lines): ' },
    ]);
    expect(billedLede(null, econ, null)).toEqual([]);
    // This profile caches without being asked (a prefix cache): the model reads from the cache too, nothing to say.
    expect(econ.totals.cachedTokens).toBeGreaterThan(0);
    expect(text).not.toContain('Cache markers');
  });

  it('the page model marks each billed miss on its card and opens on the largest, unless the scenario names its opening', async () => {
    const { r, billed } = await run(BILL);
    const view = withBilledMisses(scenarioView(r), billed, false);
    expect(view.opens).toBe(3);
    expect(view.cards.map((c) => c.badges.filter((x) => x.includes('billed miss')))).toEqual([[], [], ['⚠ billed miss: 1,090 tokens not read']]);
    const named = await run(BILL, 2);
    expect(withBilledMisses(scenarioView(named.r), named.billed, true).opens).toBe(2);
  });
});

/**
 * The shape of a published VCR cassette of Bedrock's Converse API (pydantic-ai's
 * test_bedrock_cache_write_and_read): whole request bodies with `cachePoint` blocks, where the
 * provider wrote and then read 1,322 tokens while the model's ≈ count of the same bodies is about
 * half that, below Sonnet 4.5's 1,024-token minimum. Our own text in that shape.
 */
describe('the lede on a capture that holds its requests whole', () => {
  const SHOUTED = 'ANSWER WITH ONE NUMBER AND NOTHING ELSE, NEVER A SENTENCE.\n'.repeat(40);
  const body = (cachePoint: boolean) => ({
    modelId: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
    system: [{ text: SHOUTED }, ...(cachePoint ? [{ cachePoint: { type: 'default' } }] : [])],
    messages: [{ role: 'user', content: [{ text: 'What is 10 + 11?' }, ...(cachePoint ? [{ cachePoint: { type: 'default' } }] : [])] }],
  });
  const bills = [
    { inputTokens: 1324, cachedTokens: 0, cacheWriteTokens: 1322, outputTokens: 5 },
    { inputTokens: 1324, cachedTokens: 1322, cacheWriteTokens: 0, outputTokens: 5 },
  ];
  /** A `requests` scenario of these payloads, each sent at 0 ms, under the shipped profiles: its economics and the lede's text. */
  async function ledeOf(payloads: unknown[]) {
    const events = payloads.map((payload, i) => ({ off: i + 1, t: '0ms', type: 'request/sent', payload }));
    const corpus = await renderTexts(
      [{ file: 'scenarios/capture.yaml', text: JSON.stringify({ id: 'capture', title: 'Capture', fold: 'requests', events }) }],
      { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'requests', economics: DEFAULT_ECONOMICS },
      { everyEvent: true },
    );
    expect(corpus.errors).toEqual([]);
    const r = corpus.scenarios[0]!;
    const econ = corpus.economics.get('capture')!;
    return { econ, text: billedText(billedLede(billedOf(r, econ, DEFAULT_ECONOMICS.profiles), econ, measuredComparison(r, econ))) };
  }
  const lede = (cachePoint: boolean, unrecorded?: string[]) =>
    ledeOf(bills.map((measured) => ({ format: 'bedrock-converse', measured, ...(unrecorded && { unrecorded }), body: body(cachePoint) })));

  it('blames the approximate count and the minimum, not the capture: the markers are there and nothing is unrecorded', async () => {
    const { econ, text } = await lede(true);
    const n = econ.requests[0]!.inputTokens;
    // The case this covers: the model counts the marked prefix below the 1,024-token minimum and caches nothing.
    expect([econ.requests[0]!.exact, econ.requests[0]!.minPrefixTokens, econ.totals.cachedTokens]).toEqual([false, 1024, 0]);
    expect(n).toBeLessThan(1024);
    const scale = `${(1324 / n).toFixed(2)}×`;
    expect(text).toContain(
      `Approximate count: the capture holds the requests whole, and the provider counted ${scale} as many input tokens as this page’s approximate (≈) count: request 1 was billed 1,324 input tokens where the model counts ≈${n.toLocaleString('en-US')}. No offline tokenizer counts this model’s tokens exactly`,
    );
    expect(text).toContain(
      `Below the minimum by the model’s count: the bill shows the provider caching at request 1 and request 2, where the model counts every prefix the requests mark below the profile’s 1,024-token minimum and so caches nothing — the model’s approximate (≈) count is low here: the provider counted ${scale} as many input tokens`,
    );
    // What the old lede said of this capture, wrongly: tokens it "cannot show", and markers "not in the capture".
    expect(text).not.toContain('Not in the capture');
    expect(text).not.toContain('Cache markers not in the capture');
  });

  it('media the provider fetched by URL are what the capture lacks, not the tokenizer (a published Gemini cassette’s YouTube video)', async () => {
    const body = {
      model: 'gemini-2.5-flash',
      contents: [
        { role: 'user', parts: [{ text: 'Explain this video in a few sentences.' }, { fileData: { fileUri: 'https://m.youtube.com/watch?v=x', mimeType: 'video/mp4' } }] },
      ],
    };
    const { econ, text } = await ledeOf([{ format: 'gemini', measured: { inputTokens: 17713, cachedTokens: 0, outputTokens: 90 }, body }]);
    const n = econ.requests[0]!.inputTokens;
    expect(n).toBeLessThan(100);
    expect(text).toContain(
      `Not in the capture: this capture does not record the tokens of the media it sends (images, video, documents — inline as base64, or by URL or file id: billed by their pixels, seconds or pages, which the model does not count): request 1 was billed 17,713 input tokens, of which the requests shown hold about ${n} — about ${(17713 - n).toLocaleString('en-US')} billed tokens`,
    );
    expect(text).not.toContain('Approximate count');
  });

  it('a capture that records no markers, and one that lacks the system prompt, say so first', async () => {
    const unmarked = await lede(false, [MARKERS_UNRECORDED]);
    expect(unmarked.text).toContain(
      'Cache markers not in the capture: the provider read 1,322 tokens from the cache, so the requests it received asked for caching; the requests as captured carry no cache marker',
    );
    expect(unmarked.text).not.toContain('Below the minimum');
    // Markers aside, nothing is unrecorded: the count's difference is the tokenizer's.
    expect(unmarked.text).toContain('Approximate count:');
    const lacking = await lede(false, ['the system prompt', MARKERS_UNRECORDED]);
    const n = lacking.econ.requests[0]!.inputTokens;
    expect(lacking.text).toContain(
      `Not in the capture: this capture does not record the system prompt: request 1 was billed 1,324 input tokens, of which the requests shown hold about ${n.toLocaleString('en-US')} — about ${(1324 - n).toLocaleString('en-US')} billed tokens the page cannot show`,
    );
    expect(lacking.text).not.toContain('Approximate count');
  });
});
