/**
 * `prompt-fold assert` — cache promises checked against recorded requests, for a team's own CI in
 * any language (src/assert/command.ts says what it does and its exit codes). Needs no astro
 * config: it reads captures, not a site.
 */
import { readFileSync } from 'node:fs';
import { assertCommand } from '../assert/command.ts';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

process.exitCode = await assertCommand(process.argv.slice(2), {
  cwd: process.cwd(),
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  version,
});
