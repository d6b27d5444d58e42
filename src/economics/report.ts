/**
 * The machine-readable cache-economics report (`npm run report -- --json`) and its readable table:
 * every scenario's own requests with their tokens, cached tokens, cost and cache break. The JSON
 * shape is the one CI jobs and scripts consume; keep it stable.
 */
import type { RenderedCorpus } from '../prompt/corpus.ts';
import type { CacheBreak, RequestEconomics, ScenarioEconomics } from './compute.ts';
import { formatShare, formatTokens, formatUsd, NO_PRICE } from './format.ts';
import { measuredComparison, measuredLines, measuredReportFields, type MeasuredReportFields } from './measured.ts';

export interface ReportRequest {
  offset: number;
  model: string;
  profile: string;
  exact: boolean;
  inputTokens: number;
  prefixTokens: number;
  cachedTokens: number;
  uncachedTokens: number;
  outputTokens: number | null;
  costUsd: number | null;
  cacheBreak: CacheBreak | null;
}

export interface Report {
  /** Each request also carries what the provider billed and the difference (measured.ts); `measuredSummary` when any does. */
  scenarios: { id: string; file: string; requests: (ReportRequest & MeasuredReportFields)[]; measuredSummary?: string }[];
}

const row = (e: RequestEconomics): ReportRequest => ({
  offset: e.offset,
  model: e.model,
  profile: e.profile,
  exact: e.exact,
  inputTokens: e.inputTokens,
  prefixTokens: e.prefixTokens,
  cachedTokens: e.cachedTokens,
  uncachedTokens: e.uncachedTokens,
  outputTokens: e.outputTokens,
  costUsd: e.costUsd,
  cacheBreak: e.cacheBreak && { cause: e.cacheBreak.cause, events: [...e.cacheBreak.events], tokensLost: e.cacheBreak.tokensLost },
});

export function buildReport(corpus: RenderedCorpus): Report {
  return {
    scenarios: corpus.scenarios.map((r) => {
      const econ = corpus.economics.get(r.scenario.id);
      const m = econ && measuredComparison(r, econ);
      const byOffset = new Map(m?.requests.map((q) => [q.offset, q]));
      const requests = (econ?.requests ?? []).map((e) => ({ ...row(e), ...measuredReportFields(byOffset.get(e.offset)) }));
      return { id: r.scenario.id, file: r.scenario.file, requests, ...(m && { measuredSummary: m.summary }) };
    }),
  };
}

/** One line describing a cache break: `system-changed @40 (−661 tokens)`. */
export function describeBreak(b: CacheBreak | null, exact = true): string {
  if (!b) return '';
  const events = b.events.map((o) => `@${o}`).join(' ');
  return `${b.cause}${events ? ` ${events}` : ''}${b.tokensLost ? ` (−${formatTokens(b.tokensLost, exact)})` : ''}`;
}

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function reportTable(corpus: RenderedCorpus): string {
  const out: string[] = [];
  for (const r of corpus.scenarios) {
    const econ = corpus.economics.get(r.scenario.id) as ScenarioEconomics | undefined;
    if (!econ) continue;
    const t = econ.totals;
    out.push(`${r.scenario.id} (${r.scenario.file}) — profile ${econ.profiles.map((p) => `${p.id} (by ${p.matched} ${p.by})`).join(', ') || '—'}`);
    out.push(
      table(
        ['request', 'input', 'prefix', 'cached', 'new', 'output', 'cost', 'cache break'],
        econ.requests.map((e) => [
          `@${e.offset}`,
          formatTokens(e.inputTokens, e.exact),
          formatTokens(e.prefixTokens, e.exact),
          formatTokens(e.cachedTokens, e.exact),
          formatTokens(e.uncachedTokens, e.exact),
          e.outputTokens === null ? '—' : formatTokens(e.outputTokens, e.exact),
          e.costUsd === null ? NO_PRICE : formatUsd(e.costUsd),
          describeBreak(e.cacheBreak, e.exact),
        ]),
      ),
    );
    const cost = t.costUsd === null ? NO_PRICE : `${formatUsd(t.costUsd)} (no caching: ${formatUsd(t.noCacheCostUsd!)})`;
    out.push(`total: ${formatTokens(t.inputTokens, t.exact)} input tokens, ${formatShare(t.cachedShare)} cached, ${cost}`);
    out.push(...measuredLines(measuredComparison(r, econ)), '');
  }
  if (corpus.scenarios.some((r) => corpus.economics.get(r.scenario.id)?.profiles.some((p) => !p.priced))) {
    out.push(
      `${NO_PRICE}: add prices for a profile in astro.config.mjs — explainer({economics: {profiles: {"<id>": {prices: {input, cachedInput, cacheWrite, output}}}}}) (USD per million tokens)`,
    );
  }
  return `${out.join('\n').trimEnd()}\n`;
}
