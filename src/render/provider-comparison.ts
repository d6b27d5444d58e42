/**
 * The every-provider comparison of a scenario's economics page: the same requests under every
 * configured profile, grouped by provider and sorted by cost, the scenario's own profile marked.
 * The default view holds the models in common use (COMMON) and the scenario's own, priced ones
 * only, at most MAX_SHOWN rows; every other profile — the rest of the catalog, the provider
 * fallbacks, profiles without a price — is behind a disclosure. Each row carries the geometry of
 * its cost bar (a share of the dearest figure in its view), so the table is also the chart.
 */
import { CATALOG } from '../providers/registry.ts';
import { FALLBACKS, PROVIDER_TITLES, SIDE_BY_SIDE } from '../providers/registry.ts';
import type { ProfileTotals } from '../economics/compute.ts';
import { formatShare, formatUsd, NO_PRICE, rejectedText } from '../economics/format.ts';

/**
 * Models in common use: each provider adapter's own choice (its `sideBySide`: a hand-kept list of its
 * newest tiers, and for Amazon Bedrock a global and a regional profile), in registry order. A profile
 * a project does not configure is skipped.
 */
export const COMMON: readonly string[] = SIDE_BY_SIDE;

/** The default view's rows: four providers' groups side by side, on one screen at 1280 px (tests/e2e/site.test.ts). */
export const MAX_SHOWN = 12;

export interface ComparisonRow {
  profile: string;
  title: string;
  cost: string;
  noCache: string;
  cached: string;
  /** Cost as a share (0–1) of the dearest figure in its view; null without a price. */
  bar: number | null;
  /** No-caching cost on the same scale. */
  noCacheBar: number | null;
  own: boolean;
}

export interface ProviderGroup {
  provider: string;
  rows: ComparisonRow[];
}

export interface Comparison {
  shown: ProviderGroup[];
  rest: ProviderGroup[];
  restCount: number;
  /** Profiles with no price configured. */
  unpriced: number;
  /** Priced profiles whose API would reject one of these requests (so they have no total). */
  rejected: number;
}

/** The display name of the provider a profile belongs to (its catalog entry's or provider fallback's provider, by the adapters' titles), else "Other"; the adapter itself is the registry's providerOf. */
export function providerNameOf(id: string): string {
  const provider = CATALOG.find((x) => x.id === id)?.provider ?? FALLBACKS.find((f) => f.model.id === id)?.model.provider;
  return (provider && PROVIDER_TITLES[provider]) ?? 'Other';
}

/** Groups in the registry's order of providers, then "Other". */
const ORDER = [...new Set(Object.values(PROVIDER_TITLES)), 'Other'];

function grouped(rows: readonly ComparisonRow[], costOf: Map<string, number | null>): ProviderGroup[] {
  const by = new Map<string, ComparisonRow[]>();
  for (const r of rows) {
    const p = providerNameOf(r.profile);
    if (!by.has(p)) by.set(p, []);
    by.get(p)!.push(r);
  }
  const cost = (r: ComparisonRow): number => costOf.get(r.profile) ?? Infinity;
  return [...by]
    .sort(([a], [b]) => ORDER.indexOf(a) - ORDER.indexOf(b))
    .map(([provider, list]) => ({ provider, rows: [...list].sort((x, y) => cost(x) - cost(y) || x.profile.localeCompare(y.profile)) }));
}

/**
 * The comparison of `byProfile`, with the scenario's own profile ids marked. A profile whose API
 * rejects one of the requests (a rule of its own, e.g. no mid-conversation system message:
 * Totals.rejected) shows the rejection, not figures; one without a price says so.
 */
export function providerComparison(byProfile: readonly ProfileTotals[], own: readonly string[], common: readonly string[] = COMMON): Comparison {
  const priced = byProfile.filter((p) => p.totals.costUsd !== null);
  const costOf = new Map(byProfile.map((p) => [p.profile, p.totals.costUsd]));
  // Bars are scaled to the dearest figure of their own view (the default one, or the disclosure's).
  const scale = (rows: readonly ProfileTotals[]): number => Math.max(0, ...rows.map((p) => Math.max(p.totals.costUsd ?? 0, p.totals.noCacheCostUsd ?? 0)));
  const row = ({ profile, title, totals: t }: ProfileTotals, max: number): ComparisonRow => {
    const a = t.exact ? '' : '≈';
    const missing = t.rejected ? rejectedText(t.rejected) : NO_PRICE;
    const usd = (x: number | null): string => (x === null ? missing : `${a}${formatUsd(x)}`);
    return {
      profile,
      title,
      cost: usd(t.costUsd),
      noCache: t.rejected ? '—' : usd(t.noCacheCostUsd),
      cached: t.rejected ? '—' : formatShare(t.cachedShare),
      bar: t.costUsd === null || !max ? null : t.costUsd / max,
      noCacheBar: t.noCacheCostUsd === null || !max ? null : t.noCacheCostUsd / max,
      own: own.includes(profile),
    };
  };
  const ownRows = priced.filter((p) => own.includes(p.profile));
  const commonRows = common.map((id) => priced.find((p) => p.profile === id && !own.includes(id))).filter((p): p is ProfileTotals => !!p);
  const pick = [...ownRows, ...commonRows].slice(0, MAX_SHOWN);
  const picked = new Set(pick.map((p) => p.profile));
  const rest = byProfile.filter((p) => !picked.has(p.profile));
  return {
    shown: grouped(
      pick.map((p) => row(p, scale(pick))),
      costOf,
    ),
    rest: grouped(
      rest.map((p) => row(p, scale(rest))),
      costOf,
    ),
    restCount: rest.length,
    unpriced: byProfile.filter((p) => p.totals.costUsd === null && !p.totals.rejected).length,
    rejected: byProfile.filter((p) => p.totals.rejected).length,
  };
}
