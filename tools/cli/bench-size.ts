/**
 * `npm run bench:size` — transfer size (gzip) of every page of the built dist/ (run `npm run
 * build` first): HTML, CSS and JS per page, the largest scenario page against the budget
 * (≤ 120 KB in all, ≤ 15 KB JavaScript). Reports numbers; never fails on them.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pageWeights } from '../bench/page-weight.ts';
import { runMain, UsageError } from '../../src/cli/config.ts';

const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;

runMain(async () => {
  const dist = join(process.cwd(), 'dist');
  if (!existsSync(join(dist, 'index.html'))) throw new UsageError('dist/ has no index.html', { fix: 'run `npm run build` first' });
  const pages = pageWeights(dist);
  const rows = pages.map((p) => [p.page.replace(/index\.html$/, '') || '/', kb(p.html), kb(p.css), kb(p.js), kb(p.total)]);
  const head = ['page', 'html', 'css', 'js', 'total'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string => r.map((c, i) => (i ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
  const scenarios = pages.filter((p) => p.page.startsWith('scenarios/'));
  const worst = scenarios.reduce((a, b) => (b.total > a.total ? b : a), scenarios[0]!);
  const worstJs = Math.max(...scenarios.map((p) => p.js));
  console.log(`\nlargest scenario page: ${worst.page} ${kb(worst.total)} (budget 120 KB) — JS at most ${kb(worstJs)} (budget 15 KB)`);
});
