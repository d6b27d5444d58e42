/** The root cause of a cache regression: classified, grouped across scenarios, counted only where the base kept the cache. */
import { describe, expect, it } from 'vitest';
import { classify, rootCauses, type RootInput } from './root-cause.ts';

describe('classify', () => {
  const head = ['model: m', 'messages:', '  - role: system'];
  it('names a value that changes on every request (only its digits differ)', () => {
    expect(classify([...head, 'Current time: 2026-01-01T10:02:00Z', 'x'], [...head, 'Current time: 2026-01-01T10:01:00Z', 'x'], 3, false)).toBe('volatile');
    expect(classify([...head, 'request id 9f3a2b1c7d'], [...head, 'request id 0a1b2c3d4e'], 3, false)).toBe('volatile');
  });
  it('names content inserted above the breakpoint (the old text is still there, further down)', () => {
    expect(classify([...head, 'NEW', 'a', 'b'], [...head, 'a', 'b'], 3, false)).toBe('inserted');
  });
  it('names a reordering (each side’s text is further down the other)', () => {
    expect(classify([...head, 'b', 'a'], [...head, 'a', 'b'], 3, false)).toBe('reordered');
  });
  it('names a rewrite of earlier content (neither text is found again)', () => {
    expect(classify([...head, 'the rules, reworded', 'b'], [...head, 'the rules', 'b'], 3, false)).toBe('rewritten');
    // Different words with digits are a rewrite, not a value.
    expect(classify([...head, 'step 2: push'], [...head, 'step 1: test'], 3, false)).toBe('rewritten');
  });
  it('names a model or option change (the header, or the economics say the model changed)', () => {
    expect(classify(['model: b', ...head.slice(1)], ['model: a', ...head.slice(1)], 0, false)).toBe('model');
    expect(classify([...head, 'x'], [...head, 'y'], 3, true)).toBe('model');
  });
});

/** A scenario whose requests at `offsets` each end with a time line (the volatile value), each busting the previous one. */
function scenario(id: string, offsets: number[], opts: { baseCached?: number; lost?: number; cost?: number | null } = {}): RootInput {
  const lines = (o: number) =>
    [
      'model: m',
      'messages:',
      '  - role: system',
      `    content: "rules"`,
      `Current time: 2026-01-01T00:00:${String(o).padStart(2, '0')}Z`,
      '  - role: user',
      `    content: "turn ${o}"`,
    ].map((text, i) => ({
      text,
      from: [],
      message: i < 2 ? -1 : i < 5 ? 0 : 1,
    }));
  const requests = offsets.map((o, i) => ({
    offset: o,
    previous: i ? offsets[i - 1]! : null,
    cut: i ? 4 : null,
    lines: lines(o),
    messages: [{ role: 'system' }, { role: 'user' }],
  }));
  return {
    change: {
      id,
      stem: `01-${id}`,
      title: `Scenario ${id}`,
      why: [
        { kind: 'fold-code', fold: 'context-protocol', files: ['src/builtin-folds/context-protocol/render.ts'] },
        { kind: 'prompt', messages: [] },
      ],
    },
    head: { requests, chain: requests } as never,
    econ: {
      requests: offsets.map((o, i) => ({
        offset: o,
        cachedTokens: 0,
        cacheBreak: i
          ? { cause: 'system-changed', events: [o], tokensLost: opts.lost ?? 100, lostCostUsd: opts.cost === undefined ? 0.001 : opts.cost }
          : { cause: 'first-request', events: [], tokensLost: 0, lostCostUsd: 0 },
      })),
    } as never,
    baseFigures: new Map(offsets.map((o, i) => [o, { inputTokens: 200, cachedTokens: i ? (opts.baseCached ?? 150) : 0, costUsd: 0.001, exact: true }])),
  };
}

describe('rootCauses', () => {
  it('names the changed text once, across every scenario and request it breaks', () => {
    const [cause, ...more] = rootCauses([scenario('a', [3, 6, 9]), scenario('b', [4, 8], { lost: 50, cost: 0.0005 })]);
    expect(more).toEqual([]);
    expect(cause).toEqual({
      kind: 'volatile',
      text: 'Current time: 2026-01-01T00:00:06Z',
      previous: 'Current time: 2026-01-01T00:00:03Z',
      message: 1,
      role: 'system',
      scenarios: [
        { id: 'a', stem: '01-a', title: 'Scenario a', offsets: [6, 9] },
        { id: 'b', stem: '01-b', title: 'Scenario b', offsets: [8] },
      ],
      tokensLost: 250,
      lostCostUsd: 0.0025,
      // What is responsible: the fold's code, not the prompt's own change.
      responsible: [{ kind: 'fold-code', fold: 'context-protocol', files: ['src/builtin-folds/context-protocol/render.ts'] }],
    });
  });

  it('leaves out a bust the base had too (it read no more of the cache there)', () => {
    expect(rootCauses([scenario('a', [3, 6], { baseCached: 0 })])).toEqual([]);
  });

  it('says the lost cost is not known when a price is not configured', () => {
    expect(rootCauses([scenario('a', [3, 6, 9], { cost: null })])[0]!.lostCostUsd).toBeNull();
  });

  it('judges by the base fixture’s ✂ line when the base’s figures are not known', () => {
    const input = scenario('a', [3, 6]);
    const fixture = (cut: number | null) => ({ stem: '01-a', title: 'x', requests: new Map([[6, { offset: 6, lines: [], cut, annotations: [] }]]) });
    expect(rootCauses([{ ...input, baseFigures: undefined, baseFixture: fixture(6) }])).toHaveLength(1);
    expect(rootCauses([{ ...input, baseFigures: undefined, baseFixture: fixture(4) }])).toEqual([]);
    expect(rootCauses([{ ...input, baseFigures: undefined }])).toEqual([]);
  });
});
