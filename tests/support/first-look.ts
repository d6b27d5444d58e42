/**
 * Test support: what a reader's first look at a scenario page is checked against — the hand-written
 * scenarios and the request each opens on (`opens:`), and a layout-shift meter for the pages. Shared
 * by tests/e2e/first-look.test.ts (the first look's own tests) and tests/e2e/reading.test.ts, whose
 * one visit of every built page also checks that each scenario page opens at its request, unscrolled
 * and without a layout shift (one load of each page instead of one per file).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './project.ts';

/**
 * Run in the page, as an init script: records layout shifts not caused by input (PerformanceObserver,
 * buffered) as `window.__cls`, from the page's first script on.
 */
export function measureCls(): void {
  const w = window as unknown as { __cls: number };
  w.__cls = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!e.hadRecentInput) w.__cls += e.value;
  }).observe({ type: 'layout-shift', buffered: true });
}

/** The hand-written scenarios (an imported trace is written by `npm run import`) and the event each opens on. */
export function bundledOpens(): { file: string; id: string; opens?: string }[] {
  const dir = join(ROOT, 'scenarios');
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => ({ f, text: readFileSync(join(dir, f), 'utf8') }))
    .filter(({ text }) => !/^# Imported with `npm run import`/m.test(text))
    .map(({ f, text }) => {
      const doc = parse(text) as { id: string; opens?: string };
      return { file: f, id: doc.id, ...(doc.opens !== undefined && { opens: doc.opens }) };
    });
}
