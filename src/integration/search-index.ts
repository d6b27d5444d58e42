/**
 * The offline search index of the explainer's pages, built after `astro build` (the integration's
 * `astro:build:done`) with pagefind's Node API: it indexes the HTML under the route and writes the
 * bundle to `<route>pagefind/`, where the search page loads it — so a host site that puts the
 * explainer under `/explainer/` gets `/explainer/pagefind/`, beside (never over) a search of its own.
 *
 * What the index leaves out: the panes' gutters (provenance links, line numbers), change signs (a
 * text diff's; a prompt line's sign is the stylesheet's generated content, never in the HTML),
 * counts, badges, the ✂ line, review controls and titles, a diff's "⋯ unchanged lines" rows, and
 * the timeline cards' offset and elapsed labels, the billed lede's figures — a search finds and quotes the prompt text, not
 * "@40+added". One list here instead of an attribute on every line: a page's lines are most of its
 * markup. tests/search-index.test.ts builds the site and reads the index back.
 */
import { UserError } from '../errors.ts';

export const EXCLUDE_SELECTORS = [
  '.gutter',
  '.sign',
  '.story',
  '.badge',
  '.cut',
  '.cut-econ',
  '.review-tabs',
  '.review-title',
  '.note > .visually-hidden',
  'details.abridged > summary',
  '.code > .gap',
  '.card .off',
  '.card .elapsed',
  '.billed-lede',
];

/** Indexes the HTML pages under `dir` into `dir/pagefind/`; returns how many pages. */
export async function buildSearchIndex(dir: string): Promise<number> {
  const pagefind = await import('pagefind');
  try {
    const { index, errors } = await pagefind.createIndex({ excludeSelectors: EXCLUDE_SELECTORS });
    if (!index || errors.length)
      throw new UserError(`search index: pagefind could not start: ${errors.join('; ')}`, {
        fix: `reinstall dependencies (npm ci) so pagefind's binary for this platform is present`,
      });
    const added = await index.addDirectory({ path: dir });
    if (added.errors.length) throw new UserError(`search index: ${added.errors.join('; ')}`);
    const written = await index.writeFiles({ outputPath: `${dir}/pagefind` });
    if (written.errors.length) throw new UserError(`search index: ${written.errors.join('; ')}`);
    return added.page_count;
  } finally {
    await pagefind.close();
  }
}
