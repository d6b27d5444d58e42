/**
 * Which event broke the cache (docs/cache-economics.md, "Why the cache broke"): the event a reviewer would name — an
 * in-place rewrite, a delete (not the events whose text it removed), a compaction, an entry the
 * fold inserts above the transcript, or a mid-stream `deploy:`.
 *
 * Fold-independent: fold the events between the previous request and this one one at a time (the
 * pipeline did it, one `snapshots` pass per rule in force for every such range: render.ts
 * `folded`) and name the first event
 * after which the lost prefix is no longer a prefix of what the fold would send. Where a `deploy:`
 * lands inside the range, the state just before it is folded again under the deployed rule first:
 * if that already loses the prefix, the deploy is named. Called only for a request whose previous
 * request's bytes changed, so a scenario without breaks never folds twice.
 */
import type { RenderedMessage } from '../folds/types.ts';
import { type Phase, phaseAt, type RenderedRequest, type RenderedScenario } from '../prompt/render.ts';
import { messageText, type Tokenizer } from './tokens.ts';

/** A prefix of the previous request: its first `messages`, then optionally part of the next one. */
export interface Target {
  messages: readonly RenderedMessage[];
  partial?: { role: string; text?: string; tokens?: Uint32Array };
}

/** The request (or would-be request) `messages` still starts with `target`, byte for byte. */
export function keeps(t: Tokenizer, messages: readonly RenderedMessage[], target: Target): boolean {
  const n = target.messages.length;
  if (messages.length < n) return false;
  for (let i = 0; i < n; i++) {
    const a = messages[i]!;
    const b = target.messages[i]!;
    if (a !== b && (a.role !== b.role || messageText(a) !== messageText(b))) return false;
  }
  const p = target.partial;
  if (!p) return true;
  const m = messages[n];
  if (!m || m.role !== p.role) return false;
  if (p.text !== undefined) return messageText(m).startsWith(p.text);
  const have = t.tokens(messageText(m));
  const want = p.tokens ?? new Uint32Array();
  if (have.length < want.length) return false;
  for (let i = 0; i < want.length; i++) if (have[i] !== want[i]) return false;
  return true;
}

export interface Responsible {
  offset: number;
  /** The event is a `deploy:` (the fold's rule changed). */
  deploy: boolean;
  /** The messages the fold would send just after it. */
  messages: readonly RenderedMessage[];
}

/** The first event in (previous, request] after which `target` is no longer a prefix; null when none is. */
export function responsibleEvent(t: Tokenizer, r: RenderedScenario, prev: RenderedRequest, q: RenderedRequest, target: Target): Responsible | null {
  const phases: Phase[] = r.phases?.length ? r.phases : [{ fold: r.fold, options: r.options, abridgements: [], from: -Infinity }];
  const phaseOf = (offset: number): Phase => phaseAt(phases, offset);
  const chain = r.scenario.chain;
  const range = chain.filter((e) => e.offset > prev.offset && e.offset <= q.offset);
  if (!range.length) return null;
  // A phase starting inside the range: the state just before it, under its rule.
  const before = new Map<Phase, number>();
  for (const ph of new Set(range.map((e) => phaseOf(e.offset)))) {
    if (ph.from <= prev.offset || ph.from > q.offset) continue;
    const last = chain.findLast((e) => e.offset < ph.from);
    if (last) before.set(ph, last.offset);
  }
  // Folded by the pipeline already (render.ts: every range where a request did not extend the one before).
  const snaps = r.folded ?? new Map<Phase, ReadonlyMap<number, readonly RenderedMessage[]>>();
  let current = phaseOf(prev.offset);
  for (const e of range) {
    const ph = phaseOf(e.offset);
    if (ph !== current) {
      current = ph;
      const b = before.get(ph);
      const m = b === undefined ? undefined : snaps.get(ph)?.get(b);
      if (m && !keeps(t, m, target)) return { offset: ph.from, deploy: true, messages: m };
    }
    const m = snaps.get(ph)?.get(e.offset);
    if (m && !keeps(t, m, target)) return { offset: e.offset, deploy: false, messages: m };
  }
  return null;
}
