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

const COMMANDS: Record<string, string> = {
  check: 'the corpus check and fixture freshness, without building',
  fixtures: 'regenerate the fixtures folder',
  report: 'cache economics per scenario and request [--json]',
  import: 'turn a recorded trace into a scenario file',
  'pr-summary': 'the pull-request comment listing changed prompts',
  'pr-comment': 'post or update that comment on the pull request (GitHub Actions: GITHUB_TOKEN)',
  sync: 'publish the built site to a target (dir:<path> or s3://bucket/prefix)',
  preview: 'pull-request previews: build | publish | remove',
  schemas: 'write the editor JSON Schemas of scenario files',
};

const usage = (): string =>
  `usage: prompt-fold <command> [options]\n\ncommands:\n${Object.entries(COMMANDS)
    .map(([c, what]) => `  ${c.padEnd(11)} ${what}`)
    .join('\n')}\n`;

const [command, ...rest] = process.argv.slice(2);
if (!command || command === '--help' || command === '-h' || command === 'help') {
  process.stdout.write(usage());
} else if (!(command in COMMANDS)) {
  runMain(async () => {
    throw new UsageError(`prompt-fold: unknown command "${command}"\n${usage()}`);
  });
} else {
  // Each command module parses process.argv.slice(2) and runs itself when imported.
  process.argv = [process.argv[0]!, process.argv[1]!, ...rest];
  switch (command) {
    case 'check':
      await import('./check.ts');
      break;
    case 'fixtures':
      await import('./fixtures.ts');
      break;
    case 'report':
      await import('./report.ts');
      break;
    case 'import':
      await import('./import.ts');
      break;
    case 'pr-summary':
      await import('./pr-summary.ts');
      break;
    case 'pr-comment':
      await import('./pr-comment.ts');
      break;
    case 'sync':
      await import('./sync.ts');
      break;
    case 'preview':
      await import('./preview.ts');
      break;
    case 'schemas':
      await import('./schemas.ts');
      break;
  }
}
