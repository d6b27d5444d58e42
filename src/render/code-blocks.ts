/**
 * The reference pages' code blocks (components/CodeBlock.astro), highlighted ahead of the build.
 * They show files of this package's examples/ — the same bytes in every build — and highlighting
 * them was a tenth of a site build's CPU time: shiki compiles the TypeScript and YAML grammars'
 * expressions before it colours a line (most of the cost: the TypeScript grammar alone is ~0.4 s),
 * for six short files. So their HTML is made once, by highlightCode (highlight.ts) itself, and kept
 * in code-blocks.json, keyed by the language and a digest of the code; a build takes a block from
 * there and highlights only what the table does not hold (an example edited since, a host's own
 * code), with the same function — the page is the same either way. code-blocks.test.ts fails when
 * the table is not what highlightCode makes of CODE_BLOCK_FILES (an example edited, a shiki
 * upgrade), and says how to write it again: `npm run code-blocks`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { highlightCode, type LANGS } from './highlight.ts';
import table from './code-blocks.json' with { type: 'json' };

type Lang = (typeof LANGS)[number];

/** The files the reference pages show in a <CodeBlock> (imported with `?raw`), relative to the project root, with their language. */
export const CODE_BLOCK_FILES: readonly (readonly [string, Lang])[] = [
  ['examples/scenarios/first-scenario.yaml', 'yaml'],
  ['examples/python-pytest/cache-promises.yaml', 'yaml'],
  ['examples/python-pytest/.github/workflows/cache.yml', 'yaml'],
  ['examples/folds/chat-log.cache.test.ts', 'ts'],
  ['examples/folds/chat-log.ts', 'ts'],
  ['examples/scenarios/chat-log.yaml', 'yaml'],
];

/** A block's key in the table: its language and the SHA-256 of its code. */
export const codeBlockKey = (code: string, lang: Lang): string => `${lang}:${createHash('sha256').update(code).digest('hex')}`;

const made: Readonly<Record<string, string>> = table;

/** A code block's HTML: from the table when it holds this code, else highlighted now (the same HTML). */
export function codeBlockHtml(code: string, lang: Lang): Promise<string> {
  const html = made[codeBlockKey(code, lang)];
  return html === undefined ? highlightCode(code, lang) : Promise.resolve(html);
}

/** The table as highlightCode makes it from CODE_BLOCK_FILES under `root` (what code-blocks.json holds), in the list's order. */
export async function codeBlockTable(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [file, lang] of CODE_BLOCK_FILES) {
    const code = readFileSync(join(root, file), 'utf8');
    out[codeBlockKey(code, lang)] = await highlightCode(code, lang);
  }
  return out;
}
