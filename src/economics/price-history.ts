/**
 * Which prices a request pays: the ones in force at its own instant — a figure that
 * changed on a date (`earlierPrices`: the value before, until when) — and, for a prompt longer than
 * a profile's threshold, the long-prompt tier's prices on every token of the request. The result is
 * the profile with those prices, and what was applied, so the page can say which price a request
 * paid. Only a real clock dates a request: a scenario with `startedAt:` (an imported capture's
 * instants); the illustrative clock of a hand-written scenario is no date, and it pays today's
 * prices. Pure; nothing here names a provider.
 */
import type { BilledPrice } from '../providers/shared/catalog.ts';
import type { Profile, Sourced } from './shipped-profiles.ts';

/** A price that applied instead of the profile's current one. */
export interface AppliedPrice {
  field: BilledPrice;
  value: number;
  /** Why: the figure in force before a date, or the long-prompt tier. */
  why: string;
  source: string;
  read: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The instant a request was sent, when its scenario's clock is real (`startedAt:`); NaN otherwise (today's prices). */
export function pricingInstant(scenario: { startedAt?: string }, createdAt: string): number {
  return scenario.startedAt ? Date.parse(createdAt) : Number.NaN;
}

/** The profile with the prices a request of `inputTokens` prompt tokens sent at `atMs` (NaN: undated, today's) pays, and the figures that differ from its current ones. */
export function pricesAt(p: Profile, atMs: number, inputTokens: number): { profile: Profile; applied: AppliedPrice[] } {
  if (!p.earlierPrices?.length && !p.longPrompt) return { profile: p, applied: [] };
  const prices = { ...p.prices };
  const applied: AppliedPrice[] = [];
  const put = (field: BilledPrice, f: Sourced, why: string): void => {
    prices[field] = f;
    const i = applied.findIndex((a) => a.field === field);
    const a = { field, value: f.value, why, source: f.source, read: f.read };
    if (i >= 0) applied[i] = a;
    else applied.push(a);
  };
  const tier = p.longPrompt;
  const seen = new Set<BilledPrice>();
  if (tier && inputTokens > tier.aboveTokens.value)
    for (const [field, f] of Object.entries(tier.prices) as [BilledPrice, Sourced][]) {
      put(field, f, `the prompt is longer than ${tier.aboveTokens.value.toLocaleString('en-US')} tokens`);
      seen.add(field);
    }
  // The earliest change still ahead of the request decides each field (entries are oldest first); a tier's figure is its own.
  for (const e of Number.isFinite(atMs) ? (p.earlierPrices ?? []) : []) {
    if (seen.has(e.field) || !DAY.test(e.until) || atMs >= Date.parse(`${e.until}T00:00:00Z`)) continue;
    seen.add(e.field);
    put(e.field, e.value, `in force until ${e.until}`);
  }
  return { profile: { ...p, prices }, applied };
}
