import { describe, expect, it } from 'vitest';
import { planWindow, type WindowItem } from './page-window.ts';

/** `n` events at offsets 1…n, each an own request of `pane` characters with `source` characters of YAML. */
const events = (n: number, pane = 100, source = 50): WindowItem[] => Array.from({ length: n }, (_, i) => ({ offset: i + 1, pane, source }));

describe('planWindow', () => {
  it('leaves a page that fits alone: every event in the window, one part (its data.json)', () => {
    const plan = planWindow(events(10), 3, 1500);
    expect(plan.windowed).toBe(false);
    expect([...plan.window]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(plan.parts).toEqual([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]]);
  });

  it('windows a page over the budget: the opening event and its neighbours, after and before in turn, while they fit', () => {
    // 150 characters an event, 500 allowed: three events — the opening one, the next, the one before.
    const plan = planWindow(events(10), 5, 500, 320);
    expect(plan.windowed).toBe(true);
    expect([...plan.window].sort((a, b) => a - b)).toEqual([4, 5, 6]);
    // Before the window, after it, and the window itself: runs of at most 320 characters (two events).
    expect(plan.parts).toEqual([[1, 2], [3], [4, 5, 6], [7, 8], [9, 10]]);
  });

  it('cuts the parts by what each pane adds (a part continues the one before), the window by whole panes', () => {
    // A conversation: pane k prints k × 100 characters, of which 100 are new; 50 of YAML each.
    const items = Array.from({ length: 10 }, (_, i) => ({ offset: i + 1, pane: (i + 1) * 100, added: 100, source: 50 }));
    const plan = planWindow(items, 10, 1000, 320);
    // The window: @10 (1,050) is over the budget alone but always kept; @9 (950) does not fit beside it.
    expect([...plan.window]).toEqual([10]);
    // Before it, runs of at most 320 characters of what is added (150 an event): two events each — not one event a part as whole panes would cut them.
    expect(plan.parts).toEqual([[1, 2], [3, 4], [5, 6], [7, 8], [9], [10]]);
  });

  it('covers every event exactly once, in timeline order, whatever the sizes', () => {
    const items = Array.from({ length: 57 }, (_, i) => ({ offset: 10 + i * 3, pane: (i * 7919) % 900, source: (i * 104729) % 400 }));
    for (const opens of [10, 10 + 3 * 28, 10 + 3 * 56]) {
      const plan = planWindow(items, opens, 2000, 1500);
      expect(plan.windowed).toBe(true);
      expect(plan.parts.flat()).toEqual(items.map((i) => i.offset));
      expect(plan.window.has(opens)).toBe(true);
      // The window is one contiguous part of its own, within the budget.
      const part = plan.parts.find((p) => p.includes(opens))!;
      expect(new Set(part)).toEqual(plan.window);
      expect(items.filter((i) => plan.window.has(i.offset)).reduce((n, i) => n + i.pane + i.source, 0)).toBeLessThanOrEqual(2000);
      for (const p of plan.parts)
        if (p !== part && p.length > 1) expect(items.filter((i) => p.includes(i.offset)).reduce((n, i) => n + i.pane + i.source, 0)).toBeLessThanOrEqual(1500);
    }
  });

  it('keeps the opening event however large, and gives an oversized event a part of its own', () => {
    const items = [
      { offset: 1, pane: 10, source: 10 },
      { offset: 2, pane: 5000, source: 0 },
      { offset: 3, pane: 10, source: 10 },
      { offset: 4, pane: 9000, source: 0 },
      { offset: 5, pane: 10, source: 10 },
    ];
    // The opening event alone is over the budget: it is the window, and nothing joins it.
    const plan = planWindow(items, 2, 100, 100);
    expect([...plan.window]).toEqual([2]);
    expect(plan.parts).toEqual([[1], [2], [3], [4], [5]]);
    // Opening on a small event: the neighbours that fit join it; the oversized ones are parts alone.
    const small = planWindow(items, 3, 100, 100);
    expect([...small.window]).toEqual([3]);
    expect(small.parts).toEqual([[1], [2], [3], [4], [5]]);
  });

  it('is deterministic: the same events and budgets give the same plan', () => {
    const a = planWindow(events(40, 333, 77), 17, 3000, 2000);
    const b = planWindow(events(40, 333, 77), 17, 3000, 2000);
    expect(b.parts).toEqual(a.parts);
    expect([...b.window]).toEqual([...a.window]);
  });
});
