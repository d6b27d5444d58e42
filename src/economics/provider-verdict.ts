/**
 * The provider's own verdict on a cache miss beside ours: where an imported
 * request carries the provider's diagnosis (`providerMiss`: Anthropic's
 * `diagnostics.cache_miss_reason`, OpenAI's `prompt_cache_diagnostics`), it is set beside the cause the economics name (classify.ts) and
 * the two are counted as agreeing or not, per scenario and over a corpus ("the provider agrees on
 * 31 of 32 misses; one disagreement: …").
 *
 * How the provider's reasons map onto ours (Anthropic's cache diagnostics, read 2026-12-06):
 * `model_changed` is our `model-changed`; `system_changed` and `tools_changed` our `system-changed`
 * (tools or a system message before the entry changed); `messages_changed` our
 * `earlier-message-changed` (or a request parameter or a deploy that changed the messages entry).
 * `previous_message_not_found` and `unavailable` say nothing about the request: not compared.
 *
 * OpenAI's prompt cache diagnostics (a `cache_miss`'s `reason`; developers.openai.com/api/docs/guides/
 * prompt-caching/diagnostics, read 2026-12-06, which names the field and its use; the reason values as
 * the Responses API reference lists them in SDKs generated from it): `model_changed` and
 * `tools_changed` as above; `input_changed` (instructions or input items) our `system-changed` or
 * `earlier-message-changed` (or a deploy); `context_compacted` our `earlier-message-changed`;
 * `prompt_cache_key_changed`, `service_tier_changed`, `text_format_changed`,
 * `reasoning_effort_changed` and `verbosity_changed` a request parameter (`parameter-changed`).
 * `comparison_response_not_found` and `unavailable` say nothing about the request: not compared.
 *
 * Separately, a billed miss (the request read fewer tokens than the previous one left in the cache)
 * where the model finds no break — the bytes it repeats are identical and the entry inside its
 * retention — is labelled provider-side: nothing in the request to change.
 */
import type { RenderedScenario } from '../prompt/render.ts';
import type { Cause, ScenarioEconomics } from './compute.ts';
import { formatTokens } from './format.ts';
import { measuredOfPayload } from './measured.ts';

/** Our causes each provider reason agrees with. */
const AGREES: Record<string, readonly Cause[]> = {
  model_changed: ['model-changed'],
  system_changed: ['system-changed'],
  tools_changed: ['system-changed'],
  messages_changed: ['earlier-message-changed', 'parameter-changed', 'fold-changed'],
  input_changed: ['system-changed', 'earlier-message-changed', 'fold-changed'],
  context_compacted: ['earlier-message-changed', 'fold-changed'],
  prompt_cache_key_changed: ['parameter-changed'],
  service_tier_changed: ['parameter-changed'],
  text_format_changed: ['parameter-changed'],
  reasoning_effort_changed: ['parameter-changed'],
  verbosity_changed: ['parameter-changed'],
};

export interface VerdictRow {
  offset: number;
  /** The provider's reason as it wrote it (absent: the provider gave none for this request). */
  provider?: string;
  missedInputTokens?: number;
  /** Our cause (null: the model finds no break). */
  ours: Cause | null;
  /** The responsible events we name. */
  events: number[];
  /** null: not compared (the provider's reason says nothing about the request). */
  agrees: boolean | null;
  /** A billed miss on a byte-identical prefix inside the retention: provider-side, not actionable. */
  providerSide: boolean;
  /** Billed tokens the previous request left in the cache that this one did not read. */
  billedMissTokens: number;
}

export interface ProviderVerdicts {
  rows: VerdictRow[];
  /** Misses both sides judged, and those where they agree. */
  compared: number;
  agreed: number;
  providerSide: number;
  summary: string;
}

/** The verdict rows of one scenario; null when no request carries a provider verdict or a billed miss. */
export function providerVerdicts(r: RenderedScenario, econ: ScenarioEconomics): ProviderVerdicts | null {
  const payloads = new Map(r.scenario.chain.map((e) => [e.offset, e.payload]));
  const rows: VerdictRow[] = [];
  let held: number | null = null;
  for (const e of econ.requests) {
    const p = payloads.get(e.offset) as { providerMiss?: { type?: unknown; missedInputTokens?: unknown } } | undefined;
    const miss = p?.providerMiss && typeof p.providerMiss.type === 'string' ? p.providerMiss : undefined;
    const m = measuredOfPayload(p);
    const billedMiss = held !== null && m?.cachedTokens != null ? Math.max(0, Math.min(held, m.inputTokens) - m.cachedTokens) : 0;
    held = m && m.cachedTokens !== null && m.cacheWriteTokens !== null ? m.cachedTokens + m.cacheWriteTokens : null;
    const ours = e.cacheBreak?.cause ?? null;
    const providerSide = billedMiss > 0 && ours === null && !e.expired && e.previous !== null;
    if (!miss && !providerSide) continue;
    const expected = miss ? AGREES[miss.type as string] : undefined;
    rows.push({
      offset: e.offset,
      ...(miss && { provider: miss.type as string }),
      ...(miss && typeof miss.missedInputTokens === 'number' && { missedInputTokens: miss.missedInputTokens }),
      ours,
      events: e.cacheBreak?.events ?? [],
      agrees: expected ? ours !== null && expected.includes(ours) : null,
      providerSide,
      billedMissTokens: billedMiss,
    });
  }
  if (!rows.length) return null;
  const compared = rows.filter((x) => x.agrees !== null);
  const agreed = compared.filter((x) => x.agrees).length;
  const side = rows.filter((x) => x.providerSide).length;
  return { rows, compared: compared.length, agreed, providerSide: side, summary: verdictSummary(compared.length, agreed, rows, side) };
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const NUMBER = ['no', 'one', 'two', 'three'];

/** "the provider agrees on 31 of 32 misses; one disagreement: @7 (the provider: messages_changed; ours: system-changed)". */
export function verdictSummary(compared: number, agreed: number, rows: readonly VerdictRow[], providerSide: number): string {
  const parts: string[] = [];
  if (compared) {
    const off = rows.filter((x) => x.agrees === false);
    const head = `the provider agrees on ${agreed} of ${plural(compared, 'miss').replace(/misss$/, 'misses')}`;
    const list = off.map((x) => `@${x.offset} (the provider: ${x.provider}; ours: ${x.ours ?? 'no break'})`);
    parts.push(off.length ? `${head}; ${NUMBER[off.length] ?? off.length} disagreement${off.length === 1 ? '' : 's'}: ${list.join(', ')}` : head);
  }
  if (providerSide) {
    const tokens = rows.filter((x) => x.providerSide).reduce((n, x) => n + x.billedMissTokens, 0);
    parts.push(
      `${plural(providerSide, 'billed miss').replace(/misss$/, 'misses')} (${formatTokens(tokens)} tokens) on a byte-identical prefix inside the retention: provider-side, not actionable`,
    );
  }
  return parts.join('; ');
}

/** One row as the page lists it, after its request: "the provider: system_changed (3,050 tokens missed) — ours: system-changed (at @3) — agrees". */
export function verdictRowText(v: VerdictRow): string {
  const parts: string[] = [];
  if (v.provider !== undefined) parts.push(`the provider: ${v.provider}${v.missedInputTokens !== undefined ? ` (${formatTokens(v.missedInputTokens)} tokens missed)` : ''}`);
  parts.push(`ours: ${v.ours ?? 'no break'}${v.events.length ? ` (at ${v.events.map((e) => `@${e}`).join(', ')})` : ''}`);
  if (v.provider !== undefined) parts.push(v.agrees === null ? 'not compared (the provider’s reason says nothing about the request)' : v.agrees ? 'agrees' : 'disagrees');
  if (v.providerSide) parts.push(`a billed miss of ${formatTokens(v.billedMissTokens)} tokens on a byte-identical prefix inside the retention: provider-side, not actionable`);
  return parts.join(' — ');
}

/** The summary over several scenarios (a log's conversations). */
export function corpusVerdictSummary(all: readonly ProviderVerdicts[]): string | null {
  if (!all.length) return null;
  const rows = all.flatMap((v) => v.rows);
  return verdictSummary(
    all.reduce((n, v) => n + v.compared, 0),
    all.reduce((n, v) => n + v.agreed, 0),
    rows,
    all.reduce((n, v) => n + v.providerSide, 0),
  );
}
