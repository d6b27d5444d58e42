/**
 * A small fixed-seed fuzz run (the long one is `npm run fuzz`): mutated bundled scenarios and
 * generated YAML either load or return structured errors — never an exception.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/integration/options.ts';
import { bundledScenarios, checkCase, fuzzCase } from './fuzz.ts';

const config = await resolveOptions(process.cwd());
const seeds = bundledScenarios(process.cwd());

describe('fuzz (fixed seed)', () => {
  it('150 cases: every run loads or returns structured errors, never throws', async () => {
    let loaded = 0;
    let failed = 0;
    await fc.assert(
      fc.asyncProperty(fuzzCase(seeds), async (files) => {
        const o = await checkCase(files, config);
        if (o.loaded) loaded++;
        if (o.errors) failed++;
      }),
      { seed: 17, numRuns: 150 },
    );
    // The generators reach both sides of the property.
    expect(loaded).toBeGreaterThan(0);
    expect(failed).toBeGreaterThan(0);
  }, 120_000);

  it('hand-made hostile inputs: an alias bomb, nesting deeper than the stack, a 1 MB line, NUL bytes, a BOM', async () => {
    const head = 'id: x\ntitle: X\nevents:\n  - off: 1\n    t: 0ms\n    type: agents/context-added\n    payload:\n      role: user\n      content: hi\n';
    const laughs = ['a0: &a0 [x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 11 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(9).fill(`*a${i}`).join(', ')}]`)];
    const cases = [
      `${head}      extra: {${laughs.join(', ')}}\n`,
      `${head}      deep: ${'['.repeat(5000)}${']'.repeat(5000)}\n`,
      `${head}      long: "${'x'.repeat(1_000_000)}"\n`,
      `${head}      nul: "a\u0000b"\n\u0000\u0000`,
      `\uFEFF${head}`,
    ];
    for (const text of cases) {
      const o = await checkCase([{ file: 'scenarios/x.yaml', text }], config);
      expect(o.loaded + o.errors).toBeGreaterThan(0);
    }
  }, 60_000);

  it('the property can fail: an unstructured error is reported', async () => {
    await expect(
      checkCase([{ file: 'scenarios/x.yaml', text: 'id: x\ntitle: X\nevents: []\n' }], {
        ...config,
        folds: new Map([...config.folds].map(([k, f]) => [k, { ...f, validateOptions: () => [{ path: [], message: '', fix: '' }] }])),
      }),
    ).rejects.toThrow(/unstructured error/);
  });
});
