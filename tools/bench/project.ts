/**
 * The two throwaway sites `npm run bench` builds, each in its own temp dir with this project's
 * node_modules linked (nothing is installed, nothing in the working tree is touched):
 * - a copy of this project (config, sources, public/, examples …) whose scenarios/ holds the synthetic corpus
 *   instead of the bundled scenarios (except the few the reference pages embed) — the same copy
 *   tests/support/project.ts makes for the build tests; with `options`, its astro.config.mjs is
 *   this project's explainer options (as the commands read them, src/cli/config.ts) with those
 *   merged in — the benchmark turns the in-build search index off to time it on its own line;
 * - the baseline: a plain Astro site with the same @astrojs/mdx integration and one Markdown page
 *   per scenario holding its requests as fenced ```yaml blocks (Astro's default shiki
 *   highlighting) — what a team would build by hand.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readExplainerOptions } from '../../src/cli/config.ts';
import type { ExplainerOptions } from '../../src/integration/options.ts';
import type { CorpusFile } from './corpus.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
/** Top-level entries not copied: generated output, tooling state, tests, the scenarios (replaced). */
const SKIP = new Set(['node_modules', 'dist', 'lib', 'tools', '.astro', '.git', '.github', '.ci', '.tmp', 'bench-results', 'test-results', 'tests', 'fixtures', 'scenarios']);

/**
 * The bundled scenarios the site's own pages cannot do without: the ones the reference pages embed
 * (`<RequestView scenario="…">`) and their bases. The benchmark keeps them next to the synthetic
 * corpus so the copy is the whole site, reference pages included.
 */
export function referencedScenarios(): CorpusFile[] {
  const pages = readdirSync(join(ROOT, 'src/pages'), { recursive: true, encoding: 'utf8' }).filter((f) => /\.(mdx|astro|md)$/.test(f));
  const wanted = new Set<string>();
  for (const f of pages) for (const m of readFileSync(join(ROOT, 'src/pages', f), 'utf8').matchAll(/<RequestView\s+scenario="([^"]+)"/g)) wanted.add(m[1]!);
  const bundled = readdirSync(join(ROOT, 'scenarios'))
    .filter((n) => /\.(ya?ml|md)$/.test(n))
    .map((name) => {
      const text = readFileSync(join(ROOT, 'scenarios', name), 'utf8');
      return { name, text, id: /^id: *(\S+)/m.exec(text)?.[1], base: /^base: *(\S+)/m.exec(text)?.[1] };
    });
  const byId = new Map(bundled.map((b) => [b.id, b]));
  const keep = new Set<string>();
  for (let todo = [...wanted]; todo.length; ) {
    const b = byId.get(todo.pop());
    if (!b || keep.has(b.name)) continue;
    keep.add(b.name);
    if (b.base) todo.push(b.base);
  }
  return bundled.filter((b) => keep.has(b.name)).map(({ name, text }) => ({ name, text }));
}

/** A copy of this project with `files` as its only scenarios (and `options` over its explainer options). */
export async function makeSiteProject(files: readonly CorpusFile[], options?: Partial<ExplainerOptions>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'pfe-bench-site-'));
  for (const p of readdirSync(ROOT)) {
    if (SKIP.has(p) || p.endsWith('.log')) continue;
    // The sources' tests are not needed to build; the examples' are shown by a page (reference/cache-promises).
    cpSync(join(ROOT, p), join(dir, p), { recursive: true, filter: (src) => p === 'examples' || !src.endsWith('.test.ts') });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  mkdirSync(join(dir, 'scenarios'));
  for (const f of files) writeFileSync(join(dir, 'scenarios', f.name), f.text);
  if (options) {
    const merged = { ...(await readExplainerOptions(ROOT)), ...options };
    writeFileSync(
      join(dir, 'astro.config.mjs'),
      [
        "// The benchmark's copy of this site: its explainer options, with the benchmark's changes (tools/bench/project.ts).",
        "import { defineConfig } from 'astro/config';",
        "import { explainer } from './src/package/index.ts';",
        '',
        `export default defineConfig({ output: 'static', trailingSlash: 'always', integrations: [explainer(${JSON.stringify(merged)})] });`,
        '',
      ].join('\n'),
    );
  }
  return dir;
}

export interface BaselinePage {
  slug: string;
  title: string;
  intro: string;
  requests: { offset: number; text: string }[];
}

/** The longest run of backticks in `text`, so a fence around it can be longer. */
const longestTicks = (text: string): number => Math.max(0, ...(text.match(/`+/g) ?? []).map((m) => m.length));

/** One Markdown page: title, intro, then each request as a fenced yaml block. */
export function baselineMarkdown(page: BaselinePage): string {
  const out = ['---', `title: ${JSON.stringify(page.title)}`, '---', '', `# ${page.title}`, '', page.intro, ''];
  for (const q of page.requests) {
    const fence = '`'.repeat(Math.max(3, longestTicks(q.text) + 1));
    out.push(`## Request @${q.offset}`, '', `${fence}yaml`, q.text, fence, '');
  }
  return out.join('\n');
}

/** The plain Astro site: an index plus one Markdown page per scenario. */
export function makeBaselineProject(pages: readonly BaselinePage[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'pfe-bench-baseline-'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'pfe-bench-baseline', private: true, type: 'module' }, null, 2)}\n`);
  writeFileSync(
    join(dir, 'astro.config.mjs'),
    [
      "import { defineConfig } from 'astro/config';",
      "import mdx from '@astrojs/mdx';",
      '',
      "export default defineConfig({ output: 'static', trailingSlash: 'always', integrations: [mdx()] });",
      '',
    ].join('\n'),
  );
  const pagesDir = join(dir, 'src', 'pages');
  mkdirSync(join(pagesDir, 'scenarios'), { recursive: true });
  writeFileSync(join(pagesDir, 'index.md'), ['---', 'title: Scenarios', '---', '', '# Scenarios', '', ...pages.map((p) => `- [${p.title}](/scenarios/${p.slug}/)`), ''].join('\n'));
  for (const p of pages) writeFileSync(join(pagesDir, 'scenarios', `${p.slug}.md`), baselineMarkdown(p));
  return dir;
}

/** Removes a temp project (its node_modules is a link: the link goes, the target stays). */
export function removeProject(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
