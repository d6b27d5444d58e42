// Every priced catalog entry against the pinned price dataset (@pydantic/genai-prices, offline: its
// data ships in the package). Each price that differs must be listed in PRICE_DISAGREEMENTS with why
// ours is kept; each entry the dataset lacks in NOT_IN_DATASET; a listed one that no longer holds
// fails too, so the lists stay true when the pin moves.
import { readFileSync } from 'node:fs';
import { calcPrice } from '@pydantic/genai-prices';
import { describe, expect, it } from 'vitest';
import { datasetCheck, NOT_IN_DATASET, PRICE_DATASET, PRICE_DISAGREEMENTS, PRICE_FIELDS, type PriceField } from './price-dataset.ts';
import { CATALOG } from './registry.ts';

const KEYS: Record<PriceField, string> = {
  input: 'input_mtok',
  cachedInput: 'cache_read_mtok',
  cacheWrite: 'cache_write_mtok',
  cacheWrite1h: 'cache_write_1h_mtok',
  output: 'output_mtok',
};

const priced = CATALOG.filter((m) => Object.keys(m.prices).length > 0);
/** The id we look an entry up by: its first exact id, else its first family without a trailing dash. */
const idOf = (m: (typeof CATALOG)[number]): string => m.ids[0] ?? m.families[0]!.replace(/-$/, '');

/** The dataset's base price (below any long-context tier) for each of our fields, or null where it has none. */
function lookUp(id: string, provider: string): { model: string; prices: Record<PriceField, number | null> } | null {
  const r = calcPrice({ input_tokens: 1000 }, id, { providerId: provider, timestamp: new Date(`${PRICE_DATASET.compared}T00:00:00Z`) });
  if (!r) return null;
  const base = (x: unknown): number | null => (typeof x === 'number' ? x : x && typeof x === 'object' && 'base' in x ? (x as { base: number }).base : null);
  return { model: r.model.id, prices: Object.fromEntries(PRICE_FIELDS.map((f) => [f, base(r.model_price[KEYS[f]])])) as Record<PriceField, number | null> };
}

interface Found {
  profile: string;
  field: PriceField;
  ours: number | null;
  dataset: number | null;
  datasetModel: string;
}

const found: Found[] = [];
const lacking: { profile: string; id: string }[] = [];
for (const m of priced) {
  const hit = lookUp(idOf(m), m.provider);
  if (!hit) {
    lacking.push({ profile: m.id, id: idOf(m) });
    continue;
  }
  for (const field of PRICE_FIELDS) {
    const ours = m.prices[field]?.value ?? null;
    const theirs = hit.prices[field];
    if (ours === null && theirs === null) continue;
    if (ours === null || theirs === null || Math.abs(ours - theirs) > 1e-9) found.push({ profile: m.id, field, ours, dataset: theirs, datasetModel: hit.model });
  }
}

const key = (d: { profile: string; field: string }): string => `${d.profile} ${d.field}`;
const fix = (d: Found): string =>
  `${d.profile} ${d.field}: ours ${d.ours ?? 'none'}, ${PRICE_DATASET.name} ${PRICE_DATASET.version} ${d.dataset ?? 'none'} (its model ${d.datasetModel})\n` +
  '  fix: read the provider’s pricing page; if the dataset is right, correct the figure in src/providers/<provider>/catalog.ts (with the URL and the date read); ' +
  'if ours is right, add the disagreement to PRICE_DISAGREEMENTS in src/providers/price-dataset.ts with the reason and the page (URL, date read)';

describe(`catalog prices against ${PRICE_DATASET.name} ${PRICE_DATASET.version}`, () => {
  it('pins the version package.json installs', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies[PRICE_DATASET.name]).toBe(PRICE_DATASET.version);
  });

  it('compares a real set: most priced entries are found and agree', () => {
    expect(priced.length).toBeGreaterThan(30);
    expect(priced.length - lacking.length).toBeGreaterThan(25);
    // A known agreement, read from the dataset itself: so a lookup that silently returned nothing could not pass.
    expect(lookUp('claude-haiku-4-5', 'anthropic')).toMatchObject({
      model: 'claude-haiku-4-5',
      prices: { input: 1, cachedInput: 0.1, cacheWrite: 1.25, cacheWrite1h: 2, output: 5 },
    });
  });

  it('every disagreement is a known one, with the reason ours is kept', () => {
    const known = new Set(PRICE_DISAGREEMENTS.map(key));
    const unlisted = found.filter((d) => !known.has(key(d)));
    expect(unlisted.map(fix), 'prices that differ from the dataset and are not listed').toEqual([]);
  });

  it('every listed disagreement still holds, as listed, and cites the page our figure was read from', () => {
    const now = new Map(found.map((d) => [key(d), d]));
    for (const d of PRICE_DISAGREEMENTS) {
      const f = now.get(key(d));
      expect(f, `${key(d)} no longer disagrees with ${PRICE_DATASET.name} ${PRICE_DATASET.version}: remove it from PRICE_DISAGREEMENTS`).toBeDefined();
      expect({ ours: f!.ours, dataset: f!.dataset, datasetModel: f!.datasetModel }).toEqual({ ours: d.ours, dataset: d.dataset, datasetModel: d.datasetModel });
      // A figure we left out (ours: null) cites the page the entry's input price was read from.
      const prices = CATALOG.find((m) => m.id === d.profile)!.prices;
      const figure = d.ours === null ? prices.input! : prices[d.field]!;
      expect({ source: d.source, read: d.read }).toEqual({ source: figure.source, read: figure.read });
      expect(d.reason.length).toBeGreaterThan(20);
    }
  });

  it('lists exactly the priced entries the dataset lacks', () => {
    expect(lacking, `update NOT_IN_DATASET in src/providers/price-dataset.ts (a newly covered entry: compare its prices; a newly missing one: check the id)`).toEqual([
      ...NOT_IN_DATASET,
    ]);
  });

  it('datasetCheck says what the lists say', () => {
    expect(datasetCheck('anthropic-claude-haiku-4.5', 'input')).toEqual({ dataset: PRICE_DATASET.name, version: PRICE_DATASET.version, agrees: true });
    expect(datasetCheck('anthropic-claude-sonnet-5.5', 'cachedInput')).toMatchObject({ agrees: false, value: 0.2, model: 'claude-sonnet-5' });
    expect(datasetCheck('anthropic-claude-sonnet-5.5', 'input')).toMatchObject({ agrees: true });
    expect(datasetCheck('openai-gpt-6.1-sol', 'input')).toMatchObject({ lacksModel: true });
  });
});
