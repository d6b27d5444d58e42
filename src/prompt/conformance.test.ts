/**
 * Conformance: every reference scenario from the platform our default fold models
 * (../shared/reference/iterate/*.md) loads as a scenario, and each of its `request@N.yaml` blocks is
 * reproduced byte for byte by load → fold → print → weave.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAS_REFERENCE, NEEDS_REFERENCE, REFERENCE_DIR as REFERENCE } from '../../tests/support/shared.ts';
import { resolveOptions } from '../integration/options.ts';
import { parseFixture } from '../fixture-format/format.ts';
import { assertClean, renderTexts } from '../corpus/check.ts';

// Without ../shared (a bare clone) the suite skips, its name saying why.
const files = HAS_REFERENCE
  ? readdirSync(REFERENCE)
      .filter((f) => /^\d.*\.md$/.test(f))
      .sort()
  : [];

describe.skipIf(!HAS_REFERENCE)(`reference scenarios (shared/reference/iterate)${NEEDS_REFERENCE}`, async () => {
  const config = await resolveOptions(process.cwd());
  const texts = files.map((f) => ({ file: `reference/${f}`, text: readFileSync(join(REFERENCE, f), 'utf8') }));
  const corpus = assertClean(await renderTexts(texts, config, { everyEvent: false }));

  it('finds the reference files', () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
  });

  for (const [i, f] of files.entries()) {
    const golden = parseFixture(texts[i]!.text).requests;
    it(`${f}: renders its ${golden.length} request block(s) byte for byte`, () => {
      const rendered = corpus.scenarios.find((s) => s.scenario.file === `reference/${f}`)!;
      expect(golden.length).toBeGreaterThan(0);
      expect(rendered.requests.map((r) => r.offset)).toEqual(golden.map((g) => g.offset));
      for (const g of golden) expect(rendered.requests.find((x) => x.offset === g.offset)!.text).toBe(g.text);
    });
  }
});
