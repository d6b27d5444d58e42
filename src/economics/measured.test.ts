/**
 * Measured beside modelled (measured.ts): the comparison of what a provider billed with the model,
 * its flags and likely reasons, the per-scenario line, the report's fields and
 * `expect.maxMeasuredDiff` failing the corpus check at its entry. Profiles are the test's own
 * (simple, documented rules), and every measured figure is derived in the test from the model's
 * output plus a known disturbance — so each expected difference is known independently of the
 * comparison code.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { renderTexts } from '../corpus/check.ts';
import { formatError } from '../scenarios/errors.ts';
import { DEFAULT_ECONOMICS, type EconomicsConfig } from './profiles.ts';
import type { Profile } from './shipped-profiles.ts';
import { measuredComparison, measuredLines } from './measured.ts';
import { buildReport } from './report.ts';

const src = <T>(value: T) => ({ value, source: 'measured.test.ts', read: '2026-12-02' });
const profile = (id: string, over: Partial<Profile> = {}): Profile =>
  ({
    id,
    title: id,
    tokenizer: 'o200k_base',
    cache: 'openai-prefix',
    minPrefixTokens: src(0),
    stepTokens: src(1),
    retentionMinutes: src(10),
    refreshOnHit: src(true),
    prices: {},
    ...over,
  }) as Profile;
const economics: EconomicsConfig = {
  profiles: {
    ...DEFAULT_ECONOMICS.profiles,
    exact: profile('exact'),
    approx: profile('approx', { tokenizer: 'approx' }),
    minimum: profile('minimum', { minPrefixTokens: src(100_000) }),
  },
  models: { ...DEFAULT_ECONOMICS.models, 'test-exact': 'exact', 'test-approx': 'approx', 'test-minimum': 'minimum' },
  families: DEFAULT_ECONOMICS.families,
  prefixes: DEFAULT_ECONOMICS.prefixes,
};
const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol', economics };

type M = { inputTokens: number; cachedTokens?: number; cacheWriteTokens?: number } | undefined;
const SYSTEM = 'You are a careful assistant. Read the repository before you change it, and say what you did. '.repeat(20);
const turns = [
  [{ role: 'user', content: 'Find the failing test.' }],
  [
    { role: 'assistant', content: 'It is run.test.ts.' },
    { role: 'user', content: 'Fix it.' },
  ],
  [
    { role: 'assistant', content: 'Fixed: the total is summed in cents.' },
    { role: 'user', content: 'Thanks.' },
  ],
];

function scenario(model: string, measured: M[] = [], times = ['0ms', '10s', '3m'], expectBlock = 'expect:\n  busts: []\n', unrecorded?: string[]): string {
  const messages: unknown[] = [{ role: 'system', content: SYSTEM }];
  const events = turns.map((t, i) => {
    messages.push(...t);
    const m = measured[i];
    const payload = { format: 'openai-chat', ...(m && { measured: m }), ...(unrecorded && { unrecorded }), body: { model, messages: [...messages] } };
    return `  - off: ${i + 1}\n    t: ${times[i]}\n    type: request/sent\n    payload: ${JSON.stringify(payload)}\n`;
  });
  return `id: m\ntitle: measured\nfold: requests\n${expectBlock}events:\n${events.join('')}`;
}

/** A count as the page writes it: grouped by thousands, `≈` before a count of an approximate model. */
const fmt = (n: number, exact: boolean): string => `${exact ? '' : '≈'}${n.toLocaleString('en-US')}`;
const render = async (text: string) => await renderTexts([{ file: 'scenarios/m.yaml', text }], config, { everyEvent: false });
/** The model's own figures for a scenario (no measured figures involved). */
const modelled = async (model: string, times?: string[]) => {
  const r = await render(scenario(model, [], times));
  expect(r.errors.map(formatError)).toEqual([]);
  return r.economics.get('m')!.requests;
};
const compare = async (model: string, measured: M[], times?: string[]) => {
  const r = await render(scenario(model, measured, times));
  expect(r.errors.map(formatError)).toEqual([]);
  return measuredComparison(r.scenarios[0]!, r.economics.get('m')!)!;
};
const exactly = (e: { inputTokens: number; cachedTokens: number; cacheWriteTokens: number }): M => ({
  inputTokens: e.inputTokens,
  cachedTokens: e.cachedTokens,
  cacheWriteTokens: e.cacheWriteTokens,
});

describe('measured beside modelled', () => {
  it('a bill equal to the model: every figure within tolerance, differences 0, the summary line counts them', async () => {
    const mod = await modelled('test-exact');
    expect(mod[1]!.cachedTokens).toBeGreaterThan(0);
    const m = await compare('test-exact', mod.map(exactly));
    expect(m.requests.map((q) => [q.offset, q.flagged, q.reason, q.scale])).toEqual([
      [1, [], null, null],
      [2, [], null, null],
      [3, [], null, null],
    ]);
    expect(m.requests.map((q) => q.figures.cachedTokens.diff)).toEqual([0, 0, 0]);
    expect(m.summary).toBe(
      'the model agrees with the bill on 3 of 3 requests (every figure within 2 %); by figure: modelled cached tokens within 2 % of measured on 3 of 3 requests; cache writes within 2 % of measured on 3 of 3 requests; input tokens within 2 % of measured on 3 of 3 requests',
    );
  });

  it('an eviction before the documented retention: cached flagged, with the idle time and the retention', async () => {
    const mod = await modelled('test-exact');
    const bill = mod.map(exactly);
    bill[2] = { inputTokens: mod[2]!.inputTokens, cachedTokens: 0, cacheWriteTokens: 0 };
    const m = await compare('test-exact', bill);
    const q = m.requests[2]!;
    expect(q.flagged).toEqual(['cachedTokens']);
    expect(q.figures.cachedTokens).toMatchObject({ measured: 0, modelled: mod[2]!.cachedTokens, diff: -mod[2]!.cachedTokens, within: false });
    expect(q.reason!.kind).toBe('eviction');
    // @3 is sent at 3m, @2 at 10s: idle 2m 50s, inside the profile's 10-minute retention.
    expect(q.reason!.text).toContain('idle 2m 50s since @2; documented retention 10 min');
    // The bytes are the same and the entry inside its retention: nothing in the request to change.
    expect(q.reason!.text).toMatch(/provider-side, not actionable$/);
    // The lead counts requests as the table does (one flagged figure: the request differs).
    expect(m.summary).toMatch(
      /^the model agrees with the bill on 2 of 3 requests \(every figure within 2 %\); by figure: modelled cached tokens within 2 % of measured on 2 of 3 requests;/,
    );
    expect(measuredLines(m).at(-1)).toMatch(/^ {2}@3 .* — DIFFERS \(cachedTokens\): eviction before the documented retention/);
  });

  it('fewer cached tokens by no more than the bill counts fewer input tokens: the framing, not an eviction; more than that still an eviction', async () => {
    const mod = await modelled('test-exact');
    const bill = mod.map(exactly);
    // As a published OpenAI cassette bills: the provider counts 60 input tokens fewer than our framing, and its cached prefix is 60 shorter.
    bill[2] = { inputTokens: mod[2]!.inputTokens - 60, cachedTokens: mod[2]!.cachedTokens - 60, cacheWriteTokens: mod[2]!.cacheWriteTokens };
    const q = (await compare('test-exact', bill)).requests[2]!;
    expect(q.flagged).toContain('cachedTokens');
    expect(q.reason).toEqual({
      kind: 'framing',
      text: `the provider read ${fmt(mod[2]!.cachedTokens - 60, true)} cached tokens where the model reads ${fmt(mod[2]!.cachedTokens, true)}: 60 fewer, no more than the 60 input tokens it counts fewer than our chat framing of the same messages — the same prefix, counted shorter, not an eviction`,
    });
    // 200 fewer cached tokens where the input counts 60 fewer: 140 the framing does not explain — an eviction, as before.
    bill[2] = { inputTokens: mod[2]!.inputTokens - 60, cachedTokens: mod[2]!.cachedTokens - 200, cacheWriteTokens: mod[2]!.cacheWriteTokens };
    expect((await compare('test-exact', bill)).requests[2]!.reason!.kind).toBe('eviction');
  });
  it('tolerance: 2 % of the measured figure (or 1 token) is within, a little more is flagged', async () => {
    const mod = await modelled('test-exact');
    const c = mod[1]!.cachedTokens;
    const inside = Math.floor(0.02 * (c + 1));
    const at = async (delta: number) => (await compare('test-exact', [exactly(mod[0]!), { ...exactly(mod[1]!), cachedTokens: c + delta } as M, exactly(mod[2]!)])).requests[1]!;
    expect((await at(inside)).flagged).toEqual([]);
    expect((await at(Math.ceil(0.03 * c) + 1)).flagged).toEqual(['cachedTokens']);
  });

  it('≈ models: the tokenizer is a scale — a bill 1.3× the count everywhere agrees; input is shown, never flagged', async () => {
    const mod = await modelled('test-approx');
    const bill = mod.map((e) => ({ inputTokens: Math.round(e.inputTokens * 1.3), cachedTokens: Math.round(e.cachedTokens * 1.3), cacheWriteTokens: 0 }));
    const m = await compare('test-approx', bill);
    expect(m.exact).toBe(false);
    for (const [i, q] of m.requests.entries()) {
      expect(q.scale).toBeCloseTo(bill[i]!.inputTokens / mod[i]!.inputTokens, 10);
      expect(q.flagged).toEqual([]);
      expect(q.figures.inputTokens.diff).toBe(bill[i]!.inputTokens - mod[i]!.inputTokens);
      expect(q.figures.inputTokens.within).toBeNull();
      expect(Math.abs(q.figures.cachedTokens.diff!)).toBeLessThanOrEqual(1);
    }
    expect(m.summary).toMatch(/ \(every judged figure within 2 %\);/);
    expect(m.summary).toMatch(/\(≈ model: input tokens are not judged — the provider billed 1\.30× the model’s count; cached tokens compared on the provider’s token scale\)$/);
    expect(m.summary).not.toContain('input tokens within');
    // A bill far from the count is not hidden behind "agrees": the summary gives the ratio (here a quarter, as on a published cassette).
    const quarter = await compare(
      'test-approx',
      mod.map((e) => ({ inputTokens: Math.round(e.inputTokens / 4), cachedTokens: Math.round(e.cachedTokens / 4), cacheWriteTokens: 0 })),
    );
    expect(quarter.summary).toContain('input tokens are not judged — the provider billed 0.25× the model’s count;');
  });

  it('the provider kept an entry past the retention the model applies: retained-longer', async () => {
    const times = ['0ms', '10s', '25m'];
    const mod = await modelled('test-exact', times);
    expect(mod[2]!.cachedTokens).toBe(0); // idle 24m 50s > 10 min: the model expires it
    const bill = mod.map(exactly);
    bill[2] = { inputTokens: mod[2]!.inputTokens, cachedTokens: mod[1]!.inputTokens - 3, cacheWriteTokens: 0 };
    const q = (await compare('test-exact', bill, times)).requests[2]!;
    expect(q.reason).toMatchObject({ kind: 'retained-longer' });
    expect(q.reason!.text).toContain('idle 24m 50s since @2');
  });

  it('more cached than the model: below the profile minimum, or a breakpoint the trace did not carry; more writes; a different framing', async () => {
    const min = await modelled('test-minimum');
    expect(min[1]!.cachedTokens).toBe(0);
    const b1 = min.map(exactly);
    b1[1] = { ...b1[1]!, cachedTokens: 400 } as M;
    expect((await compare('test-minimum', b1)).requests[1]!.reason).toMatchObject({ kind: 'below-minimum' });
    // A write at breakpoints the request carries, below the minimum on the model's count: said so, not "a breakpoint the trace did not carry"
    // (a published Bedrock Converse cassette: cachePoints at ≈637 tokens, 1,322 written, Sonnet 4.5's minimum 1,024).
    const converse = {
      modelId: 'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
      system: [{ text: SYSTEM }, { cachePoint: { type: 'default' } }],
      messages: [{ role: 'user', content: [{ text: 'Find the failing test.' }] }],
    };
    const payload = { format: 'bedrock-converse', measured: { inputTokens: 1324, cachedTokens: 0, cacheWriteTokens: 1322 }, body: converse };
    const cw = await render(`id: m\ntitle: measured\nfold: requests\nevents:\n  - off: 1\n    t: 0ms\n    type: request/sent\n    payload: ${JSON.stringify(payload)}\n`);
    expect(cw.errors.map(formatError)).toEqual([]);
    const bw = measuredComparison(cw.scenarios[0]!, cw.economics.get('m')!)!.requests[0]!;
    expect([bw.flagged, bw.reason?.kind, bw.figures.cacheWriteTokens.modelled]).toEqual([['cacheWriteTokens'], 'below-minimum', 0]);
    expect(bw.reason!.text).toMatch(
      /^the provider wrote 1,322 tokens to the cache at breakpoints the model counts below the profile's 1,024-token minimum \([\d,]+ at the last\) — the ≈ count may be low$/,
    );

    const mod = await modelled('test-exact');
    const b2 = mod.map(exactly);
    // The provider counts 40 tokens more from @1 on, and @2 reads all of @1 as billed: an entry the capture's own @1 could have written.
    b2[0] = { ...b2[0]!, inputTokens: mod[0]!.inputTokens + 40 } as M;
    b2[1] = { ...b2[1]!, inputTokens: mod[1]!.inputTokens + 40, cachedTokens: mod[1]!.cachedTokens + 40 } as M;
    expect(mod[1]!.cachedTokens).toBe(mod[0]!.inputTokens);
    const u = (await compare('test-exact', b2)).requests[1]!;
    expect([u.flagged, u.reason?.kind]).toEqual([['inputTokens', 'cachedTokens'], 'unmarked-breakpoint']);

    const b3 = mod.map(exactly);
    b3[0] = { ...b3[0]!, cacheWriteTokens: 200 } as M;
    const w = (await compare('test-exact', b3)).requests[0]!;
    expect([w.flagged, w.reason?.kind, w.figures.cacheWriteTokens.diff]).toEqual([['cacheWriteTokens'], 'unmarked-breakpoint', 200]);

    const b4 = mod.map(exactly);
    b4[0] = { ...b4[0]!, inputTokens: mod[0]!.inputTokens + 100 } as M;
    const f = (await compare('test-exact', b4)).requests[0]!;
    expect([f.flagged, f.reason?.kind]).toEqual([['inputTokens'], 'framing']);
    expect(f.reason!.text).toContain('the provider counts 100 input tokens more than our chat framing');
    // Past a framing's size (128 tokens or a tenth of the request) it is not called one: a published
    // Codex rollout's bill was 109,176 below the model's 262,298.
    const b5 = mod.map(exactly);
    const fewer = Math.floor(mod[0]!.inputTokens * 0.6);
    expect(fewer, 'the test request is large enough for the case').toBeGreaterThan(128);
    b5[0] = { ...b5[0]!, inputTokens: mod[0]!.inputTokens - fewer } as M;
    const big = (await compare('test-exact', b5)).requests[0]!;
    expect(big.reason?.kind).toBe('framing');
    expect(big.reason!.text).toBe(
      `the provider counts ${fewer.toLocaleString('en-US')} input tokens fewer than the model's count of the same messages — more than a framing differs by: part of what the capture holds was not billed as input — reasoning items the provider drops from earlier turns, for instance — or the model counts it differently`,
    );
  });

  it('an entry written before the capture: the first request reads, or a later one reads more than any earlier request sent', async () => {
    const mod = await modelled('test-exact');
    const first = mod.map(exactly);
    first[0] = { inputTokens: mod[0]!.inputTokens, cachedTokens: 300, cacheWriteTokens: 0 };
    const q = (await compare('test-exact', first)).requests[0]!;
    expect([q.flagged, q.reason?.kind]).toEqual([['cachedTokens'], 'before-capture']);
    expect(q.reason!.text).toBe(
      'the provider read 300 cached tokens on the first request of this conversation in the capture: an entry written before the capture began, by a request the capture does not hold; the model starts the capture with an empty cache',
    );
    // @2 reads 10 tokens more than @1 (the largest request before it) sent — beyond the 2 % tolerance, within its own input.
    const later = mod.map(exactly);
    expect(10).toBeGreaterThan(0.02 * (mod[0]!.inputTokens + 10));
    expect(mod[1]!.inputTokens).toBeGreaterThanOrEqual(mod[0]!.inputTokens + 10);
    later[1] = { ...later[1]!, cachedTokens: mod[0]!.inputTokens + 10 } as M;
    const l = (await compare('test-exact', later)).requests[1]!;
    expect(l.reason?.kind).toBe('before-capture');
    expect(l.reason!.text).toContain(`more than any earlier request of the capture sent (at most ${mod[0]!.inputTokens})`);
  });

  it('≈ models: cached tokens on the scale of the previous request, whose prefix they are', async () => {
    const mod = await modelled('test-approx');
    // The provider counts @1 at 0.9× our count, and @2's new text at 1.5×: one scale for @2 would misplace its cached part.
    const c = mod[1]!.cachedTokens;
    const n = mod[1]!.inputTokens - c;
    const bill: M[] = [
      { inputTokens: Math.round(mod[0]!.inputTokens * 0.9), cachedTokens: 0, cacheWriteTokens: 0 },
      { inputTokens: Math.round(c * 0.9) + Math.round(n * 1.5), cachedTokens: Math.round(c * 0.9), cacheWriteTokens: 0 },
    ];
    const q = (await compare('test-approx', bill)).requests[1]!;
    expect(q.cachedScale).toBeCloseTo(bill[0]!.inputTokens / mod[0]!.inputTokens, 10);
    expect(q.figures.cachedTokens.compared).toBe(Math.round(c * q.cachedScale!));
    expect(Math.abs(q.figures.cachedTokens.diff!)).toBeLessThanOrEqual(1);
    expect(q.flagged).toEqual([]);
  });

  it('figures the provider did not report are not judged; requests without usage are left out; none → no comparison', async () => {
    const mod = await modelled('test-exact');
    const m = await compare('test-exact', [{ inputTokens: mod[0]!.inputTokens }, undefined, exactly(mod[2]!)]);
    expect(m.requests.map((q) => q.offset)).toEqual([1, 3]);
    expect(m.ownRequests).toBe(3);
    expect(m.requests[0]!.figures.cachedTokens).toMatchObject({ measured: null, diff: null, within: null });
    expect(m.agreement.cachedTokens).toEqual({ within: 1, judged: 1 });
    const none = await render(scenario('test-exact'));
    expect(measuredComparison(none.scenarios[0]!, none.economics.get('m')!)).toBeNull();
  });

  it('the JSON report carries measured and the differences on each request (null without usage)', async () => {
    const mod = await modelled('test-exact');
    const bill = [exactly(mod[0]!), undefined, { ...exactly(mod[2]!), cachedTokens: 0 } as M];
    const report = buildReport(await render(scenario('test-exact', bill)));
    const reqs = report.scenarios[0]!.requests;
    expect(reqs[0]!.measured).toEqual(bill[0]);
    expect(reqs[0]!.measuredDiff).toMatchObject({ inputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, scale: null, flagged: [], reason: null });
    expect([reqs[1]!.measured, reqs[1]!.measuredDiff]).toEqual([null, null]);
    expect(reqs[2]!.measuredDiff).toMatchObject({ cachedTokens: -mod[2]!.cachedTokens, flagged: ['cachedTokens'], reason: { kind: 'eviction' } });
    expect(report.scenarios[0]!.measuredSummary).toMatch(/on 1 of 2 requests/);
  });
});

describe('what the capture lacks, before the provider is blamed', () => {
  const LACKS = ['the system prompt', 'the tool definitions'];
  const lacking = async (model: string, measured: M[], times?: string[]) => {
    const r = await render(scenario(model, measured, times, '', LACKS));
    expect(r.errors.map(formatError)).toEqual([]);
    return measuredComparison(r.scenarios[0]!, r.economics.get('m')!)!;
  };

  it('a capture without the system prompt and tools: the 1,000 billed tokens it does not show lead every reason, nothing is scaled, and a read far below what the capture holds is said after them', async () => {
    for (const model of ['test-exact', 'test-approx']) {
      const mod = await modelled(model);
      // The provider billed 1,000 tokens more on every request (the unrecorded system prompt and tools), read from the cache from the second on.
      const bill: M[] = mod.map((e, i) => ({ inputTokens: e.inputTokens + 1000, cachedTokens: i ? e.cachedTokens + 1000 : 0, cacheWriteTokens: e.cacheWriteTokens }));
      // …and the third request read nothing: a difference an eviction would explain in a whole capture, and a change in the parts it lacks in this one.
      bill[2] = { inputTokens: mod[2]!.inputTokens + 1000, cachedTokens: 0, cacheWriteTokens: 0 };
      const m = await lacking(model, bill);
      expect(m.requests.map((q) => q.scale)).toEqual([null, null, null]);
      expect(m.requests.map((q) => q.unseenTokens)).toEqual([1000, 1000, 1000]);
      for (const q of m.requests.filter((x) => x.flagged.length)) {
        expect(q.reason!.kind).toBe('unrecorded');
        expect(q.reason!.text).toMatch(/^1,000 billed input tokens the capture does not show: it does not record the system prompt and the tool definitions/);
      }
      expect(m.requests[2]!.flagged).toContain('cachedTokens');
      // …but the lack leads, and the read below the model's count of what the capture holds is said after it, with both causes it can have.
      const third = m.requests[2]!.reason!.text;
      const held = m.requests[2]!.figures.cachedTokens.compared;
      expect(third).toContain(
        `. Beyond that, the provider read 0 cached tokens where the model reads ${fmt(held, model === 'test-exact')} of what the capture holds — ${fmt(held, model === 'test-exact')} fewer, which the parts it lacks cannot explain unless they changed: either the system prompt and the tool definitions changed since @2, or the provider dropped the entry before its time (idle 2m 50s since @2; documented retention 10 min)`,
      );
      expect(m.summary).toMatch(/^3,000 billed input tokens the capture does not show \(it does not record the system prompt and the tool definitions\), on 3 of 3 requests; /);
      expect(m.summary).not.toContain('token scale');
    }
  });

  it('a capture without the tools whose bill still counts fewer input tokens than the model: the parts it lacks, and the smaller count, never "0 billed tokens the capture does not show"', async () => {
    const mod = await modelled('test-exact');
    // As a published Codex rollout bills: input tokens below the model's count (30 here), and a cached figure that differs from the model's.
    const bill: M[] = mod.map((e, i) => ({ inputTokens: e.inputTokens - 30, cachedTokens: i ? Math.max(0, e.cachedTokens - 40) : 0, cacheWriteTokens: 0 }));
    const m = await lacking('test-exact', bill);
    expect(m.requests.map((q) => q.unseenTokens)).toEqual([0, 0, 0]);
    // The summary says what the capture lacks too, never "0 billed input tokens the capture does not show".
    expect(m.summary).toMatch(/^the capture does not record the system prompt and the tool definitions, which the provider billed with the rest, on 3 of 3 requests; /);
    const flagged = m.requests.filter((x) => x.flagged.length);
    expect(flagged.length).toBeGreaterThan(0);
    for (const q of flagged) {
      expect(q.reason!.kind).toBe('unrecorded');
      expect(q.reason!.text).toBe(
        "the capture is not the whole request: it does not record the system prompt and the tool definitions, which the provider received, billed and cached with the rest; the model prices only what the capture holds, so its cached and written figures cannot match the bill (the provider counts 30 input tokens fewer than the model's count of what the capture holds: its framing differs)",
      );
    }
    // A read as far below the model's as the bill's input count is below it: the smaller count explains it, so no "Beyond that" (the same rollout from @44 on).
    const shifted: M[] = mod.map((e, i) => ({ inputTokens: e.inputTokens - 200, cachedTokens: i ? Math.max(0, e.cachedTokens - 200) : 0, cacheWriteTokens: 0 }));
    expect(mod[2]!.cachedTokens).toBeGreaterThan(400);
    const s = await lacking('test-exact', shifted);
    expect(s.requests[2]!.flagged).toContain('cachedTokens');
    expect(s.requests[2]!.reason!.text).not.toContain('Beyond that');
    // …and one 200 tokens further below is said, with the part the count explains.
    shifted[2] = { inputTokens: mod[2]!.inputTokens - 200, cachedTokens: mod[2]!.cachedTokens - 400, cacheWriteTokens: 0 };
    const t = (await lacking('test-exact', shifted)).requests[2]!.reason!.text;
    expect(t).toContain(`— 400 fewer (the provider's smaller input count explains 200 of them), which the parts it lacks cannot explain unless they changed`);
    // Past a framing's size (a published Codex rollout: ~32,000 below the model from @43 on), the smaller bill leads: what the capture lacks could only add to it.
    const far: M[] = mod.map((e) => ({ inputTokens: Math.floor(e.inputTokens * 0.4), cachedTokens: 0, cacheWriteTokens: 0 }));
    const q = (await lacking('test-exact', far)).requests[0]!;
    expect(q.reason!.kind).toBe('unrecorded');
    expect(q.reason!.text).toMatch(
      /^the provider counts [\d,]+ input tokens fewer than the model's count of what the capture holds — more than a framing differs by: part of what the capture holds was not billed as input — reasoning items the provider drops from earlier turns, for instance — or the model counts it differently; the capture also lacks parts of the request: it does not record the system prompt and the tool definitions, /,
    );
  });

  it('a capture without timestamps: no claim rests on time (never "eviction (idle 0 ms)")', async () => {
    const times = ['0ms', '0ms', '0ms'];
    const mod = await modelled('test-exact', times);
    expect(mod[2]!.cachedTokens).toBeGreaterThan(0);
    const bill = mod.map(exactly);
    bill[2] = { inputTokens: mod[2]!.inputTokens, cachedTokens: 0, cacheWriteTokens: 0 };
    const m = await compare('test-exact', bill, times);
    const q = m.requests[2]!;
    expect(q.reason).toEqual({
      kind: 'untimed',
      text: `the provider read 0 cached tokens where the model reads ${mod[2]!.cachedTokens.toLocaleString('en-US')}; the capture has no timestamps, so whether an entry outlived its retention cannot be told`,
    });
    expect(measuredLines(m).join('\n')).not.toMatch(/idle|eviction/);
  });
});

describe('expect.maxMeasuredDiff', () => {
  const withExpect = async (block: string, bill: M[]) => await render(scenario('test-exact', bill, undefined, `expect:\n  busts: []\n  maxMeasuredDiff: ${block}\n`));
  const evicted = async (): Promise<M[]> => {
    const mod = await modelled('test-exact');
    return [exactly(mod[0]!), exactly(mod[1]!), { inputTokens: mod[2]!.inputTokens, cachedTokens: 0, cacheWriteTokens: 0 }];
  };

  it('passes when every difference is within the limits (percent or tokens)', async () => {
    const mod = await modelled('test-exact');
    expect((await withExpect('{cachedTokens: "2%", inputTokens: 0}', mod.map(exactly))).errors).toEqual([]);
    expect((await withExpect(`{cachedTokens: ${mod[2]!.cachedTokens}}`, await evicted())).errors).toEqual([]);
  });

  it('a difference beyond the limit fails the check at the limit entry, with the request, the reason and the fix', async () => {
    const mod = await modelled('test-exact');
    const r = await withExpect('{cachedTokens: "2%"}', await evicted());
    const c = mod[2]!.cachedTokens;
    expect(r.errors.map(formatError)).toEqual([
      `scenarios/m.yaml:6:35 error: request @3: measured cachedTokens 0, modelled ${c.toLocaleString('en-US')} — a difference of −${c.toLocaleString('en-US')}, more than expect.maxMeasuredDiff.cachedTokens 2%; likely reason: ${
        measuredComparison(r.scenarios[0]!, r.economics.get('m')!)!.requests[2]!.reason!.text
      }\n  fix: if the bill is right and the model wrong, fix the model (profile or breakpoints); if the difference is expected, raise maxMeasuredDiff.cachedTokens to a token count of at least ${c} (no percentage of a billed 0 allows a difference)`,
    ]);
    const tokens = await withExpect('{cachedTokens: 10}', await evicted());
    expect(formatError(tokens.errors[0]!)).toMatch(
      /^scenarios\/m\.yaml:6:35 error: request @3: .* more than expect\.maxMeasuredDiff\.cachedTokens 10;[\s\S]*raise maxMeasuredDiff\.cachedTokens to at least \d+$/,
    );
  });

  it('without measured figures, or without the figure it names, it is an error, not a silent pass', async () => {
    expect((await withExpect('{cachedTokens: "2%"}', [])).errors.map(formatError)).toEqual([
      'scenarios/m.yaml:6:20 error: expect.maxMeasuredDiff is set, but no own request carries measured figures (`measured`: what the provider billed)\n  fix: import the trace with each response (or its usage) beside the request — {"timestamp", "body", "response": {…}} — or remove maxMeasuredDiff',
    ]);
    const mod = await modelled('test-exact');
    const noWrites = mod.map((e) => ({ inputTokens: e.inputTokens, cachedTokens: e.cachedTokens }));
    expect(formatError((await withExpect('{cacheWriteTokens: "5%"}', noWrites)).errors[0]!)).toMatch(
      /^scenarios\/m\.yaml:6:39 error: expect\.maxMeasuredDiff\.cacheWriteTokens: no own request reports cacheWriteTokens/,
    );
  });

  it('a limit that is neither tokens nor a percentage, and measured figures that contradict each other, are located errors', async () => {
    const bad = await withExpect('{cachedTokens: "2 percent"}', []);
    expect(bad.errors.map(formatError)[0]).toMatch(/^scenarios\/m\.yaml:6:35 error: `maxMeasuredDiff\.cachedTokens` does not match the pattern/);
    const r = await render(scenario('test-exact', [{ inputTokens: 10, cachedTokens: 8, cacheWriteTokens: 4 }]));
    expect(r.errors.map(formatError)[0]).toMatch(/^scenarios\/m\.yaml:\d+:\d+ error: .*`measured\.inputTokens` \(10\) is less than cachedTokens \+ cacheWriteTokens \(12\)/);
  });
});
