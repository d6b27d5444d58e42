/**
 * The layered placement page's "Three placements, in numbers" prose is a claim about the figures
 * beside it: priced under Claude Opus 4.8, today's placement reads nothing and costs more than no
 * caching at all; the recommended placement and mid-conversation system messages read about the
 * same share for about the same cost. Checked here against the economics of the bundled scenarios
 * (recomputed from the scenario files, not read from the page), so a fold or price change that
 * makes the prose untrue fails.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderTexts } from '../../corpus/check.ts';
import { loadConfig } from '../../cli/config.ts';

const config = await loadConfig();
const files = ['20-layered-today.yaml', '21-layered-recommended.yaml', '26-layered-mid-conversation.yaml'].map((f) => ({
  file: `scenarios/${f}`,
  text: readFileSync(join(config.root, 'scenarios', f), 'utf8'),
}));
const corpus = await renderTexts(files, config, { everyEvent: true });
const opus = (id: string) => corpus.economics.get(id)!.byProfile!.find((p) => p.profile === 'anthropic-claude-opus-4.8')!.totals;

describe("three placements of the context-role audit's stage, under Claude Opus 4.8", () => {
  it('renders clean', () => expect(corpus.errors).toEqual([]));

  it('today: nothing read from the cache, and dearer than no caching', () => {
    const t = opus('layered-today');
    expect(t.cachedTokens).toBe(0);
    expect(t.costUsd!).toBeGreaterThan(t.noCacheCostUsd!);
  });

  it('recommended and mid-conversation: about the same share (within 5 points) and cost (within 5 %), both far below today', () => {
    const r = opus('layered-recommended');
    const m = opus('layered-mid-conversation');
    expect(Math.abs(r.cachedShare! - m.cachedShare!)).toBeLessThan(0.05);
    expect(Math.abs(r.costUsd! - m.costUsd!) / r.costUsd!).toBeLessThan(0.05);
    expect(m.costUsd!).toBeLessThan(opus('layered-today').costUsd! / 2);
    expect(m.cachedShare!).toBeGreaterThan(0.5);
  });
});
