/**
 * "Did you mean …?" for near-misses: a misspelt key, event type, fold id, scenario id or option
 * value is compared with the names that would have been right, by edit distance (the kept
 * fastest-levenshtein library), ignoring case — so a type written with `agent/` finds the one
 * spelt `agents/`, and `Birth-Window` finds `birth-window`. Pure and browser-safe: the fold
 * layer's validation (field names, enum values) and the scenario loader (types, folds, ids) both
 * use it, so it lives at the lower layer.
 */
import { distance } from 'fastest-levenshtein';

/**
 * The candidate closest to `got`, when it is close enough to be a likely typo: at most a third of
 * the longer name's length edits apart (at least 2 — a swapped pair of letters is two edits — and at
 * most 4; 1 for names of up to three letters), ignoring case. When several are equally close
 * (`L4` is one edit from each of `L0`–`L3`) nothing is suggested: a guess would mislead.
 */
export function closest(got: string, candidates: Iterable<string>): string | undefined {
  const g = got.toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  let tie = false;
  for (const c of candidates) {
    if (c === got) return undefined; // nothing to suggest: it is right
    const d = distance(g, c.toLowerCase());
    const len = Math.max(g.length, c.length);
    const limit = len <= 3 ? 1 : Math.min(4, Math.max(2, Math.floor(len / 3)));
    if (d > limit) continue;
    if (d < bestD) {
      best = c;
      bestD = d;
      tie = false;
    } else if (d === bestD) tie = true;
  }
  return tie ? undefined : best;
}

/** ` — did you mean \`x\`?` (to append to a message), or '' when nothing is close. */
export function didYouMean(got: string, candidates: Iterable<string>): string {
  const c = closest(got, candidates);
  return c === undefined ? '' : ` — did you mean \`${c}\`?`;
}
