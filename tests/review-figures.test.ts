/**
 * A review's token figures are each side's own (issue 26): in a temporary git repository, one
 * commit per kind of change — a fold option, a `deploy:` added, a fold code change that also edits
 * the abridged boilerplate, a scenario added (one with a `compare:` variant) — each reviewed
 * against its parent with `npm run pr-summary`. Every figure the summary prints is checked against
 * `npm run report -- --json` run independently at the base commit (checked out) and at the head.
 * A base without `npm run report` makes the review say so instead of printing a number. One build
 * checks /changes/ says the same. The commands' work is done with their own library calls
 * (tests/support/review-in-process.ts): in this process while a commit's code is this checkout's
 * (only its scenarios and fixtures changed), from the fold code commit on in one process per code
 * state that runs the copy's code — not a command-line process per call, each loading the
 * integration again. tests/review.test.ts checks the summary so made is the command's, byte for byte.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from './support/project.ts';
import { closeRunners, reportOf, summaryOf, writeFixtures } from './support/review-in-process.ts';
import type { ReviewRepo } from './support/review-repo.ts';
import { reviewRepo } from './support/shared-review.ts';
import { rmSync } from 'node:fs';

interface Fig {
  inputTokens: number;
  cachedTokens: number;
  costUsd: number | null;
  exact: boolean;
}

let repo: ReviewRepo;
const sha: Record<string, string> = {};

const edit = (file: string, change: (text: string) => string): void => {
  const path = join(repo.dir, file);
  const text = readFileSync(path, 'utf8');
  const next = change(text);
  if (next === text) throw new Error(`${file}: the edit changed nothing`);
  writeFileSync(path, next);
};

const commit = async (name: string, edits: () => void, fixtures = true): Promise<void> => {
  edits();
  if (fixtures) await writeFixtures(repo.dir);
  repo.git('add', '-A');
  repo.git('commit', '-qm', name);
  sha[name] = repo.git('rev-parse', 'HEAD').trim();
};

/** `run` with `rev` checked out (the working tree is clean between commits). */
async function at<T>(rev: string, run: () => Promise<T>): Promise<T> {
  repo.git('checkout', '-q', rev);
  try {
    return await run();
  } finally {
    repo.git('checkout', '-q', 'main');
  }
}

const reports = new Map<string, Map<string, Map<number, Fig>>>();
/** The report as `npm run report -- --json` prints it at `rev` (checked out): figures per file stem and offset. */
async function reportAt(rev: string): Promise<Map<string, Map<number, Fig>>> {
  const hit = reports.get(rev);
  if (hit) return hit;
  const out = new Map<string, Map<number, Fig>>();
  for (const s of await at(rev, () => reportOf(repo.dir))) {
    out.set(s.file.replace(/^.*\//, '').replace(/\.ya?ml$/, ''), new Map(s.requests.map((q) => [q.offset, q])));
  }
  reports.set(rev, out);
  return out;
}

const summaries = new Map<string, string>();
/** `npm run pr-summary` of `head` against `base`, run once per pair (commits do not change: the same pair prints the same). */
const summaryAt = async (head: string, base: string): Promise<string> => {
  const key = `${head} ${base}`;
  const hit = summaries.get(key);
  if (hit !== undefined) return hit;
  const md = await at(head, () => summaryOf(repo.dir, base, 'https://preview.example'));
  summaries.set(key, md);
  return md;
};

// Independent formatting of the figures (not the project's formatters).
const num = (n: number, exact: boolean): string => `${exact ? '' : '≈'}${Math.round(n).toLocaleString('en-US')}`;
const signed = (n: number, exact: boolean): string => (Math.round(n) === 0 ? '±0' : `${n > 0 ? '+' : '−'}${num(Math.abs(n), exact)}`);
const pct = (f: { inputTokens: number; cachedTokens: number }): string => (f.inputTokens ? `${Math.round((100 * f.cachedTokens) / f.inputTokens)} %` : '—');
/** A printed `+$0.00041` / `−$0.0012` / `±$0` as a number. */
const dollars = (s: string): number => (s === '±$0' ? 0 : (s.startsWith('−') ? -1 : 1) * Number(s.slice(2)));
const near = (printed: number, want: number): boolean => Math.abs(printed - want) <= Math.abs(want) * 0.006 + 1e-9;

/** Every scenario section of a summary: stem → its `Tokens:` line and its request lines. */
function sections(md: string): Map<string, { status: string; tokens?: string; requests: Map<number, { status: string; text?: string }> }> {
  const out = new Map<string, { status: string; tokens?: string; requests: Map<number, { status: string; text?: string }> }>();
  for (const part of md.split('\n#### ').slice(1)) {
    const head = /\(`([^`]+)`\)(?: — scenario (\w+))?$/.exec(part.split('\n')[0]!)!;
    const tokens = /^Tokens: (.*)$/m.exec(part)?.[1];
    const requests = new Map<number, { status: string; text?: string }>();
    for (const m of part.matchAll(/^- (?:\[request @(\d+)\]\([^)]*\)|request @(\d+)): (\w+), \+\d+ −\d+(?: — (.*))?$/gm)) {
      requests.set(Number(m[1] ?? m[2]), { status: m[3]!, ...(m[4] !== undefined && { text: m[4] }) });
    }
    out.set(head[1]!, { status: head[2] ?? 'changed', ...(tokens !== undefined && { tokens }), requests });
  }
  return out;
}

/**
 * Checks every figure of the summary of `head` against `base` with both sides' own reports; returns
 * how many request lines were checked. `added`: stems the change adds (no before side).
 */
async function checkFigures(head: string, base: string, added: string[] = []): Promise<number> {
  const md = await summaryAt(head, base);
  const [before, after] = [await reportAt(base), await reportAt(head)];
  let checked = 0;
  for (const [stem, s] of sections(md)) {
    const b = before.get(stem);
    const a = after.get(stem);
    if (added.includes(stem)) {
      expect(b, `${stem} is new`).toBeUndefined();
      expect(s.status).toBe('added');
    }
    if (s.status === 'removed') continue;
    expect(a, `${stem} in the head's report`).toBeDefined();
    for (const [off, q] of s.requests) {
      if (q.status === 'removed') continue;
      const fa = a!.get(off)!;
      const fb = b?.get(off);
      if (!fb) {
        expect(q.text, `${stem} @${off}`).toBe(`added: ${num(fa.inputTokens, fa.exact)} input tokens, cached ${pct(fa)}`);
      } else {
        const exact = fa.exact && fb.exact;
        const m = /^input (\S+) → (\S+) \((\S+)\); cached (\d+ %|—) → (\d+ %|—)(?:; (\S+))?$/.exec(q.text ?? '');
        expect(m, `${stem} @${off}: ${q.text}`).not.toBeNull();
        expect([m![1], m![2], m![3], m![4], m![5]], `${stem} @${off}`).toEqual([
          num(fb.inputTokens, exact),
          num(fa.inputTokens, exact),
          signed(fa.inputTokens - fb.inputTokens, exact),
          pct(fb),
          pct(fa),
        ]);
        if (fa.costUsd !== null && fb.costUsd !== null)
          expect(near(dollars(m![6]!), fa.costUsd - fb.costUsd), `${stem} @${off}: ${m![6]} vs ${fa.costUsd - fb.costUsd}`).toBe(true);
      }
      checked++;
    }
    if (s.tokens !== undefined) checkPerTurn(stem, s.tokens, a!, b);
  }
  return checked;
}

/** A scenario's per-turn line: each side divided by its own number of turns. */
function checkPerTurn(stem: string, tokens: string, a: Map<number, Fig>, b: Map<number, Fig> | undefined): void {
  const [la, lb] = [[...a.values()], [...(b?.values() ?? [])]];
  const total = (xs: Fig[], k: 'inputTokens' | 'cachedTokens'): number => xs.reduce((n, x) => n + x[k], 0);
  const newText = `new scenario: ${num(
    total(la, 'inputTokens') / la.length,
    la.every((x) => x.exact),
  )} input tokens per turn, cached `;
  if (!lb.length) {
    expect(tokens.startsWith(newText), `${stem}: ${tokens}`).toBe(true);
    return;
  }
  const exact = [...la, ...lb].every((x) => x.exact);
  const perTurn = total(la, 'inputTokens') / la.length - total(lb, 'inputTokens') / lb.length;
  const share = (xs: Fig[]): string => pct({ inputTokens: total(xs, 'inputTokens'), cachedTokens: total(xs, 'cachedTokens') });
  const want = `${signed(perTurn, exact)} input tokens per turn; cached ${share(lb)} → ${share(la)}`;
  expect(tokens.startsWith(want), `${stem}: ${tokens} (want ${want})`).toBe(true);
}

beforeAll(async () => {
  repo = await reviewRepo();
  sha.start = repo.git('rev-parse', 'HEAD').trim();
  // A fold option set on one scenario: the abridged protocol prompt's full text changes with it.
  await commit('option', () => edit('scenarios/03-whole-prompt-key.yaml', (t) => `${t.replace(/\n*$/, '\n')}options:\n  metadataLines: every-item\n`));
  // A deploy added mid-stream (the scenario's expectation updated: the deploy busts the cache).
  await commit('deploy', () =>
    edit(
      'scenarios/05-delete.yaml',
      (t) => `${t.replace(/^expect:\n {2}busts: .*\n/m, '').replace(/\n*$/, '\n')}deploy:\n  at: "@30"\n  options:\n    metadataLines: every-item\n`,
    ),
  );
  // The fold's code: its protocol prompt gains words, and its abridged stand-in says so.
  await commit('fold code', () =>
    edit('src/builtin-folds/context-protocol/protocol-prompt.ts', (t) =>
      t
        .replace('from an append-only event stream. Nothing', 'from an append-only event stream, one item at a time, in order. Nothing')
        .replace("'AGENT_CONTEXT_PROTOCOL_PROMPT — role semantics", "'AGENT_CONTEXT_PROTOCOL_PROMPT v2 — role semantics"),
    ),
  );
  // A scenario added, with a compare: variant of its own (which is not its "before").
  await commit('added', () =>
    writeFileSync(
      join(repo.dir, 'scenarios/14-added-copy.yaml'),
      readFileSync(join(repo.dir, 'scenarios/11-metadata-lines-before-after.yaml'), 'utf8').replace('id: metadata-lines-before-after', 'id: added-copy'),
    ),
  );
  // Only the protocol prompt's full text: the fixtures (which abridge it) print the same.
  await commit('abridged only', () =>
    edit('src/builtin-folds/context-protocol/protocol-prompt.ts', (t) => t.replace('one item at a time, in order. Nothing', 'one item at a time, in order, never edited. Nothing')),
  );
  // A base without `npm run report`, then a change on top of it.
  await commit(
    'no report',
    () =>
      edit('package.json', (t) => {
        const p = JSON.parse(t);
        delete p.scripts.report;
        return `${JSON.stringify(p, null, 2)}\n`;
      }),
    false,
  );
  await commit('after no report', () => edit('scenarios/03-whole-prompt-key.yaml', (t) => t.replace('metadataLines: every-item', 'metadataLines: synthesized-only')));
}, 300_000);

afterAll(async () => {
  await closeRunners();
  rmSync(repo.dir, { recursive: true, force: true });
});

describe("a review's figures are each side's own", () => {
  it('a fold option change', async () => {
    expect(await checkFigures(sha.option!, sha.start!)).toBeGreaterThan(0);
  }, 180_000);

  it('a deploy added', async () => {
    expect(await checkFigures(sha.deploy!, sha.option!)).toBeGreaterThan(0);
  }, 180_000);

  it('a fold code change that edits abridged boilerplate', async () => {
    expect(await checkFigures(sha['fold code']!, sha.deploy!)).toBeGreaterThan(5);
  }, 180_000);

  it('an added scenario has no before, whatever its compare: variant', async () => {
    const md = await summaryAt(sha.added!, sha['fold code']!);
    expect(md).toMatch(/\(`14-added-copy`\) — scenario added\n\nTokens: new scenario: [\d,]+ input tokens per turn, cached \d+ %, \$[\d.]+ per turn\n/);
    expect(md).not.toMatch(/14-added-copy[^#]*input [\d,]+ → /);
    expect(await checkFigures(sha.added!, sha['fold code']!, ['14-added-copy'])).toBeGreaterThan(0);
  }, 300_000);

  it('lists scenarios whose figures changed although their printed prompts did not', async () => {
    expect(repo.git('diff', '--stat', sha.added!, sha['abridged only']!, '--', 'fixtures')).toBe('');
    const md = await summaryAt(sha['abridged only']!, sha.added!);
    expect(md).toMatch(
      /^<!-- prompt-fold-explainer:pr-summary -->\n### No prompt changes, but the token or cost figures of \d+ scenarios changed \(abridged boilerplate, prices\) — /,
    );
    const [before, after] = [await reportAt(sha.added!), await reportAt(sha['abridged only']!)];
    const listed = [...sections(md)].filter(([, s]) => s.tokens !== undefined);
    expect(listed.length).toBeGreaterThan(5);
    for (const [stem, s] of listed) checkPerTurn(stem, s.tokens!, after.get(stem)!, before.get(stem)!);
  }, 180_000);

  it('says the base is unknown instead of printing a number when the base has no report', async () => {
    const md = await summaryAt(sha['after no report']!, sha['no report']!);
    expect(md).toContain(
      '(`03-whole-prompt-key`)\n\nWhy: fold option `metadataLines` changed: `every-item` → `synthesized-only`; in the prompt: message 1 (system): 1 line differs (@21, @32, @42); ',
    );
    expect(md).toMatch(
      /\n\nTokens: before: not known — the base commit has no `npm run report` to compute them with; after: [\d,]+ input tokens per turn, cached \d+ %, \$[\d.]+ per turn\n/,
    );
    const s = sections(md).get('03-whole-prompt-key')!;
    for (const q of s.requests.values()) expect(q.text).toMatch(/^input [\d,]+, cached \d+ % \(before: not known\)$/);
    expect(md).not.toMatch(/input [\d,]+ → /);
  }, 180_000);

  it('/changes/ shows the same figures, no "before" for an added scenario, and leaves no temporary tree', async () => {
    const b = build(repo.dir, { EXPLAINER_BASE: sha['fold code']! });
    expect(b.status, b.output).toBe(0);
    const html = readFileSync(join(repo.dir, 'dist/changes/index.html'), 'utf8').replace(/ data-astro-cid-\w+/g, '');
    expect(html).toMatch(/<p class="review-tokens">Tokens: new scenario: [\d,]+ input tokens per turn, cached \d+ %, \$[\d.]+ per turn<\/p>/);
    const md = await summaryAt('main', sha['fold code']!);
    const tokens = [...md.matchAll(/^Tokens: (.*)$/gm)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));
    expect(tokens.length).toBeGreaterThan(0);
    for (const t of tokens) expect(html).toContain(`Tokens: ${t.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</`);
    expect(repo.git('status', '--porcelain', '--ignored', '--', '.', ':!node_modules', ':!dist', ':!.astro')).toBe('');
    expect(repo.git('worktree', 'list').trim().split('\n')).toHaveLength(1);
  }, 300_000);
});
