/**
 * Automatic caching (Anthropic's top-level `cache_control`), end to end on a small conversation in
 * the shape an agent framework's recorded calls have (a VCR cassette of pydantic-ai's test suite:
 * `cache_control: {type: ephemeral, ttl: 5m}` beside `model`, a string `system`, text blocks), read
 * as the import stores it (`format: anthropic`, the response usage as `measured`). The prompt-caching
 * page (platform.claude.com/docs/en/build-with-claude/prompt-caching, read 2026-12-06): "the system
 * automatically applies the cache breakpoint to the last cacheable block and moves it forward as
 * conversations grow".
 *
 * Token counts by hand: `word word …` is one o200k token per word (checked in compute.test.ts); a
 * message adds 4 framing tokens and a request 3 reply-priming tokens after the last block. The bill
 * here is what the provider would bill on that count, so the comparison must agree on every figure.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { renderTexts } from '../corpus/check.ts';
import { formatError } from '../scenarios/errors.ts';
import { measuredComparison } from './measured.ts';
import { DEFAULT_ECONOMICS } from './profiles.ts';

const words = (n: number, w: string): string => w + ` ${w}`.repeat(n - 1);
const AUTO = { ttl: '5m', type: 'ephemeral' };
const text = (t: string) => [{ text: t, type: 'text' }];

// System 1,100 + 4; the question 100 + 4; the reply 50 + 4; the follow-up 20 + 4; priming 3.
const SYSTEM = 1104;
const QUESTION = 104;
const REPLY = 54;
const FOLLOW = 24;
const PRIMING = 3;

function body(turns: { role: string; content: unknown }[]) {
  return { cache_control: AUTO, max_tokens: 4096, messages: turns, model: 'claude-sonnet-4-5', stream: false, system: words(1100, 'word') };
}
const first = [{ role: 'user', content: text(words(100, 'alpha')) }];
const second = [...first, { role: 'assistant', content: text(words(50, 'beta')) }, { role: 'user', content: text(words(20, 'note')) }];

// The bill: @1 writes everything up to its last block; @2 reads that entry and writes what it adds.
const BILL = [
  { inputTokens: SYSTEM + QUESTION + PRIMING, cachedTokens: 0, cacheWriteTokens: SYSTEM + QUESTION, outputTokens: 50 },
  { inputTokens: SYSTEM + QUESTION + REPLY + FOLLOW + PRIMING, cachedTokens: SYSTEM + QUESTION, cacheWriteTokens: REPLY + FOLLOW, outputTokens: 9 },
];

function scenario(bill: unknown[]): string {
  const events = [first, second].map((turns, i) => {
    const payload = { format: 'anthropic', measured: bill[i], body: body(turns) };
    return `  - off: ${i + 1}\n    t: ${i * 10}s\n    type: request/sent\n    payload: ${JSON.stringify(payload)}\n`;
  });
  return `id: auto\ntitle: automatic caching\nfold: requests\nevents:\n${events.join('')}`;
}

const render = async (bill: unknown[]) => {
  const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol', economics: DEFAULT_ECONOMICS };
  const r = await renderTexts([{ file: 'scenarios/auto.yaml', text: scenario(bill) }], config, { everyEvent: false });
  expect(r.errors.map(formatError)).toEqual([]);
  return { r: r.scenarios[0]!, econ: r.economics.get('auto')! };
};

describe('automatic caching (a top-level cache_control) against the bill', () => {
  it('one breakpoint on the last block, moving forward: @1 writes its whole prompt, @2 reads it and writes what it adds', async () => {
    const { r, econ } = await render(BILL);
    expect(econ.requests.map((e) => [e.inputTokens, e.cachedTokens, e.cacheWriteTokens])).toEqual([
      [1211, 0, 1208],
      [1289, 1208, 78],
    ]);
    const m = measuredComparison(r, econ)!;
    expect(m.requests.map((q) => [q.flagged, q.figures.cachedTokens.diff, q.figures.cacheWriteTokens.diff])).toEqual([
      [[], 0, 0],
      [[], 0, 0],
    ]);
    expect(econ.unasked).toBeUndefined();
  });

  it('a capture whose first request reads an entry written before it: explained by what the capture lacks, not a minimum', async () => {
    // The same calls recorded again within five minutes: @1 now reads what the earlier recording wrote.
    const bill = [{ ...BILL[0]!, cachedTokens: SYSTEM + QUESTION, cacheWriteTokens: 0 }, BILL[1]];
    const { r, econ } = await render(bill);
    const q = measuredComparison(r, econ)!.requests[0]!;
    expect(q.flagged).toEqual(['cachedTokens', 'cacheWriteTokens']);
    expect(q.reason?.kind).toBe('before-capture');
    expect(q.reason?.text).toMatch(/^the provider read 1,208 cached tokens on the first request of this conversation in the capture: an entry written before the capture began/);
  });
});

describe('a ≈ count whose parts scale differently (the shape of a published Anthropic cassette: a tool of 4,602 billed tokens under a 147-token tail the model counts as 12)', () => {
  // The provider counts the cached part 1.25× our count and the tail after the last block far longer: the whole input 1.35×.
  const entry = Math.round((SYSTEM + QUESTION) * 1.25); // 1,510
  const tail = 120;
  const added = Math.round((REPLY + FOLLOW) * 1.25); // 98
  const bill = [
    { inputTokens: entry + tail, cachedTokens: 0, cacheWriteTokens: entry, outputTokens: 50 },
    { inputTokens: entry + added + tail, cachedTokens: entry, cacheWriteTokens: added, outputTokens: 9 },
  ];

  it('a full hit is compared on the scale of the entry it reads, not of the whole previous input: it agrees, and no eviction is said', async () => {
    const { r, econ } = await render(bill);
    const q = measuredComparison(r, econ)!.requests[1]!;
    // The entry @1 left: 1,510 billed of 1,208 modelled.
    expect(q.cachedScale).toBeCloseTo(entry / (SYSTEM + QUESTION), 10);
    expect(q.figures.cachedTokens).toMatchObject({ measured: entry, compared: entry, diff: 0, within: true });
    expect(q.reason?.kind).not.toBe('eviction');
  });

  it('a write short by what the one scale misplaces is the ≈ count, not "a breakpoint the provider did not honour"; a write of nothing still is', async () => {
    const { r, econ } = await render(bill);
    const first = measuredComparison(r, econ)!.requests[0]!;
    expect(first.flagged).toEqual(['cacheWriteTokens']);
    expect(first.reason?.kind).toBe('framing');
    expect(first.reason?.text).toMatch(
      /^the ≈ count: the provider wrote 1,510 tokens to the cache where the model, put on the provider's scale \(1\.35× for the whole request\), writes ≈1,626 — /,
    );
    const dropped = await render([{ ...bill[0]!, cacheWriteTokens: 0 }, bill[1]!]);
    expect(measuredComparison(dropped.r, dropped.econ)!.requests[0]!.reason?.kind).toBe('fewer-writes');
  });
});

describe('a request that sends an image inline (its tokens the model does not count)', () => {
  it('the bill beyond the count is said to be the media’s, first — never "a breakpoint the trace did not carry"', async () => {
    // @2's follow-up carries a PNG as base64 (4,000 characters): the provider bills its pixels (say 600 tokens) and caches them with the rest.
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo'.repeat(364) } };
    const withImage = [...first, { role: 'assistant', content: text(words(50, 'beta')) }, { role: 'user', content: [...text(words(20, 'note')), image] }];
    const events = [first, withImage].map((turns, i) => {
      const bill = i === 0 ? BILL[0] : { ...BILL[1], inputTokens: BILL[1]!.inputTokens + 600, cacheWriteTokens: BILL[1]!.cacheWriteTokens + 600 };
      return `  - off: ${i + 1}\n    t: ${i * 10}s\n    type: request/sent\n    payload: ${JSON.stringify({ format: 'anthropic', measured: bill, body: body(turns) })}\n`;
    });
    const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol', economics: DEFAULT_ECONOMICS };
    const r = await renderTexts([{ file: 'scenarios/img.yaml', text: `id: img\ntitle: image\nfold: requests\nevents:\n${events.join('')}` }], config, { everyEvent: false });
    expect(r.errors.map(formatError)).toEqual([]);
    const econ = r.economics.get('img')!;
    expect(econ.requests.map((e) => e.media ?? false)).toEqual([false, true]);
    const q = measuredComparison(r.scenarios[0]!, econ)!.requests[1]!;
    expect(q.reason?.kind).toBe('unrecorded');
    expect(q.reason?.text).toMatch(
      /^[\d,]+ billed input tokens the capture does not show: it does not record the tokens of the media it sends \(images, video, documents — inline as base64, or by URL or file id/,
    );
    // The base64 is not counted as text: the request is a few tokens longer than the one without the image, not thousands.
    expect(econ.requests[1]!.inputTokens - (SYSTEM + QUESTION + REPLY + FOLLOW + PRIMING)).toBeLessThan(60);
  });
});
