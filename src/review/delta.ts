/**
 * Token and cost deltas of a review, in the words a reviewer budgets in ("+68 input tokens per
 * turn; cached 0 % → 0 %; +$0.00014 per turn"): a scenario's figures before and after, per
 * request and per scenario. The two sides come from wherever they were computed — the base
 * commit's own report (base-report.ts) or a `compare:` variant's render — so this module only
 * compares figures, and never re-derives one side from the other.
 *
 * A side can be missing (a scenario added or removed by the change) or unknown (the base could not
 * be computed: its reason is said instead of a number). Per turn, each side is divided by its own
 * number of requests. Pure and browser-safe.
 */
import { formatDelta, formatShare, formatTokens, formatUsd, formatUsdDelta } from '../economics/format.ts';

/** One request's figures: what a report prints for it. */
export interface Figures {
  inputTokens: number;
  cachedTokens: number;
  costUsd: number | null;
  exact: boolean;
}

/** A difference of dollar sums without floating-point dust (1e-12 $ is far below any price). */
const dollars = (x: number): number => Math.round(x * 1e12) / 1e12;

/** One side of a scenario: its own requests' figures by offset, absent, or unknown with a reason. */
export type Side = { kind: 'figures'; requests: ReadonlyMap<number, Figures> } | { kind: 'absent' } | { kind: 'unknown'; reason: string };

export interface RequestDelta {
  offset: number;
  before: Figures | null;
  after: Figures | null;
  /** `input 504 → 709 (+205); cached 0 % → 0 %; +$0.00041` */
  text: string;
}

export interface ScenarioDelta {
  id: string;
  requests: RequestDelta[];
  /** `+68 input tokens per turn; cached 0 % → 0 %; +$0.00014 per turn` */
  text: string;
  /** True when any figure differs, a side is missing, or the base is unknown (the reader must see why). */
  changed: boolean;
  /** Why the before side has no figures, when it could not be computed. */
  unknown?: string;
}

const share = (e: { cachedTokens: number; inputTokens: number }): number | null => (e.inputTokens ? e.cachedTokens / e.inputTokens : null);

interface Sum {
  turns: number;
  inputTokens: number;
  cachedTokens: number;
  costUsd: number | null;
  exact: boolean;
}

function sum(requests: readonly Figures[]): Sum {
  return {
    turns: requests.length,
    inputTokens: requests.reduce((n, e) => n + e.inputTokens, 0),
    cachedTokens: requests.reduce((n, e) => n + e.cachedTokens, 0),
    costUsd: requests.length && requests.every((e) => e.costUsd !== null) ? requests.reduce((n, e) => n + e.costUsd!, 0) : null,
    exact: requests.every((e) => e.exact),
  };
}

/** Input tokens and cost per turn of one side, or null without turns. */
const perTurn = (s: Sum): { input: number; cost: number | null } | null =>
  s.turns ? { input: s.inputTokens / s.turns, cost: s.costUsd === null ? null : s.costUsd / s.turns } : null;

function requestText(b: Figures | null, a: Figures | null, unknown: string | undefined): string {
  if (a && unknown !== undefined) return `input ${formatTokens(a.inputTokens, a.exact)}, cached ${formatShare(share(a))} (before: not known)`;
  if (!b && a) return `added: ${formatTokens(a.inputTokens, a.exact)} input tokens, cached ${formatShare(share(a))}`;
  if (b && !a) return `removed: ${formatTokens(b.inputTokens, b.exact)} input tokens`;
  const x = a!.exact && b!.exact;
  const parts = [
    `input ${formatTokens(b!.inputTokens, x)} → ${formatTokens(a!.inputTokens, x)} (${formatDelta(a!.inputTokens - b!.inputTokens, x)})`,
    `cached ${formatShare(share(b!))} → ${formatShare(share(a!))}`,
  ];
  if (a!.costUsd !== null && b!.costUsd !== null) parts.push(formatUsdDelta(dollars(a!.costUsd - b!.costUsd)));
  return parts.join('; ');
}

/** One side's per-turn figures as a phrase: `1,234 input tokens per turn, cached 40 %, $0.0031 per turn`. */
function sideText(s: Sum): string {
  const t = perTurn(s);
  if (!t) return 'no requests';
  const parts = [`${formatTokens(Math.round(t.input), s.exact)} input tokens per turn`, `cached ${formatShare(share(s))}`];
  if (t.cost !== null) parts.push(`${formatUsd(t.cost)} per turn`);
  return parts.join(', ');
}

/** The delta of one scenario, `before` → `after` (either side may be absent; `before` may be unknown). */
export function reviewDelta(id: string, before: Side, after: Side): ScenarioDelta {
  const figures = (s: Side): ReadonlyMap<number, Figures> => (s.kind === 'figures' ? s.requests : new Map());
  const [b, a] = [figures(before), figures(after)];
  const unknown = before.kind === 'unknown' ? before.reason : undefined;
  const offsets = [...new Set([...b.keys(), ...a.keys()])].sort((x, y) => x - y);
  const requests = offsets.map((o) => ({ offset: o, before: b.get(o) ?? null, after: a.get(o) ?? null, text: requestText(b.get(o) ?? null, a.get(o) ?? null, unknown) }));
  const [sb, sa] = [sum([...b.values()]), sum([...a.values()])];
  let text: string;
  if (unknown !== undefined && after.kind === 'absent') text = `scenario removed; its figures before are not known — ${unknown}`;
  else if (unknown !== undefined) text = `before: not known — ${unknown}; after: ${sideText(sa)}`;
  else if (before.kind === 'absent') text = `new scenario: ${sideText(sa)}`;
  else if (after.kind === 'absent') text = `scenario removed: it had ${sideText(sb)}`;
  else {
    const [tb, ta] = [perTurn(sb), perTurn(sa)];
    const exact = sb.exact && sa.exact;
    const parts = [`${formatDelta(Math.round((ta?.input ?? 0) - (tb?.input ?? 0)), exact)} input tokens per turn`, `cached ${formatShare(share(sb))} → ${formatShare(share(sa))}`];
    if (ta?.cost != null && tb?.cost != null) parts.push(`${formatUsdDelta(dollars(ta.cost - tb.cost))} per turn`);
    text = parts.join('; ');
  }
  const changed =
    unknown !== undefined ||
    before.kind !== after.kind ||
    requests.some(
      (q) => !q.before || !q.after || q.before.inputTokens !== q.after.inputTokens || q.before.cachedTokens !== q.after.cachedTokens || q.before.costUsd !== q.after.costUsd,
    );
  return { id, requests, text, changed, ...(unknown !== undefined && { unknown }) };
}

/** A side from a scenario's economics (the head's own, or a `compare:` variant's). */
export function sideOf(requests: readonly ({ offset: number } & Figures)[]): Side {
  return { kind: 'figures', requests: new Map(requests.map((e) => [e.offset, { inputTokens: e.inputTokens, cachedTokens: e.cachedTokens, costUsd: e.costUsd, exact: e.exact }])) };
}

/** What `baseDeltas` needs of a scenario in the change set. */
interface Touched {
  id: string;
  stem: string;
  status: 'unchanged' | 'changed' | 'added' | 'removed';
}

/** A scenario's two sides against a base (what its delta compares). */
export interface Sides {
  before: Side;
  after: Side;
}

/**
 * The two sides of every scenario against a base: the head's own figures (`head`: own requests by
 * scenario id) against the base commit's own (`base`: by file stem, or why they are unknown). A
 * scenario the change adds has no before (whatever it compares itself with); one it removes has
 * no after (keyed by its stem, as the change set names it).
 */
export function baseSides(
  scenarios: readonly Touched[],
  head: ReadonlyMap<string, readonly ({ offset: number } & Figures)[]>,
  base: { ok: true; byStem: ReadonlyMap<string, ReadonlyMap<number, Figures>> } | { ok: false; reason: string },
): Map<string, Sides> {
  const out = new Map<string, Sides>();
  const beforeOf = (s: Touched): Side => {
    if (s.status === 'added') return { kind: 'absent' };
    if (!base.ok) return { kind: 'unknown', reason: base.reason };
    const requests = base.byStem.get(s.stem);
    return requests ? { kind: 'figures', requests } : { kind: 'unknown', reason: `the base's report has no scenario \`${s.stem}\`` };
  };
  for (const s of scenarios) out.set(s.id, { before: beforeOf(s), after: s.status === 'removed' ? { kind: 'absent' } : sideOf(head.get(s.id) ?? []) });
  return out;
}

/** The delta of every scenario from its sides (see baseSides). */
export const deltasOf = (sides: ReadonlyMap<string, Sides>): Map<string, ScenarioDelta> => new Map([...sides].map(([id, s]) => [id, reviewDelta(id, s.before, s.after)]));

/** The delta of every scenario against a base (baseSides, then reviewDelta). */
export function baseDeltas(
  scenarios: readonly Touched[],
  head: ReadonlyMap<string, readonly ({ offset: number } & Figures)[]>,
  base: { ok: true; byStem: ReadonlyMap<string, ReadonlyMap<number, Figures>> } | { ok: false; reason: string },
): Map<string, ScenarioDelta> {
  return deltasOf(baseSides(scenarios, head, base));
}
