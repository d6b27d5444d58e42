/**
 * What the provider billed for a scenario's own requests, read from the figures the capture carries
 * (`measured`, an imported trace's response usage): the totals a page leads with, what each request
 * failed to read from the cache that the previous one had there (the billed miss). What the
 * capture does not show of a request is measured.ts's (`unseenTokens`, from the payload's
 * `unrecorded`): one reading for the lede and the table. Pure: the figures come from the payloads
 * and from the economics run (scenarioEconomics), never recomputed here; the cost is the bill's
 * tokens priced with the request's profile (price.ts `costs`).
 *
 * Billed cache writes are priced at the profile's 5-minute write price, except those the bill says
 * were written for an hour (`measured.cacheWrite1hTokens`, from Anthropic's `cache_creation`
 * breakdown), at the 1-hour price.
 *
 * The bill is priced at the prices in force at the request's own instant, as the model is
 * (price-history.ts `pricesAt`: a scenario with a real clock, `startedAt:`, pays the prices of its
 * dates; the long-prompt tier by the bill's own input count) — so the billed and modelled costs of
 * one request never differ by a price change alone.
 */
import type { RenderedScenario } from '../prompt/render.ts';
import type { ScenarioView } from '../prompt/view.ts';
import { formatTokens, formatUsd } from './format.ts';
import type { ScenarioEconomics } from './compute.ts';
import { measuredOfPayload } from './measured.ts';
import { pricesAt, pricingInstant } from './price-history.ts';
import { costs, tidy } from './price.ts';
import type { Profile } from './shipped-profiles.ts';

export interface BilledRequest {
  offset: number;
  inputTokens: number;
  /** null: not reported. */
  cachedTokens: number | null;
  cacheWriteTokens: number | null;
  /** Of the writes, those the bill says were written for an hour (priced at the 1-hour write price). */
  cacheWrite1hTokens: number;
  outputTokens: number | null;
  /**
   * Tokens the previous request left in the cache (what it read plus what it wrote) that this one
   * did not read: the billed miss. 0 for the first request, or where a figure is not reported.
   */
  lostTokens: number;
  /** The bill's tokens priced (null: no price, or a figure not reported); output included only when reported. */
  costUsd: number | null;
}

export interface Billed {
  /** Own requests with billed figures, in order. */
  requests: BilledRequest[];
  /** Own requests of the scenario (with or without billed figures). */
  ownRequests: number;
  inputTokens: number;
  /** Totals of a figure some request did not report are null: not known. */
  cachedTokens: number | null;
  cacheWriteTokens: number | null;
  outputTokens: number | null;
  /** The bill's tokens priced (null: a price or a figure is missing). Without output tokens: input only. */
  costUsd: number | null;
  noCacheCostUsd: number | null;
  /** The request that lost the most billed tokens (null: none lost any). */
  worst: BilledRequest | null;
  /** Every own request's model count is exact (not ≈). */
  exact: boolean;
}

/** The billed figures of `r`'s own requests; null when none carries them. Without `profiles`, nothing is priced. */
export function billedOf(r: RenderedScenario, econ: ScenarioEconomics, profiles: Readonly<Record<string, Profile>> = {}): Billed | null {
  const payloads = new Map(r.scenario.chain.map((e) => [e.offset, e.payload]));
  const sentAt = new Map(r.chain.map((q) => [q.offset, q.createdAt]));
  const requests: BilledRequest[] = [];
  let cost: number | null = 0;
  let noCache: number | null = 0;
  let prev: BilledRequest | undefined;
  for (const e of econ.requests) {
    const m = measuredOfPayload(payloads.get(e.offset));
    if (!m) {
      prev = undefined;
      continue;
    }
    const out = (payloads.get(e.offset) as { measured?: { outputTokens?: unknown } }).measured?.outputTokens;
    const outputTokens = typeof out === 'number' && Number.isInteger(out) && out >= 0 ? out : null;
    const held = prev && prev.cachedTokens !== null && prev.cacheWriteTokens !== null ? prev.cachedTokens + prev.cacheWriteTokens : null;
    const q: BilledRequest = {
      offset: e.offset,
      inputTokens: m.inputTokens,
      cachedTokens: m.cachedTokens,
      cacheWriteTokens: m.cacheWriteTokens,
      cacheWrite1hTokens: m.cacheWrite1hTokens ?? 0,
      outputTokens,
      lostTokens: held !== null && m.cachedTokens !== null ? Math.max(0, Math.min(held, m.inputTokens) - m.cachedTokens) : 0,
      costUsd: null,
    };
    const current = profiles[e.profile];
    const p = current && pricesAt(current, pricingInstant(r.scenario, sentAt.get(e.offset) ?? ''), m.inputTokens).profile;
    // A model whose price list has no write price bills no writes (OpenAI's before GPT-5.6, Gemini's implicit
    // cache: what is written is billed as input), and its usage reports none: the bill is priced without them.
    // Where writes have their own price, writes not reported leave the cost unknown.
    const writes = m.cacheWriteTokens ?? (p && !p.prices.cacheWrite && !p.prices.cacheWrite1h ? 0 : null);
    const priced = p ? costs(p, m.inputTokens, m.cachedTokens ?? 0, writes ?? 0, m.cacheWrite1hTokens ?? 0, outputTokens) : null;
    if (priced?.total != null && m.cachedTokens !== null && writes !== null) q.costUsd = priced.total;
    cost = cost === null || priced?.total == null || m.cachedTokens === null || writes === null ? null : cost + priced.total;
    noCache = noCache === null || priced?.noCache == null ? null : noCache + priced.noCache;
    requests.push(q);
    prev = q;
  }
  if (!requests.length) return null;
  const sum = (f: (q: BilledRequest) => number | null): number | null => {
    let n = 0;
    for (const q of requests) {
      const v = f(q);
      if (v === null) return null;
      n += v;
    }
    return n;
  };
  let worst: BilledRequest | null = null;
  for (const q of requests) if (q.lostTokens > (worst?.lostTokens ?? 0)) worst = q;
  return {
    requests,
    ownRequests: econ.requests.length,
    inputTokens: sum((q) => q.inputTokens)!,
    cachedTokens: sum((q) => q.cachedTokens),
    cacheWriteTokens: sum((q) => q.cacheWriteTokens),
    outputTokens: sum((q) => q.outputTokens),
    costUsd: cost === null ? null : tidy(cost),
    noCacheCostUsd: noCache === null ? null : tidy(noCache),
    worst,
    exact: econ.requests.every((e) => e.exact),
  };
}

/** A timeline card's mark for a request that did not read what the previous one left in the cache. */
export const missBadge = (q: BilledRequest): string => `⚠ billed miss: ${formatTokens(q.lostTokens)} tokens not read`;

/**
 * The page model of a scenario with a bill, as a reader of it needs it: every request that missed
 * the cache marked on its card, and — unless the scenario names its `opens:` event — the page opening
 * on the request that lost the most billed tokens. Returns a new view (the cards it marks copied).
 */
export function withBilledMisses(view: ScenarioView, billed: Billed | null, explicitOpens: boolean): ScenarioView {
  if (!billed) return view;
  const lost = new Map(billed.requests.filter((q) => q.lostTokens > 0).map((q) => [q.offset, q]));
  if (!lost.size) return view;
  return {
    ...view,
    cards: view.cards.map((c) => (lost.has(c.offset) ? { ...c, badges: [...c.badges, missBadge(lost.get(c.offset)!)] } : c)),
    ...(!explicitOpens && billed.worst && { opens: billed.worst.offset }),
  };
}

/** A request pane's billed line, beside the model's (economics/view.ts paneTokens): `billed: cached 9,037 · writes 137 · 9,177 tokens · output 122 · $0.0062`. */
export function billedPaneText(q: BilledRequest): { text: string; title: string } {
  const n = (v: number | null): string => (v === null ? '—' : formatTokens(v));
  const parts = [
    `cached ${n(q.cachedTokens)}`,
    `writes ${n(q.cacheWriteTokens)}`,
    `${formatTokens(q.inputTokens)} tokens`,
    `output ${n(q.outputTokens)}`,
    q.costUsd === null ? 'cost —' : formatUsd(q.costUsd),
  ];
  return {
    text: `billed: ${parts.join(' · ')}`,
    title: `What the provider billed for this request (its response usage); — where it did not report a figure${q.outputTokens === null ? '; the cost is input only' : ''}. ${q.cacheWrite1hTokens ? ` Cache writes priced at the 1-hour rate for the ${formatTokens(q.cacheWrite1hTokens)} the bill says were written for an hour, the 5-minute rate for the rest.` : ' Cache writes priced at the 5-minute rate.'}${q.lostTokens ? ` It did not read ${formatTokens(q.lostTokens)} tokens the previous request left in the cache.` : ''}`,
  };
}
