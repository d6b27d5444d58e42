/**
 * The what-if of a provider whose implicit cache has no documented retention but that offers an
 * explicit cache billed per token-hour of storage (a profile with `prices.storagePerHour`: Gemini's
 * `cachedContents`): as-is (the implicit cache, no guarantee) beside "explicit cache of
 * the system prompt" — the leading system messages of the first request put in a cache created at
 * that request (its tokens billed once at the input price), kept for the conversation's span (first
 * to last request) and billed for storage over it, read at the cached price by every request that
 * starts with them; the rest of each request at the input price. Priced at each request's own
 * instant. A system prompt below the model's minimum is no choice (nothing can be cached). Nothing
 * here names a provider.
 */
import type { RenderedScenario } from '../prompt/render.ts';
import { scenarioEconomics, type Totals } from './compute.ts';
import { pricesAt } from './price-history.ts';
import { perM, tidy } from './price.ts';
import type { Profile } from './shipped-profiles.ts';
import { tokenizer } from './tokens.ts';
import type { EconomicsConfig } from './profiles.ts';

export interface ExplicitCacheChoice {
  asIs: Totals;
  explicit: Totals;
  /** Tokens of the cached system prompt, hours stored, and what the storage cost. */
  prefixTokens: number;
  hours: number;
  storageUsd: number;
}

/** The leading system messages of a request, as one text (empty: none). */
const leadingSystem = (messages: readonly { role: string; content: string }[]): string => {
  const out: string[] = [];
  for (const m of messages) {
    if (m.role !== 'system') break;
    out.push(m.content);
  }
  return out.join('\n');
};

export function explicitCacheChoice(r: RenderedScenario, config: EconomicsConfig, p: Profile): ExplicitCacheChoice | undefined {
  const storage = p.prices.storagePerHour;
  const first = r.requests[0];
  if (!storage || !first || !p.prices.input || !p.prices.cachedInput) return undefined;
  const econ = scenarioEconomics(r, config, { profile: p.id, attribute: false });
  const system = leadingSystem(first.messages);
  if (!system) return undefined;
  const t = tokenizer(p.tokenizer === 'approx' ? 'o200k_base' : p.tokenizer);
  const P = t.count(system);
  // The caching page's minimum input token count holds for a cache too: a smaller system prompt cannot be cached.
  if (P < p.minPrefixTokens.value) return undefined;
  const byOffset = new Map(econ.requests.map((e) => [e.offset, e]));
  const at = (ms: number) => pricesAt(p, ms, 0).profile.prices;
  let input = 0;
  let cached = 0;
  let output = 0;
  let cachedTokens = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  for (const q of r.requests) {
    const e = byOffset.get(q.offset);
    if (!e) continue;
    const pr = at(Date.parse(q.createdAt));
    const reads = leadingSystem(q.messages) === system ? Math.min(P, e.inputTokens) : 0;
    input += perM(e.inputTokens - reads, pr.input!.value);
    cached += perM(reads, pr.cachedInput!.value);
    output += e.outputTokens ? perM(e.outputTokens, pr.output?.value ?? 0) : 0;
    cachedTokens += reads;
    inputTokens += e.inputTokens;
    outputTokens += e.outputTokens ?? 0;
  }
  const t0 = Date.parse(first.createdAt);
  const hours = (Date.parse(r.requests.at(-1)!.createdAt) - t0) / 3_600_000;
  const storageUsd = tidy(perM(P, storage.value) * hours);
  // Creating the cache bills its tokens once at the input price.
  const writes = tidy(perM(P, at(t0).input!.value) + storageUsd);
  const costUsd = tidy(input + cached + output + writes);
  const explicit: Totals = {
    ...econ.totals,
    cachedTokens,
    uncachedTokens: inputTokens - cachedTokens,
    cacheWriteTokens: P,
    outputTokens,
    tokensLost: 0,
    costUsd,
    cost: { input: tidy(input), cached: tidy(cached), writes, output: tidy(output) },
    lostCostUsd: 0,
    cachedShare: inputTokens ? cachedTokens / inputTokens : null,
  };
  return { asIs: econ.totals, explicit, prefixTokens: P, hours, storageUsd };
}
