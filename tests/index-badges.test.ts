/**
 * The index leads with the bill where a scenario carries one (from the shared build of the bundled
 * corpus): an imported capture's card says what the provider's usage reports — its input tokens
 * and the share read from the cache, summed here from the scenario file's own `measured` figures —
 * and a hand-written scenario keeps the model's figures.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { sharedBuiltPage } from './support/shared-site.ts';

/** The card of scenario `id` on the built index. */
const cardOf = (html: string, id: string): string => {
  const start = html.indexOf(`href="/scenarios/${id}/"`);
  expect(start, `${id} has a card on the index`).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf('</li>', start));
};

/** The billed totals of a scenario file, summed from its requests' `measured` figures. */
function billedTotals(file: string): { input: number; cached: number } {
  const doc = parse(readFileSync(join(import.meta.dirname, '..', 'scenarios', file), 'utf8')) as {
    events: { payload?: { measured?: { inputTokens: number; cachedTokens: number } } }[];
  };
  const measured = doc.events.flatMap((e) => (e.payload?.measured ? [e.payload.measured] : []));
  return { input: measured.reduce((n, m) => n + m.inputTokens, 0), cached: measured.reduce((n, m) => n + m.cachedTokens, 0) };
}

describe('the index cards', () => {
  let html = '';
  beforeAll(async () => {
    html = await sharedBuiltPage('/');
  }, 600_000);

  it('an imported capture’s card says what the bill reports: its input tokens and the share read from the cache', () => {
    for (const [id, file] of [
      ['imported-trace', '30-imported-trace.yaml'],
      ['imported-eviction', '31-imported-eviction.yaml'],
    ]) {
      const { input, cached } = billedTotals(file!);
      expect(input, `${file} carries a bill`).toBeGreaterThan(0);
      const want = `billed: ${input.toLocaleString('en-US')} input tokens · ${Math.round((100 * cached) / input)} % cached`;
      expect(cardOf(html, id!), id).toContain(`>${want}</span>`);
    }
  });

  it('a hand-written scenario’s card keeps the model’s figures, unlabelled', () => {
    const card = cardOf(html, 'birth-window');
    expect(card).toMatch(/>[\d,]+ input tokens · \d+ % cached/);
    expect(card).not.toContain('billed:');
  });
});
