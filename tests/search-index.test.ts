/**
 * What the offline search (pagefind) indexes on a scenario page: the prompt text, not the pane's
 * gutter and controls. The run's shared build of the bundled corpus (tests/support/shared-site.ts:
 * Astro's build, whose integration runs pagefind with src/integration/search-index.ts's exclusions, as `npm run build` does) is read
 * back: pagefind's page fragments (each is gzip: an optional `pagefind_dcd` signature,
 * then the page's JSON whose `content` is the indexed text search excerpts are cut from). Before
 * the fix a prompt line read "@40+added …" there.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedBuildDir } from './support/shared-site.ts';

interface Fragment {
  url: string;
  content: string;
}

let pages: Map<string, Fragment>;

/** Every page pagefind indexed, by URL. */
function readFragments(dist: string): Map<string, Fragment> {
  const folder = join(dist, 'pagefind', 'fragment');
  const out = new Map<string, Fragment>();
  for (const name of readdirSync(folder)) {
    const text = gunzipSync(readFileSync(join(folder, name)))
      .toString('utf8')
      .replace(/^pagefind_dcd/, '');
    const parsed = JSON.parse(text) as Fragment | Fragment[];
    for (const f of Array.isArray(parsed) ? parsed : [parsed]) out.set(f.url, f);
  }
  return out;
}

beforeAll(async () => {
  pages = readFragments(join(await sharedBuildDir(), 'dist'));
}, 600_000);

describe('the search index', () => {
  it('holds the prompt text of a scenario page', () => {
    const page = pages.get('/scenarios/sent-re-add/');
    expect(page, [...pages.keys()].join(', ')).toBeDefined();
    expect(page!.content).toContain('money is integer cents, never floats');
  });

  it('holds no gutter, sign, count or cut text', () => {
    // A change sign's label glued to its symbol ("+added", "~was"), the pane head's counts and
    // badges, the ✂ line, the review views' titles — each quoted with its context when found.
    const CONTROL =
      /[+~−](?:added|changed|removed|was)\b|\+\d+ added ~\d+ changed|Since (?:request )?@\d+:|\d+ % cached|✂ cache cut|above: cached prefix|Diff — (?:unified|side by side)|Annotation: /g;
    for (const url of ['/scenarios/sent-re-add/', '/scenarios/metadata-lines-before-after/', '/scenarios/imported-trace/']) {
      const content = pages.get(url)?.content;
      expect(content, url).toBeDefined();
      const found = [...content!.matchAll(CONTROL)].map((m) => `…${content!.slice(Math.max(0, m.index - 30), m.index + 30)}…`);
      expect(found, url).toEqual([]);
    }
  });

  it('indexes a timeline card by its event type and text, not its offset and elapsed label glued on', () => {
    const content = pages.get('/scenarios/sent-re-add/')!.content;
    expect(content).toContain('agents/context-added');
    expect(content).not.toMatch(/@\d+agents?\/|[a-z-]+\+\d+(?:\.\d+)?(?:ms|s|m)\b/);
  });

  it('quotes a prompt line as written, without the gutter before it', () => {
    // A line of the request pane (the @32 assistant turn): before the fix it read
    // '@32+added - role: assistant. +added content: "Two house rules: …'.
    const content = pages.get('/scenarios/sent-re-add/')!.content;
    const at = content.indexOf('content: "Two house rules: amounts are integer cents');
    expect(at).toBeGreaterThan(-1);
    expect(content.slice(Math.max(0, at - 40), at)).toMatch(/- role: assistant\.?\s*$/);
    expect(content.slice(Math.max(0, at - 40), at)).not.toMatch(/@\d+|added|changed/);
  });
});
