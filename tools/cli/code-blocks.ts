/**
 * `npm run code-blocks` — writes the reference pages' code blocks made ahead of the build again:
 * src/render/code-blocks.json (the example files src/render/code-blocks.ts lists, as highlightCode
 * makes them) and src/render/markdown-code-blocks.json (the tokens shiki makes of the ``` blocks of
 * the .mdx pages, src/render/markdown-code-blocks.ts), which a build takes instead of highlighting
 * or tokenizing them itself. Needed when one of those files changes or shiki does (an upgrade);
 * src/render/code-blocks.test.ts and markdown-code-blocks.test.ts say when.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeBlockTable } from '../../src/render/code-blocks.ts';
import { markdownBlockTable } from '../../src/render/markdown-code-blocks.ts';
import { runMain } from '../../src/cli/config.ts';

const ROOT = join(import.meta.dirname, '../..');
export const CODE_BLOCKS_JSON = join(ROOT, 'src/render/code-blocks.json');
export const MARKDOWN_CODE_BLOCKS_JSON = join(ROOT, 'src/render/markdown-code-blocks.json');

runMain(async () => {
  writeFileSync(CODE_BLOCKS_JSON, `${JSON.stringify(await codeBlockTable(ROOT), null, 2)}\n`);
  console.log(`wrote ${CODE_BLOCKS_JSON}`);
  writeFileSync(MARKDOWN_CODE_BLOCKS_JSON, `${JSON.stringify(await markdownBlockTable(ROOT))}\n`);
  console.log(`wrote ${MARKDOWN_CODE_BLOCKS_JSON}`);
});
