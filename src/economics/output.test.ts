/**
 * Output tokens (output.ts) priced in each request's cost, on crafted requests of known size
 * (`word word …` is one o200k token per word; a message adds 4 framing tokens, a request 3
 * reply-priming tokens): the billed count where the capture has it, else — for a billed request as
 * sent — the reply the next request carries (≈), else unknown: "—", never $0.00. Expected costs are
 * worked out by hand from Claude Sonnet 4.5's prices ($3 input, $15 output per MTok).
 */
import { describe, expect, it } from 'vitest';
import type { RenderedMessage } from '../folds/types.ts';
import type { RenderedRequest, RenderedScenario } from '../prompt/render.ts';
import type { Scenario } from '../scenarios/model.ts';
import { scenarioEconomics } from './compute.ts';
import { DEFAULT_ECONOMICS } from './profiles.ts';
import { buildReport } from './report.ts';
import { panelRows, paneTokens } from './view.ts';

const words = (n: number, w = 'word'): string => w + ` ${w}`.repeat(n - 1);
const msg = (role: string, n: number, w = 'word'): RenderedMessage => {
  const content = words(n, w);
  return { role, content, parts: [{ text: content, from: [] }] };
};

const Q1 = msg('user', 96, 'alpha');
const A1 = msg('assistant', 40, 'beta');
const Q2 = msg('user', 20, 'other');

/** Two requests as sent, the second carrying the first one's 40-token reply; `measured` payloads as given. */
function scenario(measured: (i: number) => object | undefined): RenderedScenario {
  const chain: RenderedRequest[] = [[Q1], [Q1, A1, Q2]].map((messages, i) => ({
    offset: i + 1,
    model: 'claude-sonnet-4-5',
    lines: [],
    cut: null,
    previous: i ? i : null,
    anchors: [],
    text: '',
    messages,
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    asSent: true,
  }));
  const s = {
    id: 'out',
    chain: chain.map((q, i) => ({ offset: q.offset, payload: { format: 'anthropic', ...(measured(i) && { measured: measured(i) }) } })),
    events: [],
  } as unknown as Scenario;
  return { scenario: s, fold: undefined as never, options: {}, requests: chain, chain, events: [], warnings: [] };
}

// Request 1: the question 96 + 4 framing + 3 priming = 103 input tokens.
const IN1 = 103;

describe('output tokens', () => {
  it('billed: the provider’s count, exact, priced at the output price', () => {
    const econ = scenarioEconomics(
      scenario((i) => ({ inputTokens: 500, outputTokens: i ? 7 : 55 })),
      DEFAULT_ECONOMICS,
      { attribute: false },
    );
    const [one, two] = econ.requests;
    expect([one!.outputTokens, one!.outputSource, two!.outputTokens, two!.outputSource]).toEqual([55, 'billed', 7, 'billed']);
    // 103 × $3 + 55 × $15 = 309 + 825 = 1,134 → $0.001134.
    expect(one!.costUsd).toBeCloseTo((IN1 * 3 + 55 * 15) / 1e6, 12);
    expect(one!.cost!.output).toBeCloseTo((55 * 15) / 1e6, 12);
    expect(econ.totals.outputTokens).toBe(62);
    expect(paneTokens(one!).title).toContain('output 55 tokens (billed)');
  });

  it('a bill without an output count: the reply the next request carries, counted and marked ≈; the last request’s is unknown', () => {
    const econ = scenarioEconomics(
      scenario(() => ({ inputTokens: 500 })),
      DEFAULT_ECONOMICS,
      { attribute: false },
    );
    const [one, two] = econ.requests;
    // The reply is one 40-token message (its content; the framing is the next request's input).
    expect([one!.outputTokens, one!.outputSource]).toEqual([40, 'next-request']);
    expect(one!.costUsd).toBeCloseTo((IN1 * 3 + 40 * 15) / 1e6, 12);
    expect([two!.outputTokens, two!.outputSource]).toEqual([null, undefined]);
    expect(paneTokens(one!).title).toContain('output ≈40 tokens (estimated from the reply the next request carries)');
    const rows = panelRows(econ, () => '');
    expect(rows[0]!.costs[3]).toBe('≈$0.0006');
    // Unknown output is "—", not $0.00.
    expect(rows[1]!.costs[3]).toBe('—');
    expect(paneTokens(two!).title).toContain('output not known');
  });

  it('no bill at all (a hand-written body): no estimate, the output stays unknown', () => {
    const econ = scenarioEconomics(
      scenario(() => undefined),
      DEFAULT_ECONOMICS,
      { attribute: false },
    );
    expect(econ.requests.map((e) => e.outputTokens)).toEqual([null, null]);
    expect(econ.requests[0]!.costUsd).toBeCloseTo((IN1 * 3) / 1e6, 12);
  });

  it('the JSON report carries where each output count comes from', () => {
    const r = scenario(() => ({ inputTokens: 500 }));
    const econ = scenarioEconomics(r, DEFAULT_ECONOMICS, { attribute: false });
    const report = buildReport({ scenarios: [r], economics: new Map([['out', econ]]) });
    expect(report.scenarios[0]!.requests.map((q) => [q.outputTokens, q.outputSource])).toEqual([
      [40, 'next-request'],
      [null, null],
    ]);
  });
});
