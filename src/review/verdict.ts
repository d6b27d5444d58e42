/**
 * The verdict of a review, in plain data: did the change make the prompt cache worse,
 * better, or change prompts without a cache effect — with the totals across scenarios a reviewer
 * budgets in (cached share before → after, Δ input tokens, Δ$ per conversation and per 1,000
 * conversations) and one row per scenario. The comment (summary.ts) and /changes/ both render this,
 * so they say the same.
 *
 * The mix: every scenario is one conversation, weighted equally, so "per conversation" is the
 * mean over the scenarios whose figures are known on both sides (a scenario the change adds or
 * removes has one side only: it is counted, not averaged). A request regressed when it reads fewer
 * cached tokens than at the base while sending no fewer input tokens (or when a root cause names
 * it: root-cause.ts); it improved the other way round. Pure and browser-safe.
 */
import type { ChangeStatus } from './compare.ts';
import type { Figures, Side } from './delta.ts';
import type { ReviewData } from './review-data.ts';

export type VerdictKind = 'regressed' | 'improved' | 'neutral' | 'unchanged';

export interface Sum {
  turns: number;
  inputTokens: number;
  cachedTokens: number;
  /** Null when any request has no price configured. */
  costUsd: number | null;
  exact: boolean;
}

export interface ScenarioRow {
  id: string;
  stem: string;
  title: string;
  status: ChangeStatus;
  /** Requests whose printed prompt differs from the base's. */
  requestsChanged: number;
  before: Sum | null;
  after: Sum | null;
  /** Own requests that read less of the cache than at the base. */
  regressed: number[];
  /** Broken expectations in this scenario's file. */
  expectations: number;
}

export interface Totals {
  /** Scenarios with figures on both sides (the mix). */
  scenarios: number;
  before: Sum;
  after: Sum;
  /** Mean cost difference per conversation; null when a scenario has no price configured. */
  perConversationUsd: number | null;
}

export interface Verdict {
  kind: VerdictKind;
  /** Requests that regressed, and the scenarios they are in. */
  regressed: { requests: number; scenarios: number };
  totals: Totals | null;
  /** Why the base's figures are not known (then there are no totals). */
  unknown?: string;
  /** Scenarios whose prompts, figures or expectations changed, in corpus order. */
  rows: ScenarioRow[];
  /** Scenarios whose printed prompts are as at the base but whose figures are not (abridged boilerplate, prices). */
  figuresOnly: number;
  /** Scenarios the change adds and removes. */
  added: number;
  removed: number;
}

/** Sums of one side's requests; null without figures. */
function sumOf(side: Side | undefined): Sum | null {
  if (side?.kind !== 'figures') return null;
  const rs = [...side.requests.values()];
  return {
    turns: rs.length,
    inputTokens: rs.reduce((n, r) => n + r.inputTokens, 0),
    cachedTokens: rs.reduce((n, r) => n + r.cachedTokens, 0),
    costUsd: rs.every((r) => r.costUsd !== null) ? dollars(rs.reduce((n, r) => n + r.costUsd!, 0)) : null,
    exact: rs.every((r) => r.exact),
  };
}

/** A dollar sum without floating-point dust (1e-12 $ is far below any price). */
const dollars = (x: number): number => Math.round(x * 1e12) / 1e12;

const add = (a: Sum, b: Sum): Sum => ({
  turns: a.turns + b.turns,
  inputTokens: a.inputTokens + b.inputTokens,
  cachedTokens: a.cachedTokens + b.cachedTokens,
  costUsd: a.costUsd === null || b.costUsd === null ? null : dollars(a.costUsd + b.costUsd),
  exact: a.exact && b.exact,
});

const ZERO: Sum = { turns: 0, inputTokens: 0, cachedTokens: 0, costUsd: 0, exact: true };

/** Offsets where `after` reads less of the cache than `before` without sending fewer tokens (and the reverse). */
function movement(before: ReadonlyMap<number, Figures>, after: ReadonlyMap<number, Figures>): { worse: number[]; better: number[] } {
  const worse: number[] = [];
  const better: number[] = [];
  for (const [offset, a] of after) {
    const b = before.get(offset);
    if (!b) continue;
    if (a.cachedTokens < b.cachedTokens && a.inputTokens >= b.inputTokens) worse.push(offset);
    else if (a.cachedTokens > b.cachedTokens && a.inputTokens - a.cachedTokens < b.inputTokens - b.cachedTokens) better.push(offset);
  }
  return { worse, better };
}

export function verdictOf(review: ReviewData): Verdict {
  const { changes, sides } = review;
  const broken = new Map<string, number>();
  for (const e of review.expectations) {
    const stem = e.file.replace(/^.*\//, '').replace(/\.(ya?ml|md)$/, '');
    broken.set(stem, (broken.get(stem) ?? 0) + 1);
  }
  const named = new Map<string, Set<number>>();
  for (const c of review.rootCauses) for (const s of c.scenarios) for (const o of s.offsets) (named.get(s.id) ?? named.set(s.id, new Set()).get(s.id)!).add(o);

  let totals: { before: Sum; after: Sum; n: number } = { before: ZERO, after: ZERO, n: 0 };
  let unknown: string | undefined;
  let improved = false;
  const rows: ScenarioRow[] = [];
  for (const s of changes.scenarios) {
    const side = sides.get(s.id);
    const [before, after] = [sumOf(side?.before), sumOf(side?.after)];
    if (side?.before.kind === 'unknown') unknown ??= side.before.reason;
    const move = side?.before.kind === 'figures' && side.after.kind === 'figures' ? movement(side.before.requests, side.after.requests) : { worse: [], better: [] };
    const regressed = [...new Set([...move.worse, ...(named.get(s.id) ?? [])])].sort((x, y) => x - y);
    if (move.better.length) improved = true;
    if (before && after) totals = { before: add(totals.before, before), after: add(totals.after, after), n: totals.n + 1 };
    const requestsChanged = s.requests.filter((q) => q.status !== 'unchanged').length;
    const figuresMoved = !!before && !!after && (before.inputTokens !== after.inputTokens || before.cachedTokens !== after.cachedTokens || before.costUsd !== after.costUsd);
    const expectations = broken.get(s.stem) ?? 0;
    if (s.status !== 'unchanged' || figuresMoved || expectations || regressed.length)
      rows.push({ id: s.id, stem: s.stem, title: s.title, status: s.status, requestsChanged, before, after, regressed, expectations });
  }
  const regressedRequests = rows.reduce((n, r) => n + r.regressed.length, 0);
  const kind: VerdictKind = regressedRequests ? 'regressed' : improved ? 'improved' : changes.changed ? 'neutral' : 'unchanged';
  const { before, after, n } = totals;
  return {
    kind,
    regressed: { requests: regressedRequests, scenarios: rows.filter((r) => r.regressed.length).length },
    totals:
      n && unknown === undefined
        ? { scenarios: n, before, after, perConversationUsd: before.costUsd === null || after.costUsd === null ? null : dollars((after.costUsd - before.costUsd) / n) }
        : null,
    ...(unknown !== undefined && { unknown }),
    rows,
    figuresOnly: rows.filter((r) => r.status === 'unchanged' && r.requestsChanged === 0 && r.before && r.after).length,
    added: changes.scenarios.filter((s) => s.status === 'added').length,
    removed: changes.scenarios.filter((s) => s.status === 'removed').length,
  };
}

/** Cached share of a sum (0–1), null without input. */
export const shareOf = (s: Sum): number | null => (s.inputTokens ? s.cachedTokens / s.inputTokens : null);
