/**
 * A vitest reporter that ends the run with one plain line — `N passed, N failed, N skipped` — so CI
 * logs (and tools reading them) see the counts without parsing vitest's own formatting.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class CountReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const count = { passed: 0, failed: 0, skipped: 0, pending: 0 };
    for (const m of modules) for (const t of m.children.allTests()) count[t.result().state]++;
    console.log(`\n${count.passed} passed, ${count.failed} failed, ${count.skipped + count.pending} skipped`);
  }
}
