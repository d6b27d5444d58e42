/**
 * The .mdx pages' code blocks tokenized ahead of the build: the table is what shiki makes of the
 * pages' blocks now (else `npm run code-blocks`), a block from the table gives the same tree as the
 * block highlighted with its grammar — without the grammar being there at all — and a block the
 * table does not hold is highlighted as before. The fence reader follows CommonMark where the pages
 * need it.
 */
import { join } from 'node:path';
import { createHighlighter, type CodeToHastOptions, type Highlighter } from 'shiki';
import { beforeAll, describe, expect, it } from 'vitest';
import { noTokenizeTimeLimit, THEMES } from './highlight.ts';
import { cachedMarkdownBlocks, fencedBlocks, markdownBlockKey, markdownBlockTable, pageBlocks } from './markdown-code-blocks.ts';
import table from './markdown-code-blocks.json' with { type: 'json' };

const ROOT = join(import.meta.dirname, '../..');

/** Astro's call (its internal helpers' createShikiHighlighter): the themes, no default colour, the config's transformers. */
const options = (lang: string, cached: boolean): CodeToHastOptions => ({
  lang,
  themes: THEMES,
  defaultColor: false,
  transformers: cached ? [noTokenizeTimeLimit, cachedMarkdownBlocks] : [noTokenizeTimeLimit],
});

describe("the .mdx pages' code blocks tokenized ahead of the build", () => {
  let withGrammars: Highlighter;
  let noGrammar: Highlighter;
  beforeAll(async () => {
    withGrammars = await createHighlighter({ themes: Object.values(THEMES), langs: ['yaml', 'ts', 'js', 'sh', 'python'] });
    noGrammar = await createHighlighter({ themes: Object.values(THEMES), langs: [] });
  });

  it('src/render/markdown-code-blocks.json is what shiki makes of the pages’ blocks (else: npm run code-blocks)', async () => {
    expect(table).toEqual(await markdownBlockTable(ROOT));
    // Every language the pages highlight is there: TypeScript, JavaScript, Python, shell, YAML.
    expect(new Set(Object.keys(table).map((k) => k.split(':')[0]))).toEqual(new Set(['ts', 'js', 'python', 'sh', 'yaml']));
  });

  it('gives a block from the table the same tree as its grammar does, with no grammar loaded', () => {
    const found = pageBlocks(ROOT);
    expect(found.length).toBeGreaterThanOrEqual(10);
    for (const [lang, code] of found) expect((table as Record<string, unknown>)[markdownBlockKey(code, lang)], lang).toBeDefined();
    for (const [lang, code] of found) {
      const expected = withGrammars.codeToHast(code, options(lang, false));
      // The highlighter without grammars would throw on `lang` if it tokenized the block with one.
      expect(() => noGrammar.codeToHast(code, options(lang, false)), lang).toThrow(/not (found|loaded)/i);
      expect(noGrammar.codeToHast(code, options(lang, true)), `${lang}: ${code.slice(0, 40)}`).toEqual(expected);
    }
  });

  it('highlights a block the table does not hold with its grammar, as before', () => {
    const [lang, code] = pageBlocks(ROOT).find(([l]) => l === 'ts')!;
    const edited = `${code}\nconst added = 1;`;
    expect((table as Record<string, unknown>)[markdownBlockKey(edited, lang)]).toBeUndefined();
    const tree = withGrammars.codeToHast(edited, options(lang, true));
    expect(tree).toEqual(withGrammars.codeToHast(edited, options(lang, false)));
    expect(JSON.stringify(tree)).toContain('added');
    expect(() => noGrammar.codeToHast(edited, options(lang, true))).toThrow(/not (found|loaded)/i);
  });

  it('reads fences as CommonMark does: backticks or tildes, indented up to 3, a longer close, no backtick in a backtick info string', () => {
    const text = [
      'Prose with ```` ```yaml (events.yaml) ```` inline: not a fence.',
      '```ts title="x"',
      'const a = 1;',
      '',
      'const b = 2;',
      '```',
      '  ~~~~sh',
      '  echo hi',
      '    indented more',
      '  ~~~~~',
      '````md',
      '```',
      'inner fence',
      '```',
      '````',
      '```',
      'no language',
      '```',
      '```yaml',
      'never: closed',
    ].join('\n');
    expect(fencedBlocks(text)).toEqual([
      ['ts', 'const a = 1;\n\nconst b = 2;'],
      ['sh', 'echo hi\n  indented more'],
      ['md', '```\ninner fence\n```'],
      ['', 'no language'],
    ]);
  });
});
