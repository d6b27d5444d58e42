/** The every-provider comparison: grouped by provider, cheapest first, own marked, common models shown, the rest (and every unpriced row) disclosed. */
import { describe, expect, it } from 'vitest';
import type { ProfileTotals, Totals } from '../economics/compute.ts';
import { MAX_SHOWN, providerComparison, providerNameOf } from './provider-comparison.ts';

const t = (costUsd: number | null, noCacheCostUsd: number | null = costUsd === null ? null : costUsd * 2): Totals =>
  ({ costUsd, noCacheCostUsd, cachedShare: 0.5, exact: true, rejected: 0 }) as Totals;
const row = (profile: string, cost: number | null): ProfileTotals => ({ profile, title: profile, totals: t(cost) });

describe('providerComparison', () => {
  const rows = [
    row('openai-gpt-5.6-terra', 0.02),
    row('openai-gpt-5.4-mini', 0.004),
    row('openai-gpt-4o', 0.03),
    row('anthropic-claude-sonnet-4.5', 0.036),
    row('anthropic-claude-haiku-5.5', 0.0096),
    row('anthropic-claude-opus-4', 0.2),
    row('anthropic', null),
    row('unknown', null),
  ];

  it('shows the common and own priced profiles grouped and sorted, the own one marked; the rest behind the disclosure', () => {
    const c = providerComparison(rows, ['openai-gpt-4o']);
    expect(c.shown.map((g) => [g.provider, g.rows.map((r) => r.profile)])).toEqual([
      ['OpenAI', ['openai-gpt-5.4-mini', 'openai-gpt-5.6-terra', 'openai-gpt-4o']],
      ['Anthropic', ['anthropic-claude-haiku-5.5', 'anthropic-claude-sonnet-4.5']],
    ]);
    expect(
      c.shown
        .flatMap((g) => g.rows)
        .filter((r) => r.own)
        .map((r) => r.profile),
    ).toEqual(['openai-gpt-4o']);
    expect(c.rest.map((g) => [g.provider, g.rows.map((r) => r.profile)])).toEqual([
      ['Anthropic', ['anthropic-claude-opus-4', 'anthropic']],
      ['Other', ['unknown']],
    ]);
    expect([c.restCount, c.unpriced, c.rejected]).toEqual([3, 2, 0]);
    // Bars on the default view's own scale: the dearest figure there is sonnet's no-caching 0.072.
    const sonnet = c.shown[1]!.rows[1]!;
    expect([sonnet.bar, sonnet.noCacheBar]).toEqual([0.5, 1]);
    expect(c.rest[0]!.rows[1]!.cost).toBe('no price configured');
  });

  it('a profile whose API rejects a request shows the rejection, not figures, and is counted apart from the unpriced', () => {
    const rejecting = rows.map((r) => (r.profile === 'anthropic' ? { ...r, totals: { ...r.totals, rejected: 2 } } : r));
    const c = providerComparison(rejecting, []);
    expect([c.unpriced, c.rejected]).toEqual([1, 1]);
    const anthropic = c.rest.flatMap((g) => g.rows).find((r) => r.profile === 'anthropic')!;
    expect([anthropic.cost, anthropic.noCache, anthropic.cached]).toEqual(['rejected by the API (2 requests)', '—', '—']);
    expect(c.rest.flatMap((g) => g.rows).find((r) => r.profile === 'unknown')!.cost).toBe('no price configured');
  });

  it('an unpriced own profile is not in the default view; at most MAX_SHOWN rows are', () => {
    expect(
      providerComparison(rows, ['anthropic'])
        .shown.flatMap((g) => g.rows)
        .some((r) => r.profile === 'anthropic'),
    ).toBe(false);
    const many = Array.from({ length: 20 }, (_, i) => row(`p${i}`, i + 1));
    const c = providerComparison(
      many,
      [],
      many.map((r) => r.profile),
    );
    expect(c.shown.flatMap((g) => g.rows)).toHaveLength(MAX_SHOWN);
    expect(c.restCount).toBe(20 - MAX_SHOWN);
  });

  it('names providers from the catalog and the fallbacks', () => {
    expect(['openai-gpt-5.5', 'anthropic-claude-opus-5.5', 'openai-automatic', 'anthropic', 'unknown', 'acme'].map(providerNameOf)).toEqual([
      'OpenAI',
      'Anthropic',
      'OpenAI',
      'Anthropic',
      'Other',
      'Other',
    ]);
  });
});
