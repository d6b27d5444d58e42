/**
 * Which of a scenario's events a page carries in its HTML, and how the rest is cut into the data
 * parts it fetches as the reader asks. A scenario page prints every own request in full
 * and its data file carries each event's YAML: right for the hand-written corpus (tens of kilobytes
 * of prompt), unreadable for a long imported conversation (400 requests, 40 MB of log: a page of
 * megabytes). So once a scenario's requests and YAML are more than `budget` characters, its page is
 * *windowed*: the HTML keeps the opening event and its neighbours while they fit (the requests the
 * reader sees first, in full, readable without JavaScript), and every other event's pane, event
 * YAML and wire data go to parts — runs of consecutive events, each about `partBudget` characters — that the page script
 * fetches when the reader selects one of their events (scenario-data.ts writes them, client/page-data.ts
 * reads them). Below the budget nothing changes: one data part, the page's data.json, as before.
 *
 * Pure and deterministic: the same events and budgets give the same plan.
 */

/** One event of the page, in timeline order, with what printing it in the page costs. */
export interface WindowItem {
  offset: number;
  /** Characters of its pane's printed lines when the page would print it in full (an own request), else 0. */
  pane: number;
  /** Characters of its event YAML (the timeline card's source, in the page's data). */
  source: number;
  /**
   * What a data part holds of it, since a part continues the one before: about what its pane adds
   * to the one before (scenario-data.ts estimates it). Absent: `pane`.
   */
  added?: number;
}

export interface WindowPlan {
  /** Whether the page leaves some of its own requests and event YAML to the parts. */
  windowed: boolean;
  /** The window: offsets whose pane is printed in full in the HTML when it is an own request. */
  window: Set<number>;
  /** The data parts: runs of consecutive offsets in timeline order, covering every event exactly once. */
  parts: number[][];
}

const cost = (i: WindowItem): number => i.pane + i.source;
/** What an event costs a data part: what its pane adds, and its YAML. */
const partCost = (i: WindowItem): number => (i.added ?? i.pane) + i.source;

/**
 * The plan for `items` (timeline order) opening on `opens`. Not windowed when all of it fits in
 * `budget` characters: one part holds every offset (the page's data.json, as before windowing).
 * Windowed: the window grows from `opens` to its neighbours, one after and one before in turn,
 * while the total stays within `budget` (`opens` itself always, however large); the events before
 * and after it are cut into runs of at most `partBudget` characters of what their panes add (at least one event each), and
 * the window's own events make one part (the wire data of its requests, the panes of its other events).
 */
export function planWindow(items: readonly WindowItem[], opens: number, budget: number, partBudget = budget): WindowPlan {
  const offsets = items.map((i) => i.offset);
  const total = items.reduce((n, i) => n + cost(i), 0);
  if (total <= budget) return { windowed: false, window: new Set(offsets), parts: items.length ? [offsets] : [] };
  const at = Math.max(0, offsets.indexOf(opens));
  let lo = at;
  let hi = at;
  let used = items[at] ? cost(items[at]) : 0;
  for (let grew = true; grew; ) {
    grew = false;
    for (const side of [hi + 1, lo - 1]) {
      const item = items[side];
      if (!item || used + cost(item) > budget) continue;
      used += cost(item);
      if (side > hi) hi = side;
      else lo = side;
      grew = true;
    }
  }
  return {
    windowed: true,
    window: new Set(offsets.slice(lo, hi + 1)),
    parts: [...runs(items.slice(0, lo), partBudget), offsets.slice(lo, hi + 1), ...runs(items.slice(hi + 1), partBudget)],
  };
}

/** Consecutive runs of `items` of at most `budget` characters each, as a part holds them (an item larger than that is a run alone). */
function runs(items: readonly WindowItem[], budget: number): number[][] {
  const out: number[][] = [];
  let run: number[] = [];
  let size = 0;
  for (const item of items) {
    if (run.length > 0 && size + partCost(item) > budget) {
      out.push(run);
      run = [];
      size = 0;
    }
    run.push(item.offset);
    size += partCost(item);
  }
  if (run.length > 0) out.push(run);
  return out;
}
