// Where each price a report uses came from: the catalog's sourced figure with the pinned dataset's
// word on it, or a project's own figure (no dataset verdict). Expectations are read from the
// catalog entries and the dataset lists directly, not from priceOrigins.
import { describe, expect, it } from 'vitest';
import { PRICE_DATASET } from '../providers/price-dataset.ts';
import { CATALOG } from '../providers/registry.ts';
import { priceOrigins } from './price-origin.ts';
import { DEFAULT_ECONOMICS, resolveEconomics } from './profiles.ts';

const entry = (id: string) => CATALOG.find((m) => m.id === id)!;
const at = { dataset: PRICE_DATASET.name, version: PRICE_DATASET.version };

describe('priceOrigins', () => {
  it('a catalog price carries its page and date and the dataset agreeing', () => {
    const o = priceOrigins(DEFAULT_ECONOMICS, ['anthropic-claude-haiku-4.5'])['anthropic-claude-haiku-4.5']!;
    const fig = entry('anthropic-claude-haiku-4.5').prices;
    expect(Object.keys(o)).toEqual(['input', 'cachedInput', 'cacheWrite', 'cacheWrite1h', 'output']);
    expect(o.input).toEqual({ usdPerMTok: 1, from: 'catalog', source: fig.input!.source, read: fig.input!.read, note: fig.input!.note, dataset: { ...at, agrees: true } });
    expect(o.cacheWrite1h?.usdPerMTok).toBe(2);
  });

  it('a price the dataset gives otherwise keeps ours and says why; an entry it lacks says so', () => {
    const o = priceOrigins(DEFAULT_ECONOMICS, ['openai-gpt-6.1-sol', 'anthropic-claude-sonnet-5.5']);
    expect(Object.keys(o)).toEqual(['anthropic-claude-sonnet-5.5', 'openai-gpt-6.1-sol']);
    const sonnet = o['anthropic-claude-sonnet-5.5']!;
    expect(sonnet.cachedInput).toMatchObject({ usdPerMTok: 0.1, from: 'catalog', dataset: { ...at, agrees: false, value: 0.2, model: 'claude-sonnet-5' } });
    expect((sonnet.cachedInput!.dataset as { reason: string }).reason).toMatch(/Sonnet 5\.5 row/);
    expect(sonnet.input!.dataset).toEqual({ ...at, agrees: true });
    expect(o['openai-gpt-6.1-sol']!.input).toMatchObject({ usdPerMTok: 2, from: 'catalog', dataset: { ...at, lacksModel: true } });
  });

  it('a project’s own figure is from its config, with no dataset verdict; unpriced and unknown profiles give none', () => {
    const { config, problems } = resolveEconomics({ profiles: { 'anthropic-claude-haiku-4.5': { prices: { output: 6 } } } }, '2026-12-03');
    expect(problems).toEqual([]);
    const o = priceOrigins(config, ['anthropic-claude-haiku-4.5', 'unknown', 'openai-gpt-6', 'no-such-profile']);
    expect(o['anthropic-claude-haiku-4.5']!.output).toEqual({ usdPerMTok: 6, from: 'config', source: 'astro.config.mjs', read: '2026-12-03', dataset: null });
    expect(o['anthropic-claude-haiku-4.5']!.input!.from).toBe('catalog');
    expect(o.unknown).toEqual({});
    expect(o['openai-gpt-6']).toEqual({});
    expect(o['no-such-profile']).toBeUndefined();
  });
});
