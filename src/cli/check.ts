/**
 * `npm run check` — the corpus check without building the site: every scenario error, stale
 * anchor and stale fixture, plus warnings: ambiguous anchors, anchors on protocol metadata (an
 * `@N …` first line; see src/prompt/metadata-anchor.ts), and a fold whose cached prefix moves when it
 * runs again with another clock, time zone, locale, random sequence, environment or key order (the
 * determinism probe, src/determinism/probe.ts). Exit 1 on any error; warnings never fail.
 * A new scenario's missing fixture is a notice with the next step, not an error — except in CI
 * (`CI` set), where it is one (the fixture test of `npm test` fails on it too).
 * Each error is followed by a short code frame of the scenario file (src/scenarios/frame.ts), as in
 * the dev overlay.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { renderCorpus } from '../corpus/check.ts';
import { findingMessage, probeCorpus } from '../determinism/probe.ts';
import { reportWithFrames } from '../scenarios/frame.ts';
import { updateCommand } from '../fixture-format/format.ts';
import { planFixtures, staleMessage } from '../fixture-format/store.ts';
import { missingScenariosNotice } from '../scenarios/files.ts';
import { loadConfig, noOtherArguments, runMain } from './config.ts';

const readText = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

runMain(async () => {
  noOtherArguments('check', 'it checks every scenario of the corpus: run it without arguments');
  const config = await loadConfig();
  const corpus = await renderCorpus(config, { everyEvent: false });
  const noFolder = missingScenariosNotice(config);
  if (noFolder) console.warn(noFolder);
  for (const w of corpus.warnings) console.warn(`${w.pos.file}:${w.pos.line}:${w.pos.col} warning: ${w.message}`);
  // The determinism probe: each scenario's fold run again in a changed world (src/determinism/probe.ts).
  // A moved byte in a cached prefix is a warning with the request's event, the moved text and the fix.
  const unstable = await probeCorpus(corpus.scenarios);
  for (const f of unstable) {
    const m = findingMessage(f);
    console.warn([`${f.pos.file}:${f.pos.line}:${f.pos.col} warning: ${m.message}`, ...m.detail.map((d) => `  ${d}`), `  fix: ${m.fix}`].join('\n'));
  }
  if (corpus.errors.length) {
    console.error(reportWithFrames(corpus.errors, (f) => readText(join(config.root, f))));
    return 1;
  }
  const plan = planFixtures(join(config.root, config.fixturesDir), corpus.scenarios);
  // A new scenario has no fixture yet: writing it is the next step (`npm run fixtures`), not a
  // failed check — so the documented `check && fixtures && build` works for a new scenario. In CI
  // a missing fixture is an error (the PR forgot to commit it); so are stale and orphaned ones.
  const missing = process.env.CI ? [] : plan.write.filter((w) => w.isNew);
  const stale = staleMessage(config.fixturesDir, { ...plan, write: plan.write.filter((w) => !missing.includes(w)) });
  if (stale) {
    console.error(stale);
    return 1;
  }
  const requests = corpus.scenarios.reduce((n, s) => n + s.requests.length, 0);
  const fixtures = missing.length ? `${missing.length} new scenario${missing.length === 1 ? ' has' : 's have'} no fixture yet` : 'fixtures fresh';
  const warnings = corpus.warnings.length + unstable.length;
  console.log(`ok: ${corpus.scenarios.length} scenarios, ${requests} requests, ${fixtures}${warnings ? `, ${warnings} warning(s)` : ''}`);
  if (missing.length)
    console.log(
      newFixturesNotice(
        config.fixturesDir,
        missing.map((w) => w.name),
      ),
    );
});

/** The next step for new scenarios: write their fixtures and commit them (CI checks they are there). */
function newFixturesNotice(fixturesDir: string, names: readonly string[]): string {
  return [
    ...names.map((n) => `  missing: ${fixturesDir}/${n}`),
    `  next: run \`${updateCommand()}\` to write ${names.length === 1 ? 'it' : 'them'}, and commit ${names.length === 1 ? 'it' : 'them'} with the scenario (in CI a missing fixture is an error)`,
  ].join('\n');
}
