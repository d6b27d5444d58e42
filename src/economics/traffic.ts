/**
 * The traffic summary of an imported log: a log imported with `--out-dir` becomes one
 * scenario per conversation plus a manifest (`<prefix>.traffic.json`) listing them; this module
 * adds up those scenarios' economics — conversations, requests, input tokens, cached share, cost,
 * the cost lost to cache misses by cause and by the change responsible, the worst conversations,
 * and the provider's billed usage beside the model where the log carried it. Read by `npm run
 * report` (`traffic` in `--json`) and the site's traffic page. Pure: the rendered corpus and the
 * manifest in, figures out; every total is the sum of the conversations' own figures.
 */
import * as z from 'zod';
import type { RenderedScenario } from '../prompt/render.ts';
import { totalsOf, type Cause, type RequestEconomics, type Totals } from './compute.ts';
import type { ReportInput } from './report.ts';
import { formatShare, formatTokens, formatUsd, NO_PRICE } from './format.ts';
import { changeOf } from './traffic-change.ts';

/** File name ending of a log's manifest, beside its scenarios. */
export const TRAFFIC_SUFFIX = '.traffic.json';

/** What `npm run import -- <log> --out-dir` writes beside the scenarios (read back: untrusted, checked). */
export const trafficManifestSchema = z.strictObject({
  /** The log, as the import named it. */
  log: z.string(),
  /** The scenario ids' prefix (names the summary: /traffic/<prefix>/). */
  prefix: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/),
  formats: z.array(z.string()),
  /** Non-blank lines of the log. */
  lines: z.int().nonnegative(),
  conversations: z.array(
    z.strictObject({
      id: z.string(),
      groupedBy: z.string(),
      key: z.string(),
      requests: z.int().nonnegative(),
      lines: z.tuple([z.int().positive(), z.int().positive()]),
    }),
  ),
});
export type TrafficManifest = z.infer<typeof trafficManifestSchema>;

export interface UsageFigures {
  inputTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
}

export interface TrafficConversation {
  id: string;
  groupedBy: string;
  key: string;
  requests: number;
  totals: Totals;
  /** Requests that carried the provider's usage: its sum, and the model's figures for the same requests. */
  measured: { requests: number; billed: UsageFigures; modelled: UsageFigures } | null;
}

export interface LossLine {
  requests: number;
  tokensLost: number;
  /** Null when a request involved has no price. */
  lostCostUsd: number | null;
}

export interface TrafficSummary {
  log: string;
  prefix: string;
  conversations: number;
  requests: number;
  /** Over every request of every conversation. */
  totals: Totals;
  /** Misses (requests whose cache broke and lost tokens), by cause, most costly first. */
  byCause: (LossLine & { cause: Cause })[];
  /** The same misses by the change responsible (what differed in the request that broke the prefix). */
  byChange: (LossLine & { change: string; conversations: number })[];
  /** Up to ten conversations that lost the most (cost, else tokens). */
  worst: { id: string; lostCostUsd: number | null; tokensLost: number; cachedShare: number | null }[];
  measured: { requests: number; billed: UsageFigures; modelled: UsageFigures } | null;
  perConversation: TrafficConversation[];
  /** Conversations the manifest lists that the corpus does not hold (removed since the import). */
  missing: string[];
}

const zero = (): UsageFigures => ({ inputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0 });
const add = (a: UsageFigures, b: UsageFigures): void => {
  a.inputTokens += b.inputTokens;
  a.cachedTokens += b.cachedTokens;
  a.cacheWriteTokens += b.cacheWriteTokens;
};
const tidy = (n: number): number => Math.round(n * 1e9) / 1e9;

type Obj = Record<string, unknown>;
const payloadOf = (r: RenderedScenario, offset: number): Obj | undefined => r.scenario.events.find((e) => e.offset === offset)?.payload as Obj | undefined;

function measuredOf(r: RenderedScenario, requests: readonly RequestEconomics[]): TrafficConversation['measured'] {
  let n = 0;
  const billed = zero();
  const modelled = zero();
  for (const e of requests) {
    const m = payloadOf(r, e.offset)?.measured as Partial<UsageFigures> | undefined;
    if (!m) continue;
    n++;
    add(billed, { inputTokens: m.inputTokens ?? 0, cachedTokens: m.cachedTokens ?? 0, cacheWriteTokens: m.cacheWriteTokens ?? 0 });
    add(modelled, { inputTokens: e.inputTokens, cachedTokens: e.cachedTokens, cacheWriteTokens: e.cacheWriteTokens });
  }
  return n ? { requests: n, billed, modelled } : null;
}

/** The request body before the one at `offset` in the scenario's chain, and that one's. */
function bodies(r: RenderedScenario, offset: number): [Obj | undefined, Obj | undefined] {
  const events = r.scenario.chain.filter((e) => r.fold.requestTypes.includes(e.type));
  const i = events.findIndex((e) => e.offset === offset);
  const body = (k: number): Obj | undefined => (events[k]?.payload as Obj | undefined)?.body as Obj | undefined;
  return [i > 0 ? body(i - 1) : undefined, body(i)];
}

export function trafficSummary(corpus: ReportInput, manifest: TrafficManifest): TrafficSummary {
  const byId = new Map(corpus.scenarios.map((r) => [r.scenario.id, r]));
  const per: TrafficConversation[] = [];
  const all: RequestEconomics[] = [];
  const causes = new Map<Cause, LossLine>();
  const changes = new Map<string, LossLine & { ids: Set<string> }>();
  const missing: string[] = [];
  const line = (l: LossLine, e: RequestEconomics): void => {
    l.requests++;
    l.tokensLost += e.cacheBreak!.tokensLost;
    l.lostCostUsd = l.lostCostUsd === null || e.cacheBreak!.lostCostUsd === null ? null : tidy(l.lostCostUsd + e.cacheBreak!.lostCostUsd);
  };
  for (const c of manifest.conversations) {
    const r = byId.get(c.id);
    const econ = corpus.economics.get(c.id);
    if (!r || !econ) {
      missing.push(c.id);
      continue;
    }
    all.push(...econ.requests);
    per.push({ id: c.id, groupedBy: c.groupedBy, key: c.key, requests: econ.requests.length, totals: econ.totals, measured: measuredOf(r, econ.requests) });
    for (const e of econ.requests) {
      const b = e.cacheBreak;
      if (!b || (b.tokensLost === 0 && !b.lostCostUsd)) continue;
      line(causes.get(b.cause) ?? causes.set(b.cause, { requests: 0, tokensLost: 0, lostCostUsd: 0 }).get(b.cause)!, e);
      const at = b.events.at(-1) ?? e.offset;
      const [before, after] = bodies(r, at);
      const change = changeOf(b.cause, before, after);
      const l = changes.get(change) ?? changes.set(change, { requests: 0, tokensLost: 0, lostCostUsd: 0, ids: new Set() }).get(change)!;
      line(l, e);
      l.ids.add(c.id);
    }
  }
  const costly = <T extends LossLine>(a: T, b: T): number => (b.lostCostUsd ?? 0) - (a.lostCostUsd ?? 0) || b.tokensLost - a.tokensLost;
  const measured = per.filter((p) => p.measured);
  return {
    log: manifest.log,
    prefix: manifest.prefix,
    conversations: per.length,
    requests: all.length,
    totals: totalsOf(all),
    byCause: [...causes].map(([cause, l]) => ({ cause, ...l })).sort((a, b) => costly(a, b) || (a.cause < b.cause ? -1 : 1)),
    byChange: [...changes].map(([change, { ids, ...l }]) => ({ change, conversations: ids.size, ...l })).sort((a, b) => costly(a, b) || (a.change < b.change ? -1 : 1)),
    worst: per
      .filter((p) => p.totals.tokensLost > 0 || (p.totals.lostCostUsd ?? 0) > 0)
      .sort((a, b) => (b.totals.lostCostUsd ?? 0) - (a.totals.lostCostUsd ?? 0) || b.totals.tokensLost - a.totals.tokensLost || (a.id < b.id ? -1 : 1))
      .slice(0, 10)
      .map((p) => ({ id: p.id, lostCostUsd: p.totals.lostCostUsd, tokensLost: p.totals.tokensLost, cachedShare: p.totals.cachedShare })),
    measured: measured.length
      ? measured.reduce(
          (m, p) => {
            m.requests += p.measured!.requests;
            add(m.billed, p.measured!.billed);
            add(m.modelled, p.measured!.modelled);
            return m;
          },
          { requests: 0, billed: zero(), modelled: zero() },
        )
      : null,
    perConversation: per,
    missing,
  };
}

const usd = (x: number | null, exact: boolean): string => (x === null ? NO_PRICE : `${exact ? '' : '≈'}${formatUsd(x)}`);

/** The summary as text (the report's section for the log). */
export function trafficLines(s: TrafficSummary): string[] {
  const t = s.totals;
  const out = [
    `traffic of ${s.log} (${s.prefix}-…): ${s.conversations} conversations, ${s.requests} requests, ${formatTokens(t.inputTokens, t.exact)} input tokens, ${formatShare(t.cachedShare)} cached, ${usd(t.costUsd, t.exact)}; lost to cache misses: ${formatTokens(t.tokensLost, t.exact)} tokens, ${usd(t.lostCostUsd, t.exact)}`,
  ];
  for (const c of s.byCause) out.push(`  by cause — ${c.cause}: ${c.requests} requests, −${formatTokens(c.tokensLost, t.exact)} tokens, ${usd(c.lostCostUsd, t.exact)}`);
  for (const c of s.byChange)
    out.push(
      `  by change — ${c.change}: ${c.requests} requests in ${c.conversations} conversations, −${formatTokens(c.tokensLost, t.exact)} tokens, ${usd(c.lostCostUsd, t.exact)}`,
    );
  if (s.worst.length) out.push(`  worst: ${s.worst.map((w) => `${w.id} (${usd(w.lostCostUsd, t.exact)})`).join(', ')}`);
  if (s.measured) {
    const m = s.measured;
    out.push(
      `  billed (${m.requests} requests with usage): ${formatTokens(m.billed.inputTokens)} input, ${formatTokens(m.billed.cachedTokens)} cached, ${formatTokens(m.billed.cacheWriteTokens)} written — modelled: ${formatTokens(m.modelled.inputTokens, t.exact)}, ${formatTokens(m.modelled.cachedTokens, t.exact)}, ${formatTokens(m.modelled.cacheWriteTokens, t.exact)}`,
    );
  }
  if (s.missing.length) out.push(`  not in the corpus (removed since the import): ${s.missing.join(', ')}`);
  return out;
}
