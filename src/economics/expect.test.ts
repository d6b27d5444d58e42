/**
 * `expect:` is checked like anchors: a request that busts the cache without being listed, a listed
 * request that does not bust, and a request over maxInputTokens are errors at the expect entry,
 * naming the request, the event that caused it and the fix. Also: the report's JSON shape.
 */
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../integration/options.ts';
import { renderTexts } from '../corpus/check.ts';
import { formatError } from '../scenarios/errors.ts';
import type { RenderedScenario } from '../prompt/render.ts';
import type { InputError } from '../scenarios/errors.ts';
import type { ScenarioEconomics } from './compute.ts';
import { checkApiErrors } from './expect.ts';
import { DEFAULT_ECONOMICS } from './profiles.ts';
import { buildReport, reportTable } from './report.ts';

const scenario = (expectBlock: string): string => `id: exp
title: "Expectations"
${expectBlock}
events:
  - {off: 1, t: 0ms, type: agents/context-added, payload: {role: system, key: rules, content: "Run pnpm test."}}
  - {off: 2, t: 0ms, type: agents/context-added, payload: {role: user, content: "go", actor: {type: user, origin: web}}}
  - {off: 3, t: 1s, type: agent/llm-request-requested, payload: {model: openai/gpt-5.6-terra}}
  - {off: 4, t: 2s, type: agent/llm-request-settled, payload: {requestOffset: 3, result: {status: succeeded, text: "done"}}}
  - {off: 5, t: 3s, type: agents/context-added, payload: {role: user, content: "again", actor: {type: user, origin: web}}}
  - {off: 6, t: 4s, type: agent/llm-request-requested, payload: {model: openai/gpt-5.6-terra}}
  - {off: 7, t: 5s, type: agent/llm-request-settled, payload: {requestOffset: 6, result: {status: succeeded, text: "done"}}}
  - {off: 8, t: 6s, type: agents/context-rewritten, payload: {op: replace, key: rules, content: "Run pnpm check."}}
  - {off: 9, t: 7s, type: agents/context-added, payload: {role: user, content: "and now?", actor: {type: user, origin: web}}}
  - {off: 10, t: 8s, type: agent/llm-request-requested, payload: {model: openai/gpt-5.6-terra}}
`;

async function run(expectBlock: string) {
  const config = await resolveOptions(process.cwd());
  return await renderTexts([{ file: 'scenarios/exp.yaml', text: scenario(expectBlock) }], config, { everyEvent: false });
}

describe('expect:', () => {
  it('passes when busts lists exactly the requests whose ✂ sits above the end of the previous one', async () => {
    const r = await run('expect:\n  busts: ["@10"]\n  maxInputTokens: 5000');
    expect(r.errors.map(formatError)).toEqual([]);
  });

  it('an unlisted bust is an error at `busts:` naming the request, the cause, the event and the fix', async () => {
    const r = await run('expect:\n  busts: []');
    expect(r.errors).toHaveLength(1);
    const text = formatError(r.errors[0]!);
    expect(text).toMatch(
      /^scenarios\/exp\.yaml:4:10 error: request @10 busts the cache but `expect\.busts` does not list it: its ✂ line sits at line \d+, above the end of request @6 \(\d+ lines\) — system-changed, caused by @8 agents\/context-rewritten; nothing cached was lost$/m,
    );
    expect(text).toContain(
      'fix: if this scenario means to bust the cache at @10, add "@10" to expect.busts; otherwise change the fold or the events so that @10 only appends to @6',
    );
  });

  it('an unlisted bust that also expired says so, with the idle time unrounded', async () => {
    // A system prompt above GPT-5.6's minimum, and a rewrite 30 min 1 s after @6 wrote its entry.
    const big = scenario('expect:\n  busts: []')
      .replace('content: "Run pnpm test."', `content: "Run pnpm test.${' word'.repeat(1100)}"`)
      .replace('{off: 10, t: 8s,', '{off: 10, t: 30m 5s,');
    const config = await resolveOptions(process.cwd());
    const r = await renderTexts([{ file: 'scenarios/exp.yaml', text: big }], config, { everyEvent: false });
    const text = r.errors.map(formatError).join('\n');
    expect(text).toContain('request @10 busts the cache');
    expect(text).toContain('caused by @8 agents/context-rewritten');
    expect(text).toContain('the cache entry also may have been evicted (idle 30 min 1 s; documented minimum 30 min)');
  });

  it('a request its own provider would reject (5 Anthropic breakpoints) is an input error at the request event', () => {
    const pos = { file: 'scenarios/x.yaml', line: 7, col: 5 };
    const r = { scenario: { chain: [{ offset: 3, pos }], pos: { file: 'scenarios/x.yaml', line: 1, col: 1 } } } as unknown as RenderedScenario;
    const econ = {
      requests: [
        { offset: 3, model: 'claude-sonnet-4-5', profile: 'anthropic-claude-sonnet-4.5', apiError: '5 cache breakpoints; the API accepts at most 4 and rejects the request' },
      ],
    } as unknown as ScenarioEconomics;
    const errors: InputError[] = [];
    checkApiErrors(r, econ, errors);
    expect(errors.map(formatError)).toEqual([
      'scenarios/x.yaml:7:5 error: request @3 (claude-sonnet-4-5, profile anthropic-claude-sonnet-4.5) carries 5 cache breakpoints; the API accepts at most 4 and rejects the request\n  fix: mark at most that many cache breakpoints on the request (in the fold’s snapshot or the trace’s cache_control markers)',
    ]);
  });

  it('a listed request that keeps the previous one whole is an error at its entry', async () => {
    const r = await run('expect:\n  busts: ["@6", "@10"]');
    expect(r.errors.map(formatError)).toEqual([
      'scenarios/exp.yaml:4:11 error: `expect.busts` lists "@6", but request @6 keeps the whole of request @3 as its byte-stable prefix (its ✂ line sits at the end of @3)\n  fix: remove "@6" from expect.busts, or change the events so that @6 rewrites part of the previous request',
    ]);
  });

  it('maxInputTokens caps every own request', async () => {
    const r = await run('expect:\n  busts: ["@10"]\n  maxInputTokens: 50');
    const texts = r.errors.map(formatError);
    expect(texts.length).toBeGreaterThan(0);
    expect(texts[0]).toMatch(
      /^scenarios\/exp\.yaml:5:19 error: request @3 has \d+ input tokens \(profile openai-gpt-5\.6-terra\), more than expect\.maxInputTokens 50\n {2}fix: raise maxInputTokens to at least \d+, or shorten the request$/,
    );
  });
});

describe('npm run report', () => {
  it('has the documented JSON shape, and a readable table', async () => {
    const r = await run('expect:\n  busts: ["@10"]');
    const report = buildReport(r);
    expect(Object.keys(report)).toEqual(['scenarios']);
    expect(report.scenarios.map((s) => [s.id, s.file])).toEqual([['exp', 'scenarios/exp.yaml']]);
    const reqs = report.scenarios[0]!.requests;
    expect(reqs.map((q) => q.offset)).toEqual([3, 6, 10]);
    for (const q of reqs) {
      expect(Object.keys(q)).toEqual([
        'offset',
        'model',
        'profile',
        'exact',
        'inputTokens',
        'prefixTokens',
        'cachedTokens',
        'readFrom',
        'uncachedTokens',
        'cacheWriteTokens',
        'cacheWriteTokens1h',
        'breakpointTokens',
        'outputTokens',
        'outputSource',
        'costUsd',
        'cost',
        'noCacheCostUsd',
        'expired',
        'idleMs',
        'apiError',
        'cacheBreak',
        'measured',
        'measuredDiff',
      ]);
      expect([q.measured, q.measuredDiff]).toEqual([null, null]); // no usage in this scenario (measured.test.ts has it)
      expect(q.inputTokens).toBe(q.cachedTokens + q.uncachedTokens);
    }
    expect(reqs[0]!.outputTokens).toBe(1); // "done"
    expect(reqs[2]!.outputTokens).toBeNull(); // no settlement
    // Below GPT-5.6's 1,024-token minimum nothing was cacheable: the rewrite is named, nothing is lost.
    expect(reqs[2]!.cacheBreak).toEqual({ cause: 'system-changed', events: [8], tokensLost: 0, lostCostUsd: 0 });
    expect(report.scenarios[0]!.totals.inputTokens).toBe(reqs.reduce((n, q) => n + q.inputTokens, 0));
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    // --all-profiles: the same requests under every configured profile.
    const all = buildReport(r, { allProfiles: DEFAULT_ECONOMICS }).scenarios[0]!.profiles!;
    expect(all.map((p) => p.profile)).toEqual(Object.keys(DEFAULT_ECONOMICS.profiles));
    for (const p of all) expect(p.requests.map((q) => [q.offset, q.profile])).toEqual(reqs.map((q) => [q.offset, p.profile]));
    const haiku = all.find((p) => p.profile === 'anthropic-claude-haiku-4.5')!;
    expect(haiku.requests.every((q) => !q.exact && q.cachedTokens === 0)).toBe(true); // below its 4,096-token minimum
    const table = reportTable(r);
    expect(table).toContain('exp (scenarios/exp.yaml) — profile openai-gpt-5.6-terra (by model gpt-5.6-terra)');
    expect(table).toMatch(/@10 +\d+ +\d+ +0 +0 +\d+ +— +\$0\.\d+ +system-changed @8$/m);
  });
});
