/**
 * Issue 38's contributor, end to end: a one-line fold change that looks harmless — the
 * context-protocol fold appends `Current time: <the newest send>` to its protocol prompt (made in
 * this test's project copy, never in the repository's fold) — breaks the prompt cache on nearly
 * every request. The steps of pr.yml and preview.yml are read from the workflow files and run as
 * written (the same npm commands, with the same environment), in order:
 *
 *   pr.yml       on the pull request's checkout (its code): preview:build, upload, then the tests
 *   preview.yml  on a checkout of the default branch (trusted code only): download the artifact,
 *                preview:publish to an S3-compatible server (s3rver), pr-comment to a stand-in for
 *                GitHub's API on 127.0.0.1 (tests/support/fake-github.ts)
 *
 * What runs for GitHub's own actions: checkout is the two folders, setup-node is this Node, upload
 * and download copy the folder. `npm test` is run as `npm run check` — the corpus check its fixture
 * test runs, and the part this change fails (the whole suite inside a test would be the suite
 * twice). The review must exist although the check fails: the preview is published, the comment's
 * first lines say the cache regressed, by how much in dollars, why (the changed text, named once)
 * and which expectations broke; the check and so the workflow still fail; the comment carries the
 * same figures as `npm run pr-summary` on the same change — the same text, in fact.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMap, isSeq, parseDocument, type YAMLMap } from 'yaml';
import { startFakeGitHub, type FakeGitHub } from './support/fake-github.ts';
import { SUMMARY_MARKER } from '../src/review/summary.ts';
import { removeTempDirs, startS3, tempDir, type S3Server } from './support/sync-sites.ts';
import { ROOT } from './support/project.ts';
import { GIT_ENV, type ReviewRepo } from './support/review-repo.ts';
import { reviewRepo } from './support/shared-review.ts';

const SITE = 'https://explainer.example/';
const PR = 7;
const AWS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };

/** The contributor's change, in the copy's render.ts: the protocol prompt ends with the newest send's time. */
const FOLD_FILE = 'src/builtin-folds/context-protocol/render.ts';
const FOLD_LINE = 'const out: RenderedMessage[] = [this.prompt, this.doc!.message];';
const CURRENT_TIME = `const stamp = state.items.findLast((it) => it.kind === 'stamp');
    const prompt = stamp?.kind === 'stamp' ? one('system', \`\${this.prompt.content}\\nCurrent time: \${stamp.requestedAt}\`, []) : this.prompt;
    const out: RenderedMessage[] = [prompt, this.doc!.message];`;

let repo: ReviewRepo;
let trusted: string;
let temp: string;
let s3: S3Server;
let github: FakeGitHub;
let head: string;

interface Step {
  name: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  env: Record<string, string>;
  with: Record<string, string>;
}

/** A workflow's job: its `if:`, its env and its steps, as written. */
function readJob(file: string, job: string): { if?: string; env: Record<string, string>; steps: Step[] } {
  const doc = parseDocument(readFileSync(join(ROOT, '.github/workflows', file), 'utf8'));
  const j = doc.getIn(['jobs', job], true) as YAMLMap;
  const plain = (m: unknown): Record<string, string> =>
    isMap(m) ? Object.fromEntries(m.items.map((p) => [String((p.key as { value: unknown }).value), String((p.value as { value: unknown }).value)])) : {};
  const steps = j.get('steps', true);
  if (!isSeq(steps)) throw new Error(`${file}: no steps`);
  return {
    ...(j.has('if') && { if: String(j.get('if')) }),
    env: plain(j.get('env', true)),
    steps: steps.items.map((s) => {
      const m = s as YAMLMap;
      return {
        name: String(m.get('name') ?? m.get('run') ?? m.get('uses')),
        ...(m.has('id') && { id: String(m.get('id')) }),
        ...(m.has('uses') && { uses: String(m.get('uses')) }),
        ...(m.has('run') && { run: String(m.get('run')) }),
        ...(m.has('if') && { if: String(m.get('if')) }),
        env: plain(m.get('env', true)),
        with: plain(m.get('with', true)),
      };
    }),
  };
}

/** `${{ … }}` replaced from `context`; an expression the test does not know fails it (the workflow changed: teach the test). */
const expand = (text: string, context: Record<string, string>): string =>
  text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    if (!(expr in context)) throw new Error(`unknown expression \${{ ${expr} }} in a workflow: add it to the test's context`);
    return context[expr]!;
  });

interface StepResult {
  step: string;
  status: number;
  output: string;
}

/**
 * Runs a job's steps in `cwd` as Actions would: `run:` through bash with the job's and step's env,
 * `if:` conditions judged by `judge`, GitHub's own actions by `action`. `npm test` runs as `npm run check` (see the header).
 */
async function runJob(
  job: ReturnType<typeof readJob>,
  cwd: string,
  context: Record<string, string>,
  judge: (condition: string, results: Map<string, StepResult>) => boolean,
  action: (step: Step) => StepResult,
): Promise<StepResult[]> {
  const done: StepResult[] = [];
  const byId = new Map<string, StepResult>();
  let failed = false;
  for (const step of job.steps) {
    const condition = step.if ?? 'success()';
    const run = condition === 'success()' ? !failed : judge(condition, byId);
    if (!run) continue;
    let result: StepResult;
    if (step.uses) result = action(step);
    else if (step.run === 'npm ci --no-audit --no-fund') result = { step: step.name, status: 0, output: 'packages linked' };
    else {
      const command = step.run === 'npm test' ? 'npm run check' : step.run!;
      const env = { ...GIT_ENV, ...AWS, ...baseEnv(), ...expandAll(job.env, context), ...expandAll(step.env, context) };
      result = { step: step.name, ...(await shell(command, cwd, env)) };
    }
    done.push(result);
    if (step.id) byId.set(step.id, result);
    if (result.status !== 0) failed = true;
  }
  return done;
}

/** A `run:` through bash, without blocking this process: the S3 server and GitHub's stand-in answer from it. */
function shell(command: string, cwd: string, env: Record<string, string>): Promise<{ status: number; output: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.on('close', (code) => done({ status: code ?? 1, output }));
  });
}

const expandAll = (env: Record<string, string>, context: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(env).map(([k, v]) => [k, expand(v, context)]));

/** What every Actions step finds in its environment. */
const baseEnv = (): Record<string, string> => ({
  RUNNER_TEMP: temp,
  GITHUB_REPOSITORY: github.repo,
  GITHUB_API_URL: github.apiUrl,
});

beforeAll(async () => {
  repo = await reviewRepo();
  // The pull request: branch `feature` off `main` (the base commit), with only the fold change.
  repo.git('checkout', '-q', '-b', 'feature');
  const path = join(repo.dir, FOLD_FILE);
  const text = readFileSync(path, 'utf8');
  if (!text.includes(FOLD_LINE)) throw new Error(`${FOLD_FILE} no longer has the line this test changes: update FOLD_LINE`);
  writeFileSync(path, text.replace(FOLD_LINE, CURRENT_TIME));
  repo.git('commit', '-qam', 'context protocol: tell the model the current time');
  head = repo.git('rev-parse', 'HEAD').trim();
  // preview.yml's checkout: the default branch, in a folder of its own (its code only).
  trusted = join(tempDir('trusted'), 'checkout');
  execFileSync('git', ['clone', '-q', '--branch', 'main', repo.dir, trusted], { env: GIT_ENV });
  symlinkSync(join(repo.dir, 'node_modules'), join(trusted, 'node_modules'));
  temp = tempDir('runner-temp');
  s3 = await startS3();
  github = await startFakeGitHub();
  github.pulls.set(PR, { state: 'open', head: { sha: head } });
  // A wait limit, not a timing: the shared review repository is made while the run's builds load the machine.
}, 300_000);

afterAll(async () => {
  await github?.close();
  await s3?.close();
  removeTempDirs();
  if (repo) rmSync(repo.dir, { recursive: true, force: true });
});

let prRun: StepResult[];
let comment: string;
/** What `npm run check` (the tests' corpus check) reported: broken expectations and the files they are in. */
let broken: { errors: number; files: number };

describe('a fold change that breaks the cache gets its review, and its check still fails', () => {
  it('pr.yml: the preview is built and uploaded, then the tests fail on the broken expectations', async () => {
    const job = readJob('pr.yml', 'review');
    const context = { 'github.event.number': String(PR), 'github.base_ref': 'main', 'vars.SITE_URL': SITE, 'runner.temp': temp };
    // `origin/main` in the workflow: the pull request's checkout has the base branch as a remote.
    repo.git('update-ref', 'refs/remotes/origin/main', 'main');
    prRun = await runJob(
      job,
      repo.dir,
      context,
      (condition) => {
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, as the workflow writes it
        if (condition === '${{ !cancelled() }}') return true;
        throw new Error(`pr.yml: unknown condition ${condition}`);
      },
      (step) => {
        if (step.uses?.startsWith('actions/checkout@') || step.uses?.startsWith('actions/setup-node@')) return { step: step.name, status: 0, output: '' };
        if (step.uses?.startsWith('actions/upload-artifact@')) {
          const from = expand(step.with.path!, context);
          return { step: step.name, status: existsSync(join(from, 'preview.json')) ? 0 : 1, output: from };
        }
        throw new Error(`pr.yml: unknown action ${step.uses}`);
      },
    );
    const step = (name: RegExp): StepResult | undefined => prRun.find((s) => name.test(s.step));
    const [build, upload, test] = [step(/^Build the preview/), step(/upload-artifact/), step(/^Test/)];
    expect(build!.status, build!.output).toBe(0);
    const counted = /(\d+) errors in (\d+) files; nothing was written\./.exec(prRun.find((s) => /^Test/.test(s.step))!.output);
    expect(counted).not.toBeNull();
    broken = { errors: Number(counted![1]), files: Number(counted![2]) };
    // The contributor saw 35 located errors in 12 files; the corpus may have grown since.
    expect(broken.errors).toBeGreaterThanOrEqual(35);
    expect(build!.output).toContain(`${broken.errors} broken cache expectation(s)`);
    expect(upload!.status).toBe(0);
    // The check still fails, so the workflow does: merging stays gated.
    expect(test!.status).toBe(1);
    // The pull request's files are as they were: the preview went to the runner's temp folder.
    expect(repo.git('status', '--porcelain')).toBe('');
    // /changes/ opens with the same verdict.
    const changes = readFileSync(join(temp, 'preview-site/site/changes/index.html'), 'utf8');
    expect(changes).toMatch(/class="verdict-headline"><strong>⚠ The cache regressed: \d+ requests in \d+ scenarios read less of the prompt cache than at the base — \+\$/);
    expect(changes).toContain('<code>Current time: 2026-');
  }, 900_000);

  it('preview.yml (the failed run): the trusted checkout publishes the preview and posts the comment', async () => {
    expect(prRun.at(-1)!.status).toBe(1);
    const job = readJob('preview.yml', 'publish');
    const run = { event: 'pull_request', conclusion: 'failure' };
    // The job's condition, for the run that just failed.
    expect(job.if).toBe(
      "github.event.workflow_run.event == 'pull_request' && (github.event.workflow_run.conclusion == 'success' || github.event.workflow_run.conclusion == 'failure')",
    );
    expect(run.event === 'pull_request' && (run.conclusion === 'success' || run.conclusion === 'failure')).toBe(true);
    const context = {
      'github.event.workflow_run.head_sha': head,
      'vars.SITE_URL': SITE,
      'github.token': github.token,
      'secrets.S3_BUCKET': s3.bucket,
      'secrets.S3_PREFIX': 'prod',
      'secrets.S3_ENDPOINT': s3.endpoint,
      'secrets.AWS_ACCESS_KEY_ID': AWS.AWS_ACCESS_KEY_ID,
      'secrets.AWS_SECRET_ACCESS_KEY': AWS.AWS_SECRET_ACCESS_KEY,
      'secrets.AWS_REGION': AWS.AWS_REGION,
    };
    const steps = await runJob(
      job,
      trusted,
      context,
      (condition, results) => {
        if (condition === "steps.artifact.outcome == 'success'") return results.get('artifact')?.status === 0;
        throw new Error(`preview.yml: unknown condition ${condition}`);
      },
      (step) => {
        if (step.uses?.startsWith('actions/checkout@') || step.uses?.startsWith('actions/setup-node@')) return { step: step.name, status: 0, output: '' };
        if (step.uses?.startsWith('actions/download-artifact@')) {
          cpSync(join(temp, 'preview-site'), join(trusted, step.with.path!), { recursive: true });
          return { step: step.name, status: 0, output: '' };
        }
        throw new Error(`preview.yml: unknown action ${step.uses}`);
      },
    );
    for (const s of steps) expect(s.status, `${s.step}\n${s.output}`).toBe(0);
    expect(steps.map((s) => s.step).join('\n')).toMatch(/Publish the preview[\s\S]*Post or update the summary comment/);
    expect(steps.at(-1)!.output).toMatch(/created the summary comment on #7/);
    // preview.yml ran the default branch's code: its fold has no "Current time".
    expect(readFileSync(join(trusted, FOLD_FILE), 'utf8')).not.toContain('Current time');
    expect(github.comments.get(PR)).toHaveLength(1);
    comment = github.comments.get(PR)![0]!.body;
  }, 300_000);

  it('the comment leads with the verdict, the dollars, the cause named once and the broken expectations', () => {
    const lines = comment.split('\n');
    expect(lines[0]).toBe(SUMMARY_MARKER);
    expect(lines[1]).toMatch(
      /^### ⚠ The cache regressed: \d+ requests in \d+ scenarios read less of the prompt cache than at the base — \+\$0\.\d+ per conversation, \+\$\d+\.\d+ per 1,000 conversations$/,
    );
    const [requests, scenarios] = /(\d+) requests in (\d+) scenarios/.exec(lines[1]!)!.slice(1).map(Number);
    // Every context-protocol scenario whose cache the protocol prompt carried: at least one request each.
    expect(scenarios).toBeGreaterThanOrEqual(12);
    expect(requests).toBeGreaterThanOrEqual(scenarios!);
    expect(lines[3]).toMatch(/^Across \d+ scenarios \(each one conversation, weighted equally\): cached share \d+ % → \d+ %; input tokens \+/);
    const cause = lines.find((l) => l.startsWith('**Root cause**'))!;
    expect(cause).toMatch(/a value that changes on every request, inside the cached prefix: `Current time: 2026-[^`]+` where the request before had `Current time: 2026-/);
    // The cause covers every request the headline counts: it is the only one.
    expect(cause).toContain(`message 1 (system), in ${requests} requests of ${scenarios} scenarios`);
    expect(cause).toContain('Responsible: the context-protocol fold changed (`src/builtin-folds/context-protocol/render.ts`)');
    // Named once: the changed text appears in that line only.
    expect(comment.split('Current time:').length - 1).toBe(2);
    expect(comment.split('src/builtin-folds/context-protocol/render.ts').length - 1).toBe(1);
    expect(comment).toContain(`**Broken expectations**: ${broken.errors} in ${broken.files} scenario files`);
    expect(comment).toContain('- `scenarios/02-sent-re-add.yaml:15:10` request @31 busts the cache but `expect.busts` does not list it');
    // The request linter's findings, each rule with the provider's source; the volatile value is the root cause's, not named again.
    expect(comment).toMatch(/\n\*\*Request lint\*\* \(the changed scenarios, as sent\): 0 errors, \d+ warnings — [^\n]*`volatile-prefix` \d+/);
    // Most context-protocol scenarios run on an OpenAI model: the rules cited are OpenAI's own (src/request-lint/request-lint.ts);
    // the two superseding-section scenarios (48, 49) run on Claude Opus 4.8, and theirs cite Anthropic's page.
    expect(comment).toContain('- `volatile-prefix`: “"Cache hits are only possible for exact prefix matches within a prompt.');
    expect(comment).toContain('- `unread-write`: “For GPT-5.6 models and later model families, cache writes cost 1.25×');
    expect(comment).toContain('<https://developers.openai.com/api/docs/guides/prompt-caching>');
    expect(comment).toContain('<https://platform.claude.com/docs/en/build-with-claude/prompt-caching>');
    // One compact table, then the detail collapsed.
    expect(comment).toMatch(/\n\| Scenario \| Prompts changed \| Cached before → after \|/);
    expect(comment).toMatch(
      /\| \[A sent key re-added[^\n]*\]\(https:\/\/explainer\.example\/previews\/pr-7\/scenarios\/sent-re-add\/\) \| 2 \| 89 % → 0 % \| 2 ⚠ \| \+38 \| \+\$0\.\d+ \| 4 \|/,
    );
    // One row per scenario the change touched, each with its regressed requests: together, the headline's count.
    const rows = comment.split('\n').filter((l) => /^\| \[/.test(l));
    expect(rows.length).toBeGreaterThanOrEqual(scenarios!);
    expect(rows.reduce((n, r) => n + Number(/\| (\d+)(?: ⚠)? \| [^|]+ \| [^|]+ \| [^|]* \|$/.exec(r)![1]), 0)).toBe(requests);
    expect(comment).toContain(`<details><summary>Per-request detail (${rows.length} scenarios)</summary>`);
    expect(comment.length).toBeLessThanOrEqual(65_536);
  });

  it('the CI comment and `npm run pr-summary` print the same figures: the same text; --dry-run prints it and posts nothing', async () => {
    const summary = repo.npm(['pr-summary', '--', '--base', 'origin/main', '--site-url', SITE, '--pr', String(PR)]);
    expect(summary.status, summary.stderr).toBe(0);
    expect(summary.stdout).toBe(comment);
    const before = github.requests.length;
    const dry = spawnSync('npm', ['run', '--silent', 'pr-comment', '--', '--from', join(temp, 'preview-site'), '--site-url', SITE, '--dry-run'], {
      cwd: trusted,
      env: { ...GIT_ENV, GITHUB_TOKEN: '', GITHUB_REPOSITORY: '' },
      encoding: 'utf8',
    });
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(comment);
    expect(github.requests.length).toBe(before);
  }, 300_000);
});
