/**
 * `astro dev` under a sub-path (EXPLAINER_SITE_BASE, as a pull-request preview is built): editing a
 * scenario re-renders its page, a scenario error shows in the dev overlay (file:line:column, what
 * is wrong, the fix), and fixing it brings the page back — as at the domain root (tests/dev.test.ts,
 * which also covers a tab left open through the error).
 */
import { describe, it } from 'vitest';
import { useDevServer } from './support/dev-server.ts';
import { editBreakFix } from './support/edit-break-fix.ts';

for (const base of ['/previews/pr-7/'])
  describe(`astro dev at ${base}`, () => {
    const project = useDevServer({ env: base === '/' ? {} : { EXPLAINER_SITE_BASE: base } });
    it('re-renders a scenario page after its file changes, and shows errors without stopping', () => editBreakFix(project, base), 120_000);
  });
