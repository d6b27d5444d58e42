/**
 * `npm run code-blocks` — writes src/render/code-blocks.json again: the reference
 * pages' code blocks (the example files src/render/code-blocks.ts lists) as highlightCode makes
 * them, which a build takes instead of highlighting them itself. Needed when one of those files
 * changes or shiki does (an upgrade); src/render/code-blocks.test.ts says when.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeBlockTable } from '../../src/render/code-blocks.ts';
import { runMain } from '../../src/cli/config.ts';

const ROOT = join(import.meta.dirname, '../..');
export const CODE_BLOCKS_JSON = join(ROOT, 'src/render/code-blocks.json');

runMain(async () => {
  writeFileSync(CODE_BLOCKS_JSON, `${JSON.stringify(await codeBlockTable(ROOT), null, 2)}\n`);
  console.log(`wrote ${CODE_BLOCKS_JSON}`);
});
