/**
 * The scenario page shows the request linter's findings on the request they concern (from the shared
 * build of the bundled corpus): the imported trace's second request carries a date that changes on
 * every request inside its cached prefix — one compact line in that request's pane, linking the
 * provider's rule — and a request without findings has no lint list.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedBuiltPage } from './support/shared-site.ts';

/** The markup of request @offset's pane on a built page. */
const paneOf = (html: string, offset: number): string => {
  const start = html.search(new RegExp(`<section class="pane[^"]*" id="pane-${offset}"`));
  expect(start, `request @${offset}'s pane is on the page`).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf('</section>', start));
};

describe('lint findings on the request pane', () => {
  let html = '';
  beforeAll(async () => {
    html = await sharedBuiltPage('/scenarios/imported-trace/');
  }, 600_000);

  it('a compact line on the request it concerns, with the provider’s rule; none on a request without findings', () => {
    const four = paneOf(html, 4);
    expect(four).toContain('data-kind="request"');
    const list = /<ul class="lint" aria-label="Request lint">(.*?)<\/ul>/.exec(four)?.[1] ?? '';
    expect(list).toMatch(
      /^<li class="lint-warning"><strong>warning<\/strong> <code>volatile-prefix<\/code> request @4: a value that changes on every request sits inside the cached prefix: .*Today&#39;s date: 2026-12-01\..*\(<a href="https:\/\/platform\.claude\.com\/docs\/en\/build-with-claude\/prompt-caching" rel="noreferrer">the provider’s rule<\/a>\)<\/li>$/,
    );
    expect(paneOf(html, 5)).toContain('data-kind="request"');
    expect(paneOf(html, 5)).not.toContain('class="lint"');
  });
});
