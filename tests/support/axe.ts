/**
 * Test support: axe-core's accessibility check of an open page, one way for every browser test.
 * axeViolations() injects axe into the page's document (once: a page that has it keeps it) and
 * runs the rules of `tags` — WCAG 2 A and AA and axe's best practices unless a test names fewer —
 * on the document or on the elements `include` selects, and returns one line per violated rule:
 * its id and the first three elements it names. An empty list is a clean page.
 *
 * axe is told to report violations only (`resultTypes`): every rule still runs on every element,
 * but axe no longer builds a selector for each element that passed, which is most of its time
 * after the rules on a long page (measured on tests/e2e/site.test.ts, every axe check in both
 * colour schemes: 137.9 CPU-s for the file before, 120.7 after).
 *
 * The page must be opened with `bypassCSP: true`: axe goes in as an inline script, which the
 * site's Content Security Policy rightly blocks (tests/e2e/csp.test.ts tests the policy).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rule tags a page is checked against unless a test names others. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'best-practice'] as const;

interface Violation {
  id: string;
  nodes: { target: string[] }[];
}

/** The rules `page` violates (`include`: a CSS selector to check instead of the whole document). */
export async function axeViolations(page: Page, { include, tags = AXE_TAGS }: { include?: string; tags?: readonly string[] } = {}): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(
    async ({ include, tags }) => {
      const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: Violation[] }> } }).axe;
      const r = await axe.run(include ?? document, { runOnly: tags, resultTypes: ['violations'] });
      return r.violations.map(
        (v) =>
          `${v.id}: ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(' '))
            .join(' | ')}`,
      );
    },
    { include, tags: [...tags] },
  );
}
