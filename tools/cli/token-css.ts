/**
 * `npm run token-css` — regenerates src/styles/tokens.css, the colours of the token
 * classes and YAML token elements the highlighter emits (see src/render/highlight.ts). Needed only when the shiki
 * themes change (a shiki upgrade); src/render/highlight.test.ts says when.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenCss } from '../../src/render/highlight.ts';
import { runMain } from '../../src/cli/config.ts';

export const TOKEN_CSS = join(import.meta.dirname, '../../src/styles/tokens.css');

runMain(async () => {
  writeFileSync(TOKEN_CSS, await tokenCss());
  console.log(`wrote ${TOKEN_CSS}`);
});
