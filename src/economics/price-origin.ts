/**
 * Where each price a report uses came from (`report --json`'s `prices`): our catalog's sourced
 * figure (its page and the date read) or a project's own figure from its config, and for a catalog
 * figure what the pinned price dataset says about it (agrees; disagrees, with why ours is kept; or
 * lacks the model — src/providers/price-dataset.ts). Prices are never taken from the dataset, so
 * no price comes from it.
 */
import { datasetCheck, PRICE_FIELDS, type DatasetCheck, type PriceField } from '../providers/price-dataset.ts';
import { CATALOG } from '../providers/registry.ts';
import type { EconomicsConfig } from './profiles.ts';
import type { Sourced } from './shipped-profiles.ts';

export interface PriceOrigin {
  /** USD per million tokens. */
  usdPerMTok: number;
  /** `catalog`: the shipped catalog's figure; `config`: the project's own (astro.config.mjs or its profile options). */
  from: 'catalog' | 'config';
  source: string;
  read: string;
  note?: string;
  /** The pinned dataset's word on a catalog figure; null for a project's own figure. */
  dataset: DatasetCheck | null;
}

const same = (a: Sourced, b: Sourced | undefined): boolean => !!b && a.value === b.value && a.source === b.source && a.read === b.read;

/** Every price of the named profiles (sorted by id), field by field, with where it came from. */
export function priceOrigins(config: EconomicsConfig, ids: Iterable<string>): Record<string, Partial<Record<PriceField, PriceOrigin>>> {
  const out: Record<string, Partial<Record<PriceField, PriceOrigin>>> = {};
  for (const id of [...new Set(ids)].sort()) {
    const p = config.profiles[id];
    if (!p) continue;
    const shipped = CATALOG.find((m) => m.id === id);
    const fields: Partial<Record<PriceField, PriceOrigin>> = {};
    for (const f of PRICE_FIELDS) {
      const fig = p.prices[f];
      if (!fig) continue;
      const ours = same(fig, shipped?.prices[f]);
      fields[f] = {
        usdPerMTok: fig.value,
        from: ours ? 'catalog' : 'config',
        source: fig.source,
        read: fig.read,
        ...(fig.note && { note: fig.note }),
        dataset: ours ? datasetCheck(id, f) : null,
      };
    }
    out[id] = fields;
  }
  return out;
}
