// Test runner config: three projects, chosen by folder so a new test file lands in the right one.
//   unit    — src/**/*.test.ts, tools/**/*.test.ts and examples/**/*.test.ts: pure tests beside the code (the package's,
//             the repository's own tooling's and the worked examples'); no build, no browser, no `npm run`
//             (`npm run test:unit` runs this project alone: the edit–test loop). Not isolated: the
//             files share one module graph per worker (each test restores what it changes).
//   build   — tests/*.test.ts: builds, the dev server and the command-line tools on project copies;
//             also the src tests listed in CLI_TESTS, whose cases run a command-line tool as a child
//             process (seconds each: they would be most of the unit loop's time).
//   browser — tests/e2e/**/*.test.ts: the built site in Chromium.
// The build and browser projects share one build of the bundled corpus plus the hostile scenarios
// (tests/support/global-setup.ts; a test reads it with sharedSite() or sharedBuildDir()) and, per
// worker process, one Chromium (sharedBrowser()). Test files run in parallel on every core
// (os.availableParallelism()): each makes its own project copies in temp folders and listens on
// random ports, so none shares a folder or a port with another. tests/support/sequencer.ts starts
// the longest files first.
// Browser tests use CHROMIUM_PATH, else /usr/bin/chromium; when that is missing (a GitHub runner has
// Google Chrome instead), the first Chromium-family browser on PATH is used, so CI needs no setup step.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, join } from 'node:path';
import { defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { LongestFirst } from './tests/support/sequencer.ts';

if (!process.env.CHROMIUM_PATH && !existsSync('/usr/bin/chromium')) {
  const names = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
  const found = names.flatMap((n) => (process.env.PATH ?? '').split(delimiter).map((d) => join(d, n))).find((p) => existsSync(p));
  if (found) process.env.CHROMIUM_PATH = found;
}

const SHARED_BUILD = ['tests/support/global-setup.ts'];
/** src tests that run the command-line tools (`node src/cli/….ts`) in child processes: a new one is named cli.test.ts or listed here. */
const CLI_TESTS = ['src/**/cli.test.ts', 'tools/**/cli.test.ts', 'src/preview/folder.test.ts', 'src/scenarios/symlinks.test.ts', 'src/scenarios/files.test.ts'];

export default defineConfig({
  // The example fold imports `prompt-fold-explainer/kit`; in this repository that resolves to the
  // source (package.json exports, condition prompt-fold-explainer-source; .npmrc sets it for Node).
  // (Vite's server conditions less `module`, as vitest's own default is.)
  ssr: { resolve: { conditions: ['prompt-fold-explainer-source', ...defaultServerConditions.filter((c) => c !== 'module')] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 300_000,
    reporters: ['default', './tests/support/count-reporter.ts'],
    // vitest's default in a run is one worker fewer than the cores: one worker on a 2-core machine.
    maxWorkers: availableParallelism(),
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts', 'tools/**/*.test.ts', 'examples/**/*.test.ts'], exclude: [...configDefaults.exclude, ...CLI_TESTS], isolate: false },
      },
      { extends: true, test: { name: 'build', include: ['tests/*.test.ts', ...CLI_TESTS], globalSetup: SHARED_BUILD } },
      // Not isolated: a worker runs one browser file after another in the same process, keeping its Chromium.
      { extends: true, test: { name: 'browser', include: ['tests/e2e/**/*.test.ts'], globalSetup: SHARED_BUILD, isolate: false } },
    ],
  },
});
