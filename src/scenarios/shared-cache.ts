/**
 * `sharesCache:` across the corpus (model.ts SharedCache): the scenario it names exists (else a
 * located error with a did-you-mean), following the links never comes back to where it started (a
 * cycle would give the shared clock no start), and `at` names an event of that scenario's chain.
 * Checked once every scenario is resolved, because `at` needs the other scenario's events. A
 * scenario whose link is wrong is not rendered; one whose linked scenario has errors of its own is
 * dropped with it (those errors are the report).
 */
import { didYouMean } from '../folds/suggest.ts';
import type { InputError } from './errors.ts';
import type { Scenario, SharedCache } from './model.ts';

/** What the check reads of a draft: its id and its link. */
export interface Linked {
  id?: string;
  stem: string;
  sharesCache?: SharedCache;
}

/** The scenarios whose `sharesCache:` holds (and every scenario without one); errors for the others. */
export function checkSharedCaches(scenarios: Scenario[], drafts: readonly Linked[], errors: InputError[]): Scenario[] {
  const ids = new Map(drafts.filter((d) => d.id !== undefined).map((d) => [d.id!, d]));
  const resolved = new Map(scenarios.map((s) => [s.id, s]));
  const bad = new Set<string>();
  for (const d of drafts) {
    const link = d.sharesCache;
    if (!link || d.id === undefined) continue;
    if (!ids.has(link.scenario)) {
      const others = [...ids.keys()].filter((k) => k !== d.id);
      errors.push({
        pos: link.scenarioPos,
        message: `\`sharesCache.scenario\` names \`${link.scenario}\`, which is not a scenario id${didYouMean(link.scenario, others)}`,
        fix: `use the id of another scenario (${others.join(', ') || 'there are none yet'}) or remove \`sharesCache:\``,
      });
      bad.add(d.id);
      continue;
    }
    const path = [d.id];
    for (let cur = ids.get(link.scenario); cur; cur = cur.sharesCache ? ids.get(cur.sharesCache.scenario) : undefined) {
      path.push(cur.id!);
      if (cur.id === d.id) {
        errors.push({
          pos: link.scenarioPos,
          message: `cyclic \`sharesCache\`: ${path.join(' → ')}`,
          fix: 'one scenario of the cycle must start the shared clock: remove its `sharesCache:` (a subagent names its parent, the parent names none)',
        });
        bad.add(d.id);
        break;
      }
      if (path.indexOf(cur.id!) < path.length - 1) break; // a cycle further up, reported by its members
    }
    if (bad.has(d.id)) continue;
    const target = resolved.get(link.scenario);
    if (!target) continue; // it has errors of its own
    if (!target.chain.some((e) => e.offset === link.at)) {
      errors.push({
        pos: link.atPos,
        message: `\`sharesCache.at\` names @${link.at}, which is not an event of \`${link.scenario}\``,
        fix: `use one of: ${target.chain.map((e) => `"@${e.offset}"`).join(', ')}`,
      });
      bad.add(d.id);
    }
  }
  // A scenario is usable only when every scenario its links reach is.
  const usable = (s: Scenario, seen = new Set<string>()): boolean => {
    if (bad.has(s.id) || seen.has(s.id)) return !bad.has(s.id);
    seen.add(s.id);
    if (!s.sharesCache) return true;
    const t = resolved.get(s.sharesCache.scenario);
    return !!t && usable(t, seen);
  };
  return scenarios.filter((s) => usable(s));
}
