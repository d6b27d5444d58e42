/**
 * A small fixed-seed fuzz run (the long one is `npm run fuzz`): mutated bundled scenarios and
 * generated YAML either load or return structured errors — never an exception.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../integration/options.ts';
import { bundledScenarios, checkCase, fuzzCase } from './fuzz.ts';

const config = await resolveOptions(process.cwd());
const seeds = bundledScenarios(process.cwd());

describe('fuzz (fixed seed)', () => {
  it('300 cases: every run loads or returns structured errors, never throws', () => {
    let loaded = 0;
    let failed = 0;
    fc.assert(fc.property(fuzzCase(seeds), (files) => {
      const o = checkCase(files, config);
      if (o.loaded) loaded++;
      if (o.errors) failed++;
    }), { seed: 17, numRuns: 300 });
    // The generators reach both sides of the property.
    expect(loaded).toBeGreaterThan(0);
    expect(failed).toBeGreaterThan(0);
  }, 120_000);

  it('the property can fail: an unstructured error is reported', () => {
    expect(() => checkCase([{ file: 'scenarios/x.yaml', text: 'id: x\ntitle: X\nevents: []\n' }], {
      ...config,
      folds: new Map([...config.folds].map(([k, f]) => [k, { ...f, validateOptions: () => [{ path: [], message: '', fix: '' }] }])),
    })).toThrow(/unstructured error/);
  });
});
