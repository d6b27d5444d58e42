/**
 * The reference pages' Markdown code blocks (the ``` fences of the explainer's .mdx pages and this
 * site's own), tokenized ahead of the build. Astro highlights them with shiki, which compiles a
 * grammar's expressions before it colours a line: the TypeScript, JavaScript, Python, shell and YAML
 * grammars for fifteen short blocks whose text is the same in every build — about 0.4 CPU-s of a
 * site build, none of it needed (the same reason as code-blocks.ts, for the <CodeBlock> files).
 *
 * Astro's highlighting is left in charge (its markup, its attributes); this transformer, in the
 * shikiConfig the explainer gives a host that has none (src/package/index.ts), only hands it the
 * tokens: a block whose language and text the table holds is tokenized as plain text — no grammar
 * is compiled — and its tokens are then replaced by the table's, the tokens shiki made of it with
 * the grammar; the HTML is built from them as always, so the page is the same byte for byte. Any
 * other block (a host's, an edited one) is highlighted as before. The table
 * (markdown-code-blocks.json, keyed by the language and a digest of the code) is written by
 * `npm run code-blocks`; markdown-code-blocks.test.ts fails when it is not what shiki makes of the
 * pages' blocks now (a page edited, a shiki upgrade), and shows that a block from the table and the
 * same block highlighted by its grammar give the same tree.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeToHastOptions, ShikiTransformer, ThemedToken } from 'shiki';
import { highlighter, noTokenizeTimeLimit, THEMES } from './highlight.ts';
import table from './markdown-code-blocks.json' with { type: 'json' };

/** The folders (from the project root) whose .mdx pages' blocks the table holds: the explainer's pages and this site's. */
export const MARKDOWN_PAGE_DIRS = ['src/routes', 'src/pages'] as const;

/** Languages shiki does not tokenize with a grammar (nothing to save). */
const PLAIN = new Set(['', 'text', 'txt', 'plain', 'plaintext', 'ansi']);

/** A block's key in the table: its language and the SHA-256 of its code (as Astro passes it: without the final newline). */
export const markdownBlockKey = (code: string, lang: string): string => `${lang}:${createHash('sha256').update(code).digest('hex')}`;

const made = table as unknown as Readonly<Record<string, ThemedToken[][]>>;

/** The table's tokens for the block being highlighted with these options (set by preprocess, read by tokens). */
const fromTable = new WeakMap<CodeToHastOptions, ThemedToken[][]>();

/** The transformer: a block the table holds is tokenized as plain text, then given the table's tokens. */
export const cachedMarkdownBlocks: ShikiTransformer = {
  name: 'prompt-fold-explainer:cached-code-blocks',
  preprocess(code, options) {
    const tokens = made[markdownBlockKey(code, String(options.lang))];
    if (!tokens) return;
    fromTable.set(options, tokens);
    options.lang = 'text';
  },
  tokens(tokens) {
    return fromTable.get(this.options) ?? tokens;
  },
};

/**
 * The fenced code blocks of a Markdown/MDX text, as [language, code] — the code as Astro hands it
 * to shiki: the opening fence's indent taken off each line, without the final newline. CommonMark's
 * rules, as far as the table needs them: a fence is 3+ backticks or tildes indented at most 3
 * spaces, a backtick fence's info string has no backtick (```` ```x ```` in prose is inline code), and
 * it closes on a line of at least as many of the same character. A block read wrongly here is only
 * missing from the table (Astro then highlights it itself).
 */
export function fencedBlocks(text: string): [string, string][] {
  const out: [string, string][] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(lines[i]!);
    if (!open || (open[2]![0] === '`' && open[3]!.includes('`'))) continue;
    const [, indent, fence, info] = open as unknown as [string, string, string, string];
    const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
    const end = lines.findIndex((l, k) => k > i && close.test(l));
    if (end < 0) break;
    const body = lines.slice(i + 1, end).map((l) => l.slice(Math.min(indent.length, l.length - l.trimStart().length)));
    out.push([info.trim().split(/\s/)[0]!, body.join('\n')]);
    i = end;
  }
  return out;
}

/** The tokens shiki makes of a block with its grammar, in the explainer's themes (what Astro's highlighting hands to its HTML). */
async function tokensOf(code: string, lang: string): Promise<ThemedToken[][]> {
  const hl = await highlighter();
  if (!hl.getLoadedLanguages().includes(lang)) await hl.loadLanguage(lang as Parameters<typeof hl.loadLanguage>[0]);
  let tokens: ThemedToken[][] = [];
  const capture: ShikiTransformer = {
    name: 'capture',
    tokens(t) {
      tokens = t;
    },
  };
  hl.codeToHast(code, { lang, themes: THEMES, defaultColor: false, transformers: [noTokenizeTimeLimit, capture] });
  return tokens;
}

/** The blocks of the .mdx pages under `root` that shiki tokenizes with a grammar, as [language, code], in file order. */
export function pageBlocks(root: string): [string, string][] {
  const out: [string, string][] = [];
  for (const dir of MARKDOWN_PAGE_DIRS) {
    const files = readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.mdx'))
      .sort();
    for (const f of files) out.push(...fencedBlocks(readFileSync(join(root, dir, f), 'utf8')).filter(([lang]) => !PLAIN.has(lang)));
  }
  return out;
}

/** The table as shiki makes it of the pages' blocks under `root` (what markdown-code-blocks.json holds). */
export async function markdownBlockTable(root: string): Promise<Record<string, ThemedToken[][]>> {
  const out: Record<string, ThemedToken[][]> = {};
  for (const [lang, code] of pageBlocks(root)) out[markdownBlockKey(code, lang)] ??= await tokensOf(code, lang);
  return out;
}
