/**
 * Pricing one request (docs/cache-economics.md, "Cost"): uncached input × input price + cached × cached
 * price + cache writes × write price (the 1-hour ones at theirs) + output × output price, each part
 * its own figure; the same request with no caching; and what lost tokens cost beyond reading them.
 * A price the profile lacks makes the figure null ("no price configured"), never a made-up one.
 */
import type { Profile } from './shipped-profiles.ts';

/** Cost of one request, part by part (USD). */
export interface CostSplit {
  input: number;
  cached: number;
  writes: number;
  output: number;
}

/** A request's cost: total, parts, and the same request with no caching (null: no price configured). */
export interface Priced {
  total: number | null;
  split: CostSplit | null;
  noCache: number | null;
}

export const UNPRICED: Priced = { total: null, split: null, noCache: null };

export const perM = (tokens: number, price: number): number => (tokens * price) / 1e6;
/** Dollars without binary-float noise (1e-10 is far below any price step). */
export const tidy = (x: number): number => Math.round(x * 1e10) / 1e10;

export function costs(p: Profile, input: number, cached: number, writes: number, writes1h: number, output: number | null): Priced {
  const pr = p.prices;
  const needOutput = output !== null && output > 0;
  if (!pr.input || (needOutput && !pr.output)) return { total: null, split: null, noCache: null };
  const out = needOutput ? perM(output!, pr.output!.value) : 0;
  const noCache = tidy(perM(input, pr.input.value) + out);
  const w5 = writes - writes1h;
  if ((cached > 0 && !pr.cachedInput) || (w5 > 0 && !pr.cacheWrite) || (writes1h > 0 && !pr.cacheWrite1h)) return { total: null, split: null, noCache };
  const split: CostSplit = {
    input: tidy(perM(input - cached - writes, pr.input.value)),
    cached: tidy(cached ? perM(cached, pr.cachedInput!.value) : 0),
    writes: tidy((w5 ? perM(w5, pr.cacheWrite!.value) : 0) + (writes1h ? perM(writes1h, pr.cacheWrite1h!.value) : 0)),
    output: tidy(out),
  };
  return { total: tidy(split.input + split.cached + split.writes + split.output), split, noCache };
}

/** What `lost` tokens cost this request beyond reading them: written ones at the write price, the rest at the input price. */
export function lostCost(p: Profile, lost: number, writes: number): number | null {
  if (!lost) return 0;
  const pr = p.prices;
  if (!pr.input || !pr.cachedInput) return null;
  const w = Math.min(lost, writes);
  if (w > 0 && !pr.cacheWrite) return null;
  return tidy(perM(w, (pr.cacheWrite?.value ?? 0) - pr.cachedInput.value) + perM(lost - w, pr.input.value - pr.cachedInput.value));
}
