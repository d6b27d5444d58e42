/**
 * `prompt-fold vectors` — the provider-rule cases of the project's `requests` scenarios as
 * versioned JSON test vectors (src/vectors), for other implementations to test themselves against.
 */
import { readFileSync } from 'node:fs';
import { vectorsCommand } from '../vectors/command.ts';
import { loadConfig, runMain } from './config.ts';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

runMain(async () => vectorsCommand(process.argv.slice(2), await loadConfig(), { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), version }));
