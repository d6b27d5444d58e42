/**
 * `npm run fixtures` — regenerate fixtures/ from the scenarios: checks the whole corpus first
 * (any error: nothing is written), then writes only changed fixtures atomically and deletes
 * fixtures of removed scenarios. A second run changes nothing. Refuses to run in CI, where
 * fixtures are only ever checked (`npm test`, `npm run check`).
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { renderCorpus } from '../corpus/check.ts';
import { reportWithFrames } from '../scenarios/frame.ts';
import { applyPlan, planFixtures } from '../fixture-format/store.ts';
import { missingScenariosNotice } from '../scenarios/files.ts';
import { loadConfig, noOtherArguments, runMain, UsageError } from './config.ts';
import { project, runCommand } from '../project.ts';

runMain(async () => {
  noOtherArguments('fixtures', `it rewrites every fixture; to check them without writing, run \`${runCommand('check')}\``, ['--allow-ci']);
  if (process.env.CI && !process.argv.includes('--allow-ci')) {
    throw new UsageError(`${runCommand('fixtures')} rewrites committed files and never runs in CI.`, {
      fix: `run it locally and commit fixtures/; CI checks them with \`${project().host ? runCommand('check') : 'npm test'}\``,
    });
  }
  const config = await loadConfig();
  const corpus = await renderCorpus(config, { everyEvent: false });
  const noFolder = missingScenariosNotice(config);
  if (noFolder) console.warn(noFolder);
  if (corpus.errors.length) {
    // Nothing is written; each error with a short code frame of its file.
    console.error(
      reportWithFrames(corpus.errors, (f) => {
        try {
          return readFileSync(join(config.root, f), 'utf8');
        } catch {
          return undefined;
        }
      }),
    );
    return 1;
  }
  const dir = join(config.root, config.fixturesDir);
  const plan = planFixtures(dir, corpus.scenarios);
  applyPlan(dir, plan);
  for (const w of plan.write) console.log(`${w.isNew ? 'created' : 'updated'} ${config.fixturesDir}/${w.name}`);
  for (const n of plan.remove) console.log(`deleted ${config.fixturesDir}/${n}`);
  console.log(`${corpus.scenarios.length} scenarios: ${plan.write.length} written, ${plan.remove.length} deleted, ${plan.unchanged.length} unchanged`);
});
