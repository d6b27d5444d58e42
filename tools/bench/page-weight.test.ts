/** Page weight counts the page's HTML, its linked stylesheets and its scripts (inline and external). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, it, onTestFinished } from 'vitest';
import { pageWeights } from './page-weight.ts';

it('sums gzip sizes of HTML, linked CSS and JS per page', () => {
  const dist = mkdtempSync(join(tmpdir(), 'pfe-weight-'));
  onTestFinished(() => rmSync(dist, { recursive: true, force: true }));
  mkdirSync(join(dist, '_astro'));
  mkdirSync(join(dist, 'a'));
  const css = 'body{color:red}'.repeat(50);
  const chunk = 'export const c=2;'.repeat(30);
  const js = `import{c}from"./chunk.js";const l=()=>import("./lazy.js");console.log(1);`.repeat(50);
  writeFileSync(join(dist, '_astro/s.css'), css);
  writeFileSync(join(dist, '_astro/m.js'), js);
  writeFileSync(join(dist, '_astro/chunk.js'), chunk);
  writeFileSync(join(dist, '_astro/lazy.js'), 'console.log("only on use");'.repeat(40));
  // Inline data is HTML, not JavaScript; a static import counts, a dynamic one does not.
  const html =
    '<html><head><link href="/_astro/s.css" rel="stylesheet"><script type="module" src="/_astro/m.js"></script><script>var x = 1;</script><script type="application/json" id="d">{"a":1}</script></head><body>hi</body></html>';
  writeFileSync(join(dist, 'a/index.html'), html);
  writeFileSync(join(dist, 'index.html'), '<p>home</p>');
  const gz = (s: string): number => gzipSync(s, { level: 9 }).length;
  const [a, home] = pageWeights(dist);
  expect(a).toEqual({ page: 'a/index.html', html: gz(html), css: gz(css), js: gz(js) + gz(chunk) + gz('var x = 1;'), total: gz(html) + gz(css) + gz(js) + gz(chunk) });
  expect(home).toMatchObject({ page: 'index.html', css: 0, js: 0 });
  expect(pageWeights(dist, /^a\//).map((p) => p.page)).toEqual(['a/index.html']);
});
