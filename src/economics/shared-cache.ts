/**
 * Scenarios that share one provider cache (`sharesCache:`, src/scenarios/shared-cache.ts checks
 * the links): a subagent and its parent conversation, two sessions of one workspace. The provider's
 * cache is not per conversation — an Anthropic entry is read by any request of the same workspace
 * whose bytes hold it, an OpenAI prefix by any request routed to the machine that holds it — so a
 * scenario linked to others is simulated together with them: every request of the group, in the
 * order of one shared clock, over one cache per profile. Each scenario keeps its own previous
 * request (the ✂ line and the break classification compare within a scenario) and its own records.
 *
 * The group is everything the links connect, both ways: a child starts with the entries its
 * parent's requests wrote before it (alive at its own timestamps, and only those its bytes hold),
 * and the parent's later requests see what the child read (a refresh keeps a shared entry alive)
 * and wrote. The clock: a scenario's time zero is the time of the event its `sharesCache.at` names,
 * on its parent's clock; the root of the links keeps its own. A scenario with no link is a group
 * of one and is simulated exactly as before.
 */
import type { RenderedScenario } from '../prompt/render.ts';

export interface Member {
  r: RenderedScenario;
  /** Added to the member's own timestamps to put them on the group's clock (ms). */
  shiftMs: number;
}

/** The scenarios `r` shares a cache with, itself included, in corpus order; a lone scenario is a group of one. */
export function cacheGroup(r: RenderedScenario, corpus: ReadonlyMap<string, RenderedScenario> | undefined): Member[] {
  if (!corpus) return [{ r, shiftMs: 0 }];
  const id = r.scenario.id;
  // Undirected links over the corpus; the component that holds `r`.
  const near = new Map<string, Set<string>>();
  const link = (a: string, b: string): void => {
    if (!near.has(a)) near.set(a, new Set());
    near.get(a)!.add(b);
  };
  for (const s of corpus.values()) {
    const to = s.scenario.sharesCache?.scenario;
    if (to !== undefined && corpus.has(to)) {
      link(s.scenario.id, to);
      link(to, s.scenario.id);
    }
  }
  if (!near.has(id)) return [{ r, shiftMs: 0 }];
  const seen = new Set([id]);
  const queue = [id];
  while (queue.length) for (const n of near.get(queue.shift()!) ?? []) if (!seen.has(n) && seen.add(n)) queue.push(n);
  const members = [...corpus.values()].filter((s) => seen.has(s.scenario.id));
  // `r` itself, as passed (it may be a variant render of the corpus's scenario).
  return members.map((s) => ({ r: s.scenario.id === id ? r : s, shiftMs: shiftOf(s, corpus) }));
}

/** Where a scenario's time zero sits on its group's clock: its parent's, plus the time of the event it starts at. */
function shiftOf(s: RenderedScenario, corpus: ReadonlyMap<string, RenderedScenario>, depth = 0): number {
  const link = s.scenario.sharesCache;
  const parent = link && corpus.get(link.scenario);
  if (!link || !parent || depth > corpus.size) return 0; // links are checked acyclic on load; the depth bound only guards
  const at = parent.scenario.chain.find((e) => e.offset === link.at);
  return shiftOf(parent, corpus, depth + 1) + (at?.elapsedMs ?? 0);
}
