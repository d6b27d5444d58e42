/**
 * The root cause of a cache regression, named once: where a change makes a request lose
 * the cache its base version kept, the first text that differs inside the cached prefix — the ✂
 * line of the request against the previous request of its conversation — grouped across every
 * request and scenario it affects, and classified:
 *
 *   volatile    a value that changes on every request (a timestamp, an id, a counter): the line
 *               differs from the previous request's only in its digits
 *   inserted    content inserted above the breakpoint: the previous request's text is still there,
 *               further down
 *   reordered   the same lines in another order: each side's text is found further down the other
 *   rewritten   earlier content rewritten: neither
 *   model       a model or option change: the `model:` header differs, or the economics say so
 *
 * A request counts when it busts (its ✂ line sits above the end of the previous request) and the
 * base kept more of the cache there: by the base commit's own figures when they are known, else by
 * the base's fixture (its ✂ line sat lower). What is responsible is the scenario's visible cause
 * (cause.ts: the fold's code, an option, edited events). Pure: data in, data out.
 */
import * as z from 'zod';
import type { RenderedRequest, RenderedScenario } from '../prompt/render.ts';
import type { ScenarioEconomics } from '../economics/compute.ts';
import type { BaseFixture } from './base.ts';
import { causeSchema, type Cause } from './cause.ts';
import type { ScenarioChange } from './compare.ts';
import type { Figures } from './delta.ts';

export type RootKind = 'volatile' | 'inserted' | 'reordered' | 'rewritten' | 'model';

export interface RootCause {
  kind: RootKind;
  /** The first differing line of the prefix, as printed in the request (trimmed, cut short). */
  text: string;
  /** The previous request's line at the same place. */
  previous: string;
  /** 1-based message index and role the line belongs to (0 and '' for the `model:` header). */
  message: number;
  role: string;
  /** The scenarios and own requests it breaks the cache of. */
  scenarios: { id: string; stem: string; title: string; offsets: number[] }[];
  /** Cached tokens the affected requests lose against their previous request, summed. */
  tokensLost: number;
  /** What those lost tokens cost beyond reading them from the cache; null when a price is not configured. */
  lostCostUsd: number | null;
  /** What the scenario's change says is responsible (fold code, options, events; cause.ts), from the first scenario. */
  responsible: Cause[];
}

const MAX_TEXT = 160;
const short = z.string().max(1000);
const offsets = z.array(z.number().int().nonnegative()).max(100_000);

/** A root cause as `changes.json` carries it (untrusted). */
export const rootCauseSchema = z.strictObject({
  kind: z.enum(['volatile', 'inserted', 'reordered', 'rewritten', 'model']),
  text: short,
  previous: short,
  message: z.number().int().nonnegative(),
  role: short,
  scenarios: z.array(z.strictObject({ id: short, stem: short, title: short, offsets })).max(10_000),
  tokensLost: z.number().nonnegative(),
  lostCostUsd: z.number().nonnegative().nullable(),
  responsible: z.array(causeSchema).max(100),
});

/** A line as a reader sees it: indentation dropped, cut at MAX_TEXT characters. */
const display = (s: string | undefined): string => {
  const t = (s ?? '').trim();
  return t.length > MAX_TEXT ? `${t.slice(0, MAX_TEXT - 1)}…` : t;
};

/** The line with every run of digits (and long hex ids) as `#`: what stays when a value changes. */
export const shape = (s: string): string => s.replace(/\b[0-9a-f]{8,}\b/gi, '#').replace(/\d+/g, '#');

/** How the ✂ line of `q` differs from the same place in `prev`. */
export function classify(q: readonly string[], prev: readonly string[], cut: number, modelChanged: boolean): RootKind {
  const [now, was] = [q[cut] ?? '', prev[cut] ?? ''];
  if (modelChanged || cut === 0 || now.startsWith('model: ') || was.startsWith('model: ')) return 'model';
  if (now !== was && shape(now) === shape(was)) return 'volatile';
  const nowLater = prev.indexOf(now, cut + 1) > cut;
  const wasLater = q.indexOf(was, cut + 1) > cut;
  if (nowLater && wasLater) return 'reordered';
  if (wasLater) return 'inserted';
  return 'rewritten';
}

/** Causes that say what is responsible (not what the prompt shows, nor keys that never reach it). */
const responsibleOf = (why: readonly Cause[] | undefined): Cause[] => (why ?? []).filter((c) => c.kind !== 'prompt' && c.kind !== 'other-keys');

/** What `rootCauses` needs of one changed scenario. */
export interface RootInput {
  change: Pick<ScenarioChange, 'id' | 'stem' | 'title' | 'why'>;
  head: RenderedScenario;
  econ: ScenarioEconomics;
  /** The base commit's own figures of this scenario, by offset, when known. */
  baseFigures?: ReadonlyMap<number, Figures>;
  /** The base's fixture of this scenario, when it has one. */
  baseFixture?: BaseFixture;
}

/** Did the base keep more of the cache at `q` than the head does? */
function regressedAt(q: RenderedRequest, headCached: number, input: RootInput): boolean {
  const fig = input.baseFigures?.get(q.offset);
  if (fig) return fig.cachedTokens > headCached;
  const base = input.baseFixture?.requests.get(q.offset);
  if (!base) return false;
  return base.cut === null || (q.cut !== null && q.cut < base.cut);
}

/** Every root cause of the scenarios' cache regressions, grouped by kind and text shape, in order of first appearance. */
export function rootCauses(inputs: readonly RootInput[]): RootCause[] {
  const groups = new Map<string, RootCause>();
  for (const input of inputs) {
    const chain = new Map(input.head.chain.map((q) => [q.offset, q]));
    const econ = new Map(input.econ.requests.map((e) => [e.offset, e]));
    for (const q of input.head.requests) {
      const prev = q.previous === null ? undefined : chain.get(q.previous);
      const e = econ.get(q.offset);
      // A bust: the ✂ line above the end of the previous request (as expect.busts judges it).
      if (!prev || !e || q.cut === null || q.cut >= prev.lines.length) continue;
      if (!regressedAt(q, e.cachedTokens, input)) continue;
      const [now, was] = [q.lines.map((l) => l.text), prev.lines.map((l) => l.text)];
      const kind = classify(now, was, q.cut, e.cacheBreak?.cause === 'model-changed');
      const line = q.lines[q.cut]!;
      const message = line.message < 0 ? 0 : line.message + 1;
      const role = line.message < 0 ? '' : (q.messages[line.message]?.role ?? '');
      const key = `${kind}\0${message}\0${role}\0${shape(now[q.cut] ?? '')}`;
      let g = groups.get(key);
      if (!g) {
        g = {
          kind,
          text: display(now[q.cut]),
          previous: display(was[q.cut]),
          message,
          role,
          scenarios: [],
          tokensLost: 0,
          lostCostUsd: 0,
          responsible: responsibleOf(input.change.why),
        };
        groups.set(key, g);
      }
      let s = g.scenarios.find((x) => x.id === input.change.id);
      if (!s) g.scenarios.push((s = { id: input.change.id, stem: input.change.stem, title: input.change.title, offsets: [] }));
      s.offsets.push(q.offset);
      g.tokensLost += e.cacheBreak?.tokensLost ?? 0;
      const lost = e.cacheBreak ? e.cacheBreak.lostCostUsd : 0;
      g.lostCostUsd = g.lostCostUsd === null || lost === null ? null : Math.round((g.lostCostUsd + lost) * 1e12) / 1e12;
    }
  }
  return [...groups.values()];
}
