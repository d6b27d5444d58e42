// The paired ratios the benchmark reports beside the ratio of the medians (measure.ts pairSpread, meets).
import { describe, expect, it } from 'vitest';
import { meets, pairSpread } from './measure.ts';

describe('pairSpread', () => {
  it('divides each of ours by the baseline built right after it', () => {
    // CPU ms of five builds each, from one `--repeat 5` run.
    const p = pairSpread([6790, 6050, 6560, 6170, 6390], [6630, 6680, 5910, 5820, 5980], 1.0)!;
    expect(p.n).toBe(5);
    expect(p.min).toBeCloseTo(6050 / 6680, 12); // 0.906
    expect(p.max).toBeCloseTo(6560 / 5910, 12); // 1.110
    // Sorted: 0.906, 1.024, 1.060, 1.069, 1.110: the third.
    expect(p.median).toBeCloseTo(6170 / 5820, 12);
    expect(p.above).toBe(4);
  });

  it('skips a pair with a build that was not measured, and says null when none was', () => {
    const p = pairSpread([100, null, 300], [100, 200, null], 1.0)!;
    expect(p).toEqual({ n: 1, min: 1, median: 1, max: 1, above: 0 });
    expect(pairSpread([null], [100], 1.0)).toBeNull();
    expect(pairSpread([], [], 1.0)).toBeNull();
  });
});

describe('meets', () => {
  it('needs the pairs’ median under the target too: a run whose medians read 0.98× while its pairs read 0.98×, 1.02×, 1.05× misses', () => {
    const ours = [8680, 6590, 6470];
    const base = [8550, 6700, 6190];
    const ratioOfMedians = 6590 / 6700; // 0.98
    expect(ratioOfMedians).toBeLessThan(1);
    expect(meets(ratioOfMedians, pairSpread(ours, base, 1.0), 1.0)).toBe(false);
  });

  it('is the ratio alone for a run of one build each, and false without a ratio', () => {
    expect(meets(0.99, pairSpread([99], [100], 1.0), 1.0)).toBe(true);
    expect(meets(1.01, null, 1.0)).toBe(false);
    expect(meets(null, null, 1.0)).toBe(false);
    expect(meets(0.95, pairSpread([95, 96, 97], [100, 100, 100], 1.0), 1.0)).toBe(true);
  });
});
