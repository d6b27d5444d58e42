/**
 * Review against a base ref, end to end: a temporary git repository holding the project with two
 * commits of its fixtures (base, then a change that edits, adds and removes scenarios). Checks the
 * PR summary, the /changes/ page and the scenario page's before/after, and that a missing ref is a
 * clear error — not a silent "no changes". `npm run pr-summary` runs as a command where its wiring is
 * the point (the first summary, a missing ref); elsewhere the summaries and the fixtures are made as
 * the commands make them, with the same library calls, in this process — or, once a fold is edited
 * in the copy, in one process running the copy's code (tests/support/review-in-process.ts) — and the
 * first summary is checked to be byte for byte the one made here.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from './support/project.ts';
import { closeRunners, summaryOf, writeFixtures } from './support/review-in-process.ts';
import { reviewRepo } from './support/shared-review.ts';
import { sharedBuildDir } from './support/shared-site.ts';

const env = {
  ...process.env,
  CI: '',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.invalid',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.invalid',
  FORCE_COLOR: '0',
};
let dir: string;
const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' });
const npm = (args: string[], extra: Record<string, string> = {}) => spawnSync('npm', ['run', '--silent', ...args], { cwd: dir, env: { ...env, ...extra }, encoding: 'utf8' });

beforeAll(async () => {
  // The run's review repository (tests/support/review-repo.ts: the base commit, then a change that
  // edits one request of 02-sent-re-add), its change commit made again with more in it.
  dir = (await reviewRepo()).dir;
  git('reset', '-q', '--soft', 'HEAD~1');
  // The change: one request's text edited (the shared change's edit, kept), one scenario removed, one added.
  expect(readFileSync(join(dir, 'scenarios', '02-sent-re-add.yaml'), 'utf8')).toContain('CHANGELOG entry; migrations run');
  rmSync(join(dir, 'scenarios', '10-script-result.yaml'));
  writeFileSync(
    join(dir, 'scenarios', '12-added.yaml'),
    `id: added-later
title: "A scenario added by the change"
events:
  - {off: 1, t: 0ms, type: agents/context-added, payload: {role: user, content: "hello", actor: {type: user, origin: web}}}
  - {off: 2, t: 1s, type: agent/llm-request-requested, payload: {model: m}}
`,
  );
  await writeFixtures(dir);
  git('add', '-A');
  git('commit', '-qm', 'change');
}, 120_000);

afterAll(async () => {
  await closeRunners();
  rmSync(dir, { recursive: true, force: true });
});

/** The bundled scenarios the `requests` fold renders: a change to its normaliser changes each of them. */
const REQUESTS_SCENARIOS = [
  '30-imported-trace',
  '31-imported-eviction',
  '45-lifecycle-tools-change',
  '46-lifecycle-subagent-parent',
  '47-lifecycle-subagent',
  '50-lifecycle-tools-change-mid-conversation',
];
describe('review against a base ref', () => {
  it('the change really changed the request text it was meant to', () => {
    expect(git('diff', '--stat', 'HEAD~1', '--', 'fixtures')).toMatch(/02-sent-re-add\.md/);
  });

  it('prints a PR summary with statuses, counts and deep links', async () => {
    const r = npm(['pr-summary', '--', '--base', 'HEAD~1', '--site-url', 'https://preview.example']);
    expect(r.status, r.stderr).toBe(0);
    const md = r.stdout;
    // The verdict first (this edit appends to the prompts: no request reads less of the cache), then the counts.
    expect(md).toMatch(/^<!-- prompt-fold-explainer:pr-summary -->\n### Prompts changed without a cache effect: no request reads less of the prompt cache than at the base — /);
    expect(md).toMatch(/\n\d+ prompts changed in 3 scenarios against `HEAD~1` \([0-9a-f]{7}\)\. \[All changes, with the diffs\]\(https:\/\/preview\.example\/changes\/\)\n/);
    expect(md).toContain('(https://preview.example/scenarios/sent-re-add/) (`02-sent-re-add`)');
    expect(md).toMatch(/- \[request @42\]\(https:\/\/preview\.example\/scenarios\/sent-re-add\/#@42\): changed, \+\d+ −\d+/);
    // Token and cost deltas next to the line counts (base side: the base fixtures' requests re-tokenized).
    expect(md).toMatch(/- \[request @42\]\([^)]+\): changed, \+\d+ −\d+ — input \d[\d,]* → \d[\d,]* \((?:±0|[+−]\d[\d,]*)\); cached \d+ % → \d+ %; (?:±\$0|[+−]\$0\.\d+)\n/);
    expect(md).toContain('(`12-added`) — scenario added');
    expect(md).toContain('(`10-script-result`) — scenario removed');
    expect(md).not.toContain('birth-window');
    // Deterministic: the same summary again, made in this process by the same review code, is the same bytes.
    expect(await summaryOf(dir, 'HEAD~1', 'https://preview.example')).toBe(md);
  }, 300_000);

  it('shows per-scenario token deltas when a change makes the prompts longer', async () => {
    const f = join(dir, 'scenarios', '03-whole-prompt-key.yaml');
    const text = readFileSync(f, 'utf8');
    writeFileSync(f, text.replace('name the files you changed.', 'name the files you changed, and write down in the changelog which commands you ran and why.'));
    try {
      await writeFixtures(dir);
      const md = await summaryOf(dir, 'HEAD', 'https://preview.example');
      expect(md).toMatch(
        /#### \[[^\]]+\]\(https:\/\/preview\.example\/scenarios\/whole-prompt-key\/\) \(`03-whole-prompt-key`\)\n\nWhy: the scenario changed — event @10 edited; in the prompt: message \d+ \(\w+\): \d+ lines? differs? \(@21[^\n]*\)\n\nTokens: \+\d+ input tokens per turn; cached \d+ % → \d+ %; \+\$0\.\d+ per turn\n/,
      );
      // Token counts carry thousands separators (1,228): the delta is the difference of the two counts.
      const m = md.match(/\[request @21\]\([^)]+\): changed, \+\d+ −\d+ — input (\d[\d,]*) → (\d[\d,]*) \(\+(\d[\d,]*)\)/);
      expect(m, md).not.toBeNull();
      const [before, after, delta] = m!.slice(1).map((n) => Number(n.replaceAll(',', '')));
      expect(after).toBeGreaterThan(before!);
      expect(delta).toBe(after! - before!);
    } finally {
      git('checkout', '--', 'scenarios', 'fixtures');
    }
  }, 300_000);

  it('says "no prompt changes" against itself', async () => {
    expect(await summaryOf(dir, 'HEAD', 'https://preview.example')).toContain('### No prompt changes: every request renders exactly as its committed fixture\n\nAgainst `HEAD`');
  }, 120_000);

  it('fails clearly on a ref that is not there', () => {
    const r = npm(['pr-summary', '--', '--base', 'origin/nope', '--site-url', 'https://x']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('base ref "origin/nope" is not in this clone, so the prompts cannot be compared with it');
    expect(r.stderr).toContain('fix: check the name (`git branch -a`), or fetch it: `git fetch origin nope`');
    const b = build(dir, { EXPLAINER_BASE: 'origin/nope' });
    expect(b.status).not.toBe(0);
    expect(b.output).toContain('EXPLAINER_BASE: base ref "origin/nope" is not in this clone');
  }, 120_000);

  it('shows none of it without a base', async () => {
    // The tests' shared build is one without a base (the bundled corpus, built once for every test file).
    const shared = await sharedBuildDir();
    expect(readFileSync(join(shared, 'dist/index.html'), 'utf8')).not.toContain('/changes/#');
    expect(readFileSync(join(shared, 'dist/scenarios/sent-re-add/index.html'), 'utf8')).not.toContain('fixtures at');
    expect(readFileSync(join(shared, 'dist/changes/index.html'), 'utf8')).toContain('No base ref was given');
  }, 300_000);
});

/**
 * Why each prompt changed, through the real path: three commits on top of the change above — one
 * edits a fold option, one an event of a scenario other scenarios extend, one the code of a fold —
 * each compared with its parent by the summary `npm run pr-summary` prints, and all of them at once on /changes/ (below).
 */
describe('why a prompt changed', () => {
  const commit = async (message: string, edit: () => void): Promise<void> => {
    edit();
    await writeFixtures(dir);
    git('add', '-A');
    git('commit', '-qm', message);
  };
  const replace = (file: string, from: string, to: string): void => {
    const f = join(dir, file);
    const text = readFileSync(f, 'utf8');
    if (!text.includes(from)) throw new Error(`${file} no longer contains ${from}`);
    writeFileSync(f, text.replace(from, to));
  };
  const summaryAt = async (rev: string): Promise<string> => {
    git('checkout', '-q', rev);
    try {
      return await summaryOf(dir, 'HEAD~1', 'https://preview.example');
    } finally {
      git('checkout', '-q', 'main');
    }
  };

  beforeAll(async () => {
    await commit('option', () => replace('scenarios/11-metadata-lines-before-after.yaml', 'metadataLines: synthesized-only', 'metadataLines: every-item'));
    await commit('event', () => replace('scenarios/01-birth-window.yaml', 'CI on every pull request.', 'CI on every push.'));
    await commit('fold code', () =>
      replace(
        'src/builtin-folds/requests/normalise.ts',
        'return providerOf(format).normalise(body);',
        "return providerOf(format).normalise(body).map((m) => ({ ...m, text: m.text.replaceAll('  ', '   ') }));",
      ),
    );
  }, 240_000);

  it('names a changed fold option with its old and new value', async () => {
    const md = await summaryAt('main~2');
    expect(md).toContain('in 1 scenario against');
    expect(md).toContain('(`11-metadata-lines-before-after`)\n\nWhy: fold option `metadataLines` changed: `synthesized-only` → `every-item`; in the prompt: message ');
  }, 120_000);

  it('names an edited event, and the same edit in the base of a scenario that extends it', async () => {
    const md = await summaryAt('main~1');
    expect(md).toContain('in 2 scenarios against');
    expect(md).toContain('(`01-birth-window`)\n\nWhy: the scenario changed — event @15 edited; in the prompt: message ');
    expect(md).toContain('(`02-sent-re-add`)\n\nWhy: its base scenario `birth-window` changed — event @15 edited; in the prompt: message ');
  }, 120_000);

  it('names the fold and its changed file when the scenario did not change', async () => {
    const md = await summaryAt('main');
    // The requests fold renders the imported traces and the tool-change and subagent lifecycle scenarios: the change to its normaliser changes each.
    expect(md).toContain(`in ${REQUESTS_SCENARIOS.length} scenarios against`);
    for (const name of REQUESTS_SCENARIOS)
      expect(md).toContain(`(\`${name}\`)\n\nWhy: the requests fold changed (\`src/builtin-folds/requests/normalise.ts\`); the scenario did not; in the prompt: message `);
    // That summary came from the process that runs the copy's edited fold (review-runner.ts): the command prints the same bytes.
    const cli = npm(['pr-summary', '--', '--base', 'HEAD~1', '--site-url', 'https://preview.example']);
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout).toBe(md);
  }, 120_000);
});

/**
 * /changes/ in one build (a site build is most of this file's time): at `main`, after the change and
 * the three commits above, against the base commit (HEAD~4). The change's own edits (02-sent-re-add
 * edited, 10-script-result removed, 12-added added) and the three commits' causes are on one page;
 * 02-sent-re-add, which the change edits and whose base scenario (birth-window) the `event` commit
 * edits, names both causes in one sentence.
 */
describe('the /changes/ page with EXPLAINER_BASE', () => {
  let html: string;
  beforeAll(() => {
    expect(git('rev-parse', 'HEAD~4').trim()).toBe(git('rev-list', '--max-parents=0', 'HEAD').trim());
    const b = build(dir, { EXPLAINER_BASE: 'HEAD~4' });
    if (b.status !== 0) throw new Error(b.output);
    html = readFileSync(join(dir, 'dist/changes/index.html'), 'utf8');
  }, 300_000);

  it('builds /changes/ and before/after views with EXPLAINER_BASE', () => {
    expect(html).toContain('href="/scenarios/sent-re-add/#@42"');
    expect(html).toContain('A scenario added by the change');
    expect(html).toMatch(/added<\/span>/);
    expect(html).toContain('10-script-result');
    // A scenario that no commit changed is not listed.
    expect(html).not.toContain('/scenarios/compaction/#@');
    const page = readFileSync(join(dir, 'dist/scenarios/sent-re-add/index.html'), 'utf8');
    expect(page).toContain('fixtures at HEAD~4');
    expect(page).toMatch(/<del>line<\/del>|<del>[^<]*line[^<]*<\/del>/);
    expect(page).toMatch(/<ins>[^<]*entry[^<]*<\/ins>/);
    const index = readFileSync(join(dir, 'dist/index.html'), 'utf8');
    expect(index).toContain('href="/changes/#sent-re-add"');
  });

  it('says all of it on /changes/, as text with names as code', () => {
    const why = [...html.matchAll(/<p class="why"[^>]*>(.*?)<\/p>/g)].map((m) => m[1]!.replace(/ data-astro-cid-\w+/g, ''));
    // Each sentence goes on to say what changed in the prompt (which messages, in which requests).
    const starts = (prefix: string, scenarios = 1): void =>
      expect(
        why.filter((w) => w.startsWith(`${prefix}; in the prompt: message `)),
        prefix,
      ).toHaveLength(scenarios);
    starts('Why: fold option <code>metadataLines</code> changed: <code>synthesized-only</code> → <code>every-item</code>');
    starts('Why: the scenario changed — event @15 edited');
    // 02-sent-re-add: its own edit (the change) and its base scenario's (the `event` commit), in one sentence;
    // its request @31 changed by the base's edit alone, and says so on its own line.
    starts('Why: the scenario changed — event @40 edited; its base scenario <code>birth-window</code> changed — event @15 edited');
    starts('Why: its base scenario <code>birth-window</code> changed — event @15 edited');
    expect(html.replace(/ data-astro-cid-\w+/g, '')).toMatch(
      /href="\/scenarios\/sent-re-add\/#@31">request @31<\/a>(?:(?!<li)[\s\S])*<p class="why">Why: its base scenario <code>birth-window<\/code> changed — event @15 edited; in the prompt: /,
    );
    // The scenarios the requests fold renders (REQUESTS_SCENARIOS).
    starts('Why: the requests fold changed (<code>src/builtin-folds/requests/normalise.ts</code>); the scenario did not', REQUESTS_SCENARIOS.length);
    // Nothing else changed since the base: one sentence per changed scenario (none for the added or the removed one), and
    // one for a request only where it says something else than its scenario's (@31 above).
    expect(why, why.join('\n')).toHaveLength(4 + REQUESTS_SCENARIOS.length);
  });
});
