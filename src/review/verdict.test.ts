/**
 * The verdict and the comment's head: regressed, improved or no cache effect; the totals checked
 * against sums worked out by hand; every figure escaped; the body within GitHub's limit.
 */
import { describe, expect, it } from 'vitest';
import type { ChangeSet } from './compare.ts';
import type { Figures, Side } from './delta.ts';
import type { ReviewData } from './review-data.ts';
import type { RootCause } from './root-cause.ts';
import { prSummary, SUMMARY_MARKER } from './summary.ts';
import { verdictOf } from './verdict.ts';

const f = (inputTokens: number, cachedTokens: number, costUsd: number | null): Figures => ({ inputTokens, cachedTokens, costUsd, exact: true });
const side = (...requests: Figures[]): Side => ({ kind: 'figures', requests: new Map(requests.map((r, i) => [i + 1, r])) });

function changes(titles: Record<string, 'changed' | 'unchanged'>): ChangeSet {
  return {
    ref: 'main',
    commit: 'a'.repeat(40),
    changed: Object.values(titles).includes('changed'),
    scenarios: Object.entries(titles).map(([id, status]) => ({
      id,
      stem: `01-${id}`,
      title: `Scenario ${id}`,
      status,
      added: status === 'changed' ? 2 : 0,
      removed: status === 'changed' ? 2 : 0,
      requests: [1, 2].map((offset) => ({ offset, status, ...(status === 'changed' && { diff: { added: 1, removed: 1, rows: [] } }), droppedAnnotations: [] })),
    })),
  };
}

// x: request 2 read 900 cached tokens at the base and reads none now; y did not change.
const BEFORE_X = side(f(1000, 0, 0.01), f(1100, 900, 0.005));
const AFTER_X = side(f(1019, 0, 0.0102), f(1119, 0, 0.0112));
const Y = side(f(500, 0, 0.002));
const cause: RootCause = {
  kind: 'volatile',
  text: 'Current time: 10:02',
  previous: 'Current time: 10:01',
  message: 1,
  role: 'system',
  scenarios: [{ id: 'x', stem: '01-x', title: 'Scenario x', offsets: [2] }],
  tokensLost: 900,
  lostCostUsd: 0.0062,
  responsible: [{ kind: 'fold-code', fold: 'context-protocol', files: ['src/builtin-folds/context-protocol/render.ts'] }],
};

const review = (before: Side, after: Side, extra: Partial<ReviewData> = {}): ReviewData => ({
  changes: changes({ x: 'changed', y: 'unchanged' }),
  sides: new Map([
    ['x', { before, after }],
    ['y', { before: Y, after: Y }],
  ]),
  rootCauses: [],
  expectations: [],
  lint: [],
  ...extra,
});

describe('verdictOf', () => {
  it('a regression: the totals are the sums over the scenarios, the dollars their mean difference', () => {
    const v = verdictOf(review(BEFORE_X, AFTER_X));
    expect(v.kind).toBe('regressed');
    expect(v.regressed).toEqual({ requests: 1, scenarios: 1 });
    // Worked out by hand: input 1000+1100+500 → 1019+1119+500; cached 900 → 0;
    // cost (0.01+0.005+0.002) → (0.0102+0.0112+0.002), so (0.0234 − 0.017) / 2 scenarios = 0.0032 per conversation.
    expect(v.totals).toEqual({
      scenarios: 2,
      before: { turns: 3, inputTokens: 2600, cachedTokens: 900, costUsd: 0.017, exact: true },
      after: { turns: 3, inputTokens: 2638, cachedTokens: 0, costUsd: 0.0234, exact: true },
      perConversationUsd: 0.0032,
    });
    expect(v.rows.map((r) => [r.id, r.regressed])).toEqual([['x', [2]]]);
  });

  it('an improvement is the same change the other way round', () => {
    const v = verdictOf(review(AFTER_X, BEFORE_X));
    expect(v.kind).toBe('improved');
    expect(v.totals!.perConversationUsd).toBe(-0.0032);
  });

  it('prompts that changed with the same cache reads have no cache effect; nothing changed is said as such', () => {
    expect(verdictOf(review(BEFORE_X, BEFORE_X)).kind).toBe('neutral');
    expect(verdictOf({ ...review(BEFORE_X, BEFORE_X), changes: changes({ x: 'unchanged', y: 'unchanged' }) }).kind).toBe('unchanged');
  });

  it('a root cause counts its requests even where the base’s figures are not known', () => {
    const unknown: Side = { kind: 'unknown', reason: 'the base commit has no `npm run report` to compute them with' };
    const v = verdictOf(review(unknown, AFTER_X, { rootCauses: [cause] }));
    expect(v.kind).toBe('regressed');
    expect(v.totals).toBeNull();
    expect(v.unknown).toBe('the base commit has no `npm run report` to compute them with');
  });
});

describe('prSummary', () => {
  const SITE = 'https://x.example/previews/pr-7';

  it('leads with the verdict and its dollars, then the totals, the root cause once and the broken expectations', () => {
    const md = prSummary(
      review(BEFORE_X, AFTER_X, {
        rootCauses: [cause],
        expectations: [{ file: 'scenarios/01-x.yaml', line: 3, col: 10, message: 'request @2 busts the cache but `expect.busts` does not list it' }],
      }),
      SITE,
    );
    const lines = md.split('\n');
    expect(lines.slice(0, 9)).toEqual([
      SUMMARY_MARKER,
      '### ⚠ The cache regressed: 1 request in 1 scenario read less of the prompt cache than at the base — +$0.0032 per conversation, +$3.20 per 1,000 conversations',
      '',
      'Across 2 scenarios (each one conversation, weighted equally): cached share 35 % → 0 %; input tokens +38 (2,600 → 2,638); +$0.0032 per conversation, +$3.20 per 1,000 conversations.',
      '',
      '**Root cause** — a value that changes on every request, inside the cached prefix: `Current time: 10:02` where the request before had `Current time: 10:01` — message 1 (system), in 1 request of 1 scenario, 900 cached tokens lost (+$0.0062). Responsible: the context-protocol fold changed (`src/builtin-folds/context-protocol/render.ts`); the scenario did not.',
      '',
      "**Broken expectations**: 1 in 1 scenario file — `npm run check` fails on them, and so does this pull request's check until they are fixed or updated.",
      '',
    ]);
    expect(lines[9]).toBe('- `scenarios/01-x.yaml:3:10` request @2 busts the cache but `expect.busts` does not list it');
    expect(md).toContain('| [Scenario x](https://x.example/previews/pr-7/scenarios/x/) | 2 | 43 % → 0 % | 1 ⚠ | +38 | +$0.0064 | 1 |');
    // The root cause's responsible code is named once: not again under the scenario.
    expect(md.split('src/builtin-folds/context-protocol/render.ts').length - 1).toBe(1);
  });

  it('escapes what the pull request wrote: titles, causes and messages make no link, markup or HTML', () => {
    const hostile = '[click](javascript:alert(1)) <img src=x onerror=alert(1)> *bold* | pipe';
    const r = review(BEFORE_X, AFTER_X, {
      rootCauses: [{ ...cause, text: 'a ` backtick `<b>`', scenarios: [{ ...cause.scenarios[0]!, title: hostile }] }],
      expectations: [{ file: 'scenarios/x.yaml', line: 1, col: 1, message: `${hostile} \`<script>\`` }],
    });
    r.changes.scenarios[0]!.title = hostile;
    const md = prSummary(r, SITE);
    expect(md).not.toMatch(/(?<!\\)<img/);
    expect(md).not.toMatch(/(?<!\\)\]\(javascript/);
    expect(md).not.toMatch(/(?<!\\)\*bold/);
    expect(md).toContain('`a ˋ backtick ˋ<b>ˋ`');
    expect(md).toContain('`<script>`'); // inside a code span: shown, not run
    for (const row of md.split('\n').filter((l) => l.startsWith('| [') || l.startsWith('| \\['))) expect(row.split(/(?<!\\)\|/).length).toBe(9);
  });

  it('stays within the limit, leaving out what does not fit with a link to /changes/', () => {
    const many = changes(Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`s${i}-${'long-title-'.repeat(8)}`, 'changed' as const])));
    const sides = new Map(many.scenarios.map((s) => [s.id, { before: BEFORE_X, after: AFTER_X }]));
    const md = prSummary({ changes: many, sides, rootCauses: [cause], expectations: [], lint: [] }, SITE);
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md).toMatch(/_\d+ more sections? did not fit in this comment: \[\/changes\/\]\(https:\/\/x\.example\/previews\/pr-7\/changes\/\) shows everything\._\n$/);
    expect(md.startsWith(`${SUMMARY_MARKER}\n### ⚠ The cache regressed: 400 requests in 400 scenarios`)).toBe(true);
    const small = prSummary({ changes: many, sides, rootCauses: [cause], expectations: [], lint: [] }, SITE, 4000);
    expect(small.length).toBeLessThanOrEqual(4000);
    expect(small).toContain('**Root cause**');
  });
});
