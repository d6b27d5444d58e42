/**
 * Page weight of a built site: for each page, the gzip transfer size of its HTML plus every CSS
 * and JS file it references (same-origin, from dist/), split by kind. Used to hold scenario pages
 * to the budget (≤ 120 KB in all, ≤ 15 KB of it JavaScript). JavaScript is what runs on load: the
 * page's scripts, the chunks they import statically (a dynamic `import()` loads later, on use, and
 * is not counted) and inline executable scripts — not inline data (`type="application/json"`),
 * which is part of the HTML.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface PageWeight {
  page: string;
  html: number;
  css: number;
  js: number;
  total: number;
}

const gz = (buf: Buffer | string): number => gzipSync(buf, { level: 9 }).length;

function pagesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...pagesUnder(p));
    else if (name === 'index.html') out.push(p);
  }
  return out;
}

/** Script URLs plus every chunk they import statically (`import … from "./x.js"`, `import "./x.js"`), transitively. */
function withStaticImports(dist: string, srcs: string[]): string[] {
  const seen = new Set<string>();
  const visit = (src: string): void => {
    const url = src.split(/[?#]/)[0]!;
    if (seen.has(url)) return;
    seen.add(url);
    const file = join(dist, url.replace(/^\//, ''));
    if (!existsSync(file)) return;
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/\b(?:from|import)\s*["'](\.{1,2}\/[^"']+\.m?js)["']/g)) visit(new URL(m[1]!, `http://x${url}`).pathname);
  };
  for (const s of srcs) visit(s);
  return [...seen];
}

/** Weights of every page under `dist` whose path (relative, e.g. `scenarios/x/index.html`) matches. */
export function pageWeights(dist: string, match: RegExp = /./): PageWeight[] {
  return pagesUnder(dist)
    .map((file) => ({ file, page: relative(dist, file) }))
    .filter(({ page }) => match.test(page))
    .sort((a, b) => (a.page < b.page ? -1 : 1))
    .map(({ file, page }) => {
      const html = readFileSync(file, 'utf8');
      const sizeOf = (hrefs: string[]): number =>
        [...new Set(hrefs)]
          .map((h) => join(dist, h.replace(/^\//, '').split(/[?#]/)[0]!))
          .filter((p) => existsSync(p))
          .reduce((n, p) => n + gz(readFileSync(p)), 0);
      const tags = (name: string): string[] => [...html.matchAll(new RegExp(`<${name}\\b[^>]*>`, 'g'))].map((m) => m[0]);
      const attr = (tag: string, a: string): string | undefined => new RegExp(`\\b${a}="([^"]*)"`).exec(tag)?.[1];
      const css = sizeOf(
        tags('link')
          .filter((t) => attr(t, 'rel') === 'stylesheet')
          .map((t) => attr(t, 'href')!)
          .filter(Boolean),
      );
      const externalJs = sizeOf(
        withStaticImports(
          dist,
          tags('script')
            .map((t) => attr(t, 'src'))
            .filter((s): s is string => !!s),
        ),
      );
      const inlineJs = [...html.matchAll(/<script\b(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)]
        .filter((m) => !/\btype="(?!module"|text\/javascript")[^"]*"/.test(m[1]!))
        .map((m) => m[2]!)
        .join('\n');
      const htmlSize = gz(html); // includes inline scripts
      return { page, html: htmlSize, css, js: externalJs + (inlineJs.trim() ? gz(inlineJs) : 0), total: htmlSize + css + externalJs };
    });
}
