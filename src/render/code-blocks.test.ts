/**
 * The code blocks highlighted ahead of the build: the table is what highlightCode makes of the
 * listed example files (else the pages would show stale colours or stale code), the list is every
 * file the reference pages show in a <CodeBlock>, and a block the table does not hold is still
 * highlighted, the same way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODE_BLOCK_FILES, codeBlockHtml, codeBlockKey, codeBlockTable } from './code-blocks.ts';
import table from './code-blocks.json' with { type: 'json' };
import { highlightCode } from './highlight.ts';

const ROOT = join(import.meta.dirname, '../..');

/** Every <CodeBlock code={x} lang="…"> of the site's pages, as [file shown (x's `?raw` import, from the root), lang]. */
function pageCodeBlocks(): [string, string][] {
  const out: [string, string][] = [];
  for (const dir of ['src/pages', 'src/routes'])
    for (const f of readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })) {
      if (!/\.(mdx|astro)$/.test(f)) continue;
      const text = readFileSync(join(ROOT, dir, f), 'utf8');
      const raw = new Map([...text.matchAll(/^import (\w+) from '([^']+)\?raw';$/gm)].map((m) => [m[1]!, join(dir, f, '..', m[2]!)]));
      for (const m of text.matchAll(/<CodeBlock code=\{(\w+)\} lang="(\w+)" \/>/g)) out.push([raw.get(m[1]!) ?? `${m[1]} (not a ?raw import)`, m[2]!]);
    }
  return out.sort();
}

describe('code blocks highlighted ahead of the build', () => {
  it('src/render/code-blocks.json is what highlightCode makes of the listed files (else: npm run code-blocks)', async () => {
    expect(table).toEqual(await codeBlockTable(ROOT));
  });

  it('lists every file a reference page shows in a <CodeBlock>, with its language', () => {
    const listed = CODE_BLOCK_FILES.map(([f, l]) => [f, l]).sort();
    expect(pageCodeBlocks()).toEqual(listed);
  });

  it('takes a listed file from the table, and highlights code the table does not hold the same way', async () => {
    const [file, lang] = CODE_BLOCK_FILES[0]!;
    const code = readFileSync(join(ROOT, file), 'utf8');
    expect(await codeBlockHtml(code, lang)).toBe((table as Record<string, string>)[codeBlockKey(code, lang)]);
    const edited = `${code}# one more line\n`;
    expect((table as Record<string, string>)[codeBlockKey(edited, lang)]).toBeUndefined();
    const html = await codeBlockHtml(edited, lang);
    expect(html).toBe(await highlightCode(edited, lang));
    expect(html).toContain('one more line');
  });
});
