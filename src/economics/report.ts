/**
 * The machine-readable cache-economics report (`npm run report -- --json`) and its readable table:
 * every scenario's own requests with their tokens, cached tokens, cost and cache break. The JSON
 * shape is the one CI jobs and scripts consume; keep it stable.
 */
import type { RenderedScenario } from '../prompt/render.ts';
import { totalsOf, underEveryProfile, type CacheBreak, type RequestEconomics, type ScenarioEconomics, type Totals } from './compute.ts';
import type { EconomicsConfig } from './profiles.ts';
import { formatShare, formatTokens, formatUsd, NO_PRICE, rejectedText } from './format.ts';
import { corpusVerdictSummary, providerVerdicts, type ProviderVerdicts, type VerdictRow } from './provider-verdict.ts';
import { outputExact } from './view.ts';
import { measuredComparison, measuredLines, measuredReportFields, type MeasuredReportFields } from './measured.ts';
import { configFile } from '../project.ts';

/** The record's fields a report row carries, in the JSON's key order. */
const CARRIED = [
  'offset',
  'model',
  'profile',
  'exact',
  'inputTokens',
  'prefixTokens',
  'cachedTokens',
  'readFrom',
  'uncachedTokens',
  'cacheWriteTokens',
  'cacheWriteTokens1h',
  'breakpointTokens',
  'outputTokens',
  'outputSource',
  'costUsd',
  'cost',
  'noCacheCostUsd',
  'expired',
  'idleMs',
  'apiError',
  'cacheBreak',
] as const satisfies readonly (keyof RequestEconomics)[];

type Carried = (typeof CARRIED)[number];

/**
 * One request of the report: the record's own fields (RequestEconomics, see there for each), an
 * optional one written as null when absent (`idleMs`, `apiError`), so every row has every key.
 */
export type ReportRequest = { [K in Carried]-?: undefined extends RequestEconomics[K] ? Exclude<RequestEconomics[K], undefined> | null : RequestEconomics[K] } & {
  /** The scenario that wrote the entry read, when it is another one sharing the cache (absent otherwise). */
  readFromScenario?: string;
};

export interface ReportScenario {
  id: string;
  file: string;
  requests: (ReportRequest & MeasuredReportFields)[];
  measuredSummary?: string;
  /** The provider's own verdicts on misses beside ours (provider-verdict.ts), when the capture carries them. */
  providerVerdicts?: { summary: string; compared: number; agreed: number; providerSide: number; rows: VerdictRow[] };
  /** The requests never ask for caching (unasked.ts): the sentence, and each way of asking with what it saves. */
  unaskedCaching?: {
    sentence: string;
    options: { id: string; label: string; savedUsd: number | null; per1000Usd: number | null; cachedTokens: number; cacheWriteTokens: number }[];
  };
  totals: Totals;
  /** With `--all-profiles`: the same requests under every configured profile. */
  profiles?: { profile: string; title: string; requests: ReportRequest[]; totals: Totals }[];
}

export interface Report {
  /** Each request also carries what the provider billed and the difference (measured.ts); `measuredSummary` when any does. */
  scenarios: ReportScenario[];
}

/** A deep copy of a record's carried fields (absent optional ones as null). */
const row = (e: RequestEconomics): ReportRequest =>
  structuredClone({
    ...Object.fromEntries(CARRIED.map((k) => [k, e[k] ?? null])),
    // Only on a request that read another scenario's entry (`sharesCache:`), so other rows keep their keys.
    ...(e.readFromScenario !== undefined && { readFromScenario: e.readFromScenario }),
  }) as ReportRequest;

/** The report; `allProfiles` (with the economics config) adds every scenario's requests under every profile. */
/** What a report reads of a rendered corpus (src/corpus/check.ts): its scenarios and their economics. */
export interface ReportInput {
  scenarios: readonly RenderedScenario[];
  economics: ReadonlyMap<string, ScenarioEconomics>;
}

export function buildReport(corpus: ReportInput, opts: { allProfiles?: EconomicsConfig } = {}): Report {
  // Scenarios linked by `sharesCache:` are simulated with each other (shared-cache.ts).
  const byId = new Map(corpus.scenarios.filter((r) => !r.foldFailed).map((r) => [r.scenario.id, r]));
  return {
    scenarios: corpus.scenarios.map((r) => {
      const econ = corpus.economics.get(r.scenario.id);
      const m = econ && measuredComparison(r, econ);
      const byOffset = new Map(m?.requests.map((q) => [q.offset, q]));
      const requests = (econ?.requests ?? []).map((e) => ({ ...row(e), ...measuredReportFields(byOffset.get(e.offset)) }));
      const u = econ?.unasked;
      const v = econ && providerVerdicts(r, econ);
      const out: ReportScenario = {
        id: r.scenario.id,
        file: r.scenario.file,
        requests,
        ...(m && { measuredSummary: m.summary }),
        ...(v && { providerVerdicts: structuredClone(v) }),
        ...(u && {
          unaskedCaching: {
            sentence: u.sentence,
            options: u.options.map((o) => ({
              id: o.id,
              label: o.label,
              savedUsd: o.savedUsd,
              per1000Usd: o.per1000Usd,
              cachedTokens: o.totals.cachedTokens,
              cacheWriteTokens: o.totals.cacheWriteTokens,
            })),
          },
        }),
        totals: econ?.totals ?? totalsOf([]),
      };
      const c = opts.allProfiles;
      if (c)
        out.profiles = underEveryProfile(r, c, true, byId).map(({ profile: p, requests }) => ({
          profile: p.id,
          title: p.title,
          requests: requests.map(row),
          totals: totalsOf(requests),
        }));
      return out;
    }),
  };
}

/** One line describing a cache break: `system-changed @40 (−661 tokens, $0.0012)`. */
export function describeBreak(b: CacheBreak | null, exact = true): string {
  if (!b) return '';
  const events = b.events.map((o) => `@${o}`).join(' ');
  const cost = b.lostCostUsd ? `, ${exact ? '' : '≈'}${formatUsd(b.lostCostUsd)}` : '';
  return `${b.cause}${events ? ` ${events}` : ''}${b.tokensLost ? ` (−${formatTokens(b.tokensLost, exact)}${cost})` : ''}`;
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

export function reportTable(corpus: ReportInput, opts: { allProfiles?: EconomicsConfig } = {}): string {
  const out: string[] = [];
  const verdicts: ProviderVerdicts[] = [];
  const side = opts.allProfiles ? buildReport(corpus, opts) : undefined;
  for (const r of corpus.scenarios) {
    const econ = corpus.economics.get(r.scenario.id) as ScenarioEconomics | undefined;
    if (!econ) continue;
    const t = econ.totals;
    out.push(`${r.scenario.id} (${r.scenario.file}) — profile ${econ.profiles.map((p) => `${p.id} (by ${p.matched} ${p.by})`).join(', ') || '—'}`);
    if (econ.unasked) out.push(econ.unasked.sentence);
    out.push(
      table(
        ['request', 'input', 'prefix', 'cached', 'writes', 'new', 'output', 'cost', 'cache break'],
        econ.requests.map((e) => [
          `@${e.offset}`,
          formatTokens(e.inputTokens, e.exact),
          formatTokens(e.prefixTokens, e.exact),
          formatTokens(e.cachedTokens, e.exact),
          formatTokens(e.cacheWriteTokens, e.exact),
          formatTokens(e.uncachedTokens, e.exact),
          e.outputTokens === null ? '—' : formatTokens(e.outputTokens, outputExact(e)),
          e.apiError ? `API error: ${e.apiError}` : e.costUsd === null ? NO_PRICE : `${e.exact ? '' : '≈'}${formatUsd(e.costUsd)}`,
          describeBreak(e.cacheBreak, e.exact),
        ]),
      ),
    );
    const a = t.exact ? '' : '≈';
    const cost = t.costUsd === null ? NO_PRICE : `${a}${formatUsd(t.costUsd)} (no caching: ${a}${formatUsd(t.noCacheCostUsd!)})`;
    out.push(`total: ${formatTokens(t.inputTokens, t.exact)} input tokens, ${formatShare(t.cachedShare)} cached, ${cost}`);
    out.push(...measuredLines(measuredComparison(r, econ)));
    const v = providerVerdicts(r, econ);
    if (v) {
      verdicts.push(v);
      out.push(`provider's verdict: ${v.summary}`);
    }
    out.push('');
    const every = side?.scenarios.find((x) => x.id === r.scenario.id)?.profiles;
    if (every?.length) {
      out.push(
        table(
          ['profile', 'input', 'cached', 'writes', 'lost', 'cost', 'no caching'],
          // A profile whose API rejects a request has no figures for the stream: the rejection instead.
          every.map(({ profile, totals: x }) =>
            x.rejected
              ? [profile, formatTokens(x.inputTokens, x.exact), '—', '—', '—', rejectedText(x.rejected), '—']
              : [
                  profile,
                  formatTokens(x.inputTokens, x.exact),
                  `${formatTokens(x.cachedTokens, x.exact)} (${formatShare(x.cachedShare)})`,
                  formatTokens(x.cacheWriteTokens, x.exact),
                  formatTokens(x.tokensLost, x.exact),
                  x.costUsd === null ? NO_PRICE : `${x.exact ? '' : '≈'}${formatUsd(x.costUsd)}`,
                  x.noCacheCostUsd === null ? NO_PRICE : `${x.exact ? '' : '≈'}${formatUsd(x.noCacheCostUsd)}`,
                ],
          ),
        ),
        '',
      );
    }
  }
  // Over the whole log (every scenario of the corpus): how often the provider's verdict agrees with ours.
  if (verdicts.length > 1) out.push(`provider's verdict over ${verdicts.length} conversations: ${corpusVerdictSummary(verdicts)}`, '');
  if (corpus.scenarios.some((r) => corpus.economics.get(r.scenario.id)?.profiles.some((p) => !p.priced))) {
    out.push(
      `${NO_PRICE}: add prices for a profile in ${configFile()} — explainer({economics: {profiles: {"<id>": {prices: {input, cachedInput, cacheWrite, output}}}}}) (USD per million tokens)`,
    );
  }
  return `${out.join('\n').trimEnd()}\n`;
}
