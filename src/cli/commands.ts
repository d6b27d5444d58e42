/**
 * The commands of `prompt-fold <command>` (started by prompt-fold.ts): each reads the explainer's
 * options from the astro config in the current folder (config.ts) and runs its own module, the same
 * for a host site as for this repository.
 */
import { UsageError, runMain } from './config.ts';
import { useProject } from '../integration/project-facts.ts';

// Every message names the commands as this project runs them (`npx prompt-fold check` in a host
// site) — usage lines included, which a command prints before it reads the config.
useProject(process.cwd());

/** Each command: what it does (the usage line) and its module, which parses process.argv.slice(2) and runs itself when imported. */
const COMMANDS: Record<string, { what: string; run: () => Promise<unknown> }> = {
  check: { what: 'the corpus check and fixture freshness, without building', run: () => import('./check.ts') },
  fixtures: { what: 'regenerate the fixtures folder', run: () => import('./fixtures.ts') },
  report: { what: 'cache economics per scenario and request [--json]', run: () => import('./report.ts') },
  import: { what: 'turn a recorded trace into a scenario file', run: () => import('./import.ts') },
  'pr-summary': { what: 'the pull-request comment listing changed prompts', run: () => import('./pr-summary.ts') },
  'pr-comment': { what: 'post or update that comment on the pull request (GitHub Actions: GITHUB_TOKEN)', run: () => import('./pr-comment.ts') },
  sync: { what: 'publish the built site to a target (dir:<path> or s3://bucket/prefix)', run: () => import('./sync.ts') },
  preview: { what: 'pull-request previews: build | publish | remove', run: () => import('./preview.ts') },
  assert: { what: 'check cache promises against recorded requests (--expect <file>) [--reporter junit|sarif|github]', run: () => import('./assert.ts') },
  vectors: { what: 'the provider-rule cases of the requests scenarios as JSON test vectors [--out <file>]', run: () => import('./vectors.ts') },
  schemas: { what: 'write the editor JSON Schemas of scenario files', run: () => import('./schemas.ts') },
};

const usage = (): string =>
  `usage: prompt-fold <command> [options]\n\ncommands:\n${Object.entries(COMMANDS)
    .map(([c, { what }]) => `  ${c.padEnd(11)} ${what}`)
    .join('\n')}\n`;

const [command, ...rest] = process.argv.slice(2);
if (!command || command === '--help' || command === '-h' || command === 'help') {
  process.stdout.write(usage());
} else if (!Object.hasOwn(COMMANDS, command)) {
  runMain(async () => {
    throw new UsageError(`prompt-fold: unknown command "${command}"\n${usage()}`);
  });
} else {
  process.argv = [process.argv[0]!, process.argv[1]!, ...rest];
  await COMMANDS[command]!.run();
}
