/**
 * Token and cost deltas for review: a scenario before and after a change — against the fixtures
 * committed at a base ref, or against its `compare:` variant — per request and per scenario, in
 * the words a reviewer budgets in ("+1,204 input tokens per turn; cached 92 % → 40 %; +$0.003 per
 * turn").
 *
 * A base ref gives only the fixtures' printed requests. We parse each printed request back into
 * its messages (the printer is lossless except for abridged boilerplate, which is mapped back to
 * the fold's current full text — an approximation when the base abridged a different text) and
 * run the same economics on them, with the current events' timestamps. Base-side cache breaks
 * name no events (fixtures carry no provenance). Pure and browser-safe.
 */
import type { Abridgement, RenderedMessage } from '../folds/types.ts';
import type { PrintedLine } from '../prompt/print.ts';
import type { RenderedRequest, RenderedScenario } from '../prompt/render.ts';
import { scenarioEconomics, type RequestEconomics, type ScenarioEconomics, type Totals } from './compute.ts';
import type { EconomicsConfig } from './profiles.ts';
import { formatDelta, formatShare, formatTokens, formatUsdDelta } from './format.ts';
import { abridgementsOf } from '../folds/hooks.ts';

/** The printed request lines of a fixture, as the base ref has them. */
export interface PrintedRequest {
  offset: number;
  lines: string[];
  cut: number | null;
}

/** Parses printed request lines (print.ts's format) back into the model and messages. */
export function parsePrinted(lines: readonly string[], abridgements: readonly Abridgement[]): { model: string | null; messages: RenderedMessage[] } {
  let model: string | null = null;
  const messages: { role: string; content: string[]; files: unknown[] }[] = [];
  let mode: 'none' | 'block' | 'files' = 'none';
  for (const l of lines) {
    if (l.startsWith('model: ')) model = l.slice(7);
    else if (l === 'messages:') continue;
    else if (l.startsWith('  - role: ')) {
      messages.push({ role: l.slice(10), content: [], files: [] });
      mode = 'none';
    } else if (l === '    content: |-') mode = 'block';
    else if (l.startsWith('    content: ')) messages.at(-1)?.content.push(JSON.parse(l.slice(13)) as string);
    else if (l === '    files:') mode = 'files';
    else if (mode === 'files' && l.startsWith('      - ')) messages.at(-1)?.files.push(JSON.parse(l.slice(8)));
    else if (mode === 'block') messages.at(-1)?.content.push(l === '' ? '' : l.slice(6));
  }
  const full = new Map(abridgements.map((a) => [a.standIn, a.text]));
  return {
    model,
    messages: messages.map((m) => {
      const content = m.content.join('\n');
      const text = full.get(content) ?? content;
      return { role: m.role, content: text, parts: [{ text, from: [] }], ...(m.files.length && { files: m.files }) };
    }),
  };
}

/**
 * The scenario as the base ref printed it: every request of its chain that the base fixtures hold
 * (own requests from its fixture, base-chain requests from the base scenarios' fixtures).
 */
export function baseScenario(r: RenderedScenario, printed: (scenarioId: string, offset: number) => PrintedRequest | undefined): RenderedScenario {
  const abridgements = abridgementsOf(r.fold, r.options);
  const owner = new Map(r.scenario.chain.map((e) => [e.offset, e.scenarioId]));
  const own = new Set(r.requests.map((q) => q.offset));
  const chain: RenderedRequest[] = [];
  for (const q of r.chain) {
    const p = printed(owner.get(q.offset) ?? r.scenario.id, q.offset);
    if (!p) continue;
    const { model, messages } = parsePrinted(p.lines, abridgements);
    const lines: PrintedLine[] = p.lines.map((text) => ({ text, from: [], message: 0 }));
    chain.push({ offset: q.offset, model: model ?? q.model, lines, cut: p.cut, previous: chain.at(-1)?.offset ?? null, anchors: [], text: '', messages, createdAt: q.createdAt });
  }
  return { ...r, chain, requests: chain.filter((q) => own.has(q.offset)) };
}

export interface RequestDelta {
  offset: number;
  before: RequestEconomics | null;
  after: RequestEconomics | null;
  /** `input 504 → 709 (+205); cached 0 % → 0 %; +$0.00041` */
  text: string;
}

export interface ScenarioDelta {
  id: string;
  before: Totals;
  after: Totals;
  requests: RequestDelta[];
  /** `+68 input tokens per turn; cached 0 % → 0 %; +$0.00014 per turn` */
  text: string;
  changed: boolean;
}

const share = (e: { cachedTokens: number; inputTokens: number }): number | null => (e.inputTokens ? e.cachedTokens / e.inputTokens : null);

function requestText(b: RequestEconomics | null, a: RequestEconomics | null): string {
  if (!b && a) return `added: ${formatTokens(a.inputTokens, a.exact)} input tokens, cached ${formatShare(share(a))}`;
  if (b && !a) return `removed: ${formatTokens(b.inputTokens, b.exact)} input tokens`;
  const x = a!.exact && b!.exact;
  const parts = [
    `input ${formatTokens(b!.inputTokens, x)} → ${formatTokens(a!.inputTokens, x)} (${formatDelta(a!.inputTokens - b!.inputTokens, x)})`,
    `cached ${formatShare(share(b!))} → ${formatShare(share(a!))}`,
  ];
  if (a!.costUsd !== null && b!.costUsd !== null) parts.push(formatUsdDelta(a!.costUsd - b!.costUsd));
  return parts.join('; ');
}

export function scenarioDelta(before: ScenarioEconomics, after: ScenarioEconomics): ScenarioDelta {
  const b = new Map(before.requests.map((e) => [e.offset, e]));
  const a = new Map(after.requests.map((e) => [e.offset, e]));
  const offsets = [...new Set([...b.keys(), ...a.keys()])].sort((x, y) => x - y);
  const requests = offsets.map((o) => ({ offset: o, before: b.get(o) ?? null, after: a.get(o) ?? null, text: requestText(b.get(o) ?? null, a.get(o) ?? null) }));
  const tb = before.totals;
  const ta = after.totals;
  const turns = Math.max(1, after.requests.length);
  const exact = tb.exact && ta.exact;
  const parts = [
    `${formatDelta(Math.round((ta.inputTokens - tb.inputTokens) / turns), exact)} input tokens per turn`,
    `cached ${formatShare(tb.cachedShare)} → ${formatShare(ta.cachedShare)}`,
  ];
  if (ta.costUsd !== null && tb.costUsd !== null) parts.push(`${formatUsdDelta((ta.costUsd - tb.costUsd) / turns)} per turn`);
  const changed = requests.some(
    (q) => !q.before || !q.after || q.before.inputTokens !== q.after.inputTokens || q.before.cachedTokens !== q.after.cachedTokens || q.before.costUsd !== q.after.costUsd,
  );
  return { id: after.id, before: tb, after: ta, requests, text: parts.join('; '), changed };
}

/** The delta of a scenario against the base ref's fixtures. */
export function deltaAgainstBase(
  r: RenderedScenario,
  after: ScenarioEconomics,
  printed: (scenarioId: string, offset: number) => PrintedRequest | undefined,
  config: EconomicsConfig,
): ScenarioDelta {
  // Base-side breaks name no events: the base events and fold are not at hand to re-fold.
  return scenarioDelta(scenarioEconomics(baseScenario(r, printed), config, { attribute: false }), after);
}

/** Looks up base-ref printed requests by scenario id (fixtures are keyed by file stem). */
export function printedLookup(
  scenarios: readonly RenderedScenario[],
  fixtures: ReadonlyMap<string, { requests: ReadonlyMap<number, PrintedRequest> }>,
): (scenarioId: string, offset: number) => PrintedRequest | undefined {
  const stems = new Map(scenarios.map((r) => [r.scenario.id, r.scenario.stem]));
  return (id, offset) => fixtures.get(stems.get(id) ?? id)?.requests.get(offset);
}

/** Token deltas of every scenario that has requests in both the current render and the base fixtures. */
export function deltasAgainstBase(
  scenarios: readonly RenderedScenario[],
  economics: ReadonlyMap<string, ScenarioEconomics>,
  fixtures: ReadonlyMap<string, { requests: ReadonlyMap<number, PrintedRequest> }>,
  config: EconomicsConfig,
): Map<string, ScenarioDelta> {
  const printed = printedLookup(scenarios, fixtures);
  const out = new Map<string, ScenarioDelta>();
  for (const r of scenarios) {
    const after = economics.get(r.scenario.id);
    if (!after || !fixtures.has(r.scenario.stem)) continue;
    out.set(r.scenario.id, deltaAgainstBase(r, after, printed, config));
  }
  return out;
}
