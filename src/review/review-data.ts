/**
 * Everything a pull-request review says, computed once: the change set against the base
 * (why.ts), each scenario's figures before and after (the base commit's own report against this
 * checkout's: delta.ts `baseSides`), the root causes of any cache regression (root-cause.ts) and
 * the broken cache expectations (expectations.ts). The preview build writes it to `changes.json`
 * (src/preview/changes.ts), `npm run pr-summary` renders it directly, the trusted workflow renders
 * it from that file, and /changes/ shows it: one value, one renderer (summary.ts), the same figures.
 */
import type { RenderedCorpus } from '../corpus/check.ts';
import { baseFigures } from './base-report.ts';
import type { BaseFixture } from './base.ts';
import type { ChangeSet } from './compare.ts';
import { baseSides, deltasOf, type ScenarioDelta, type Sides } from './delta.ts';
import { expectationFailures, type ExpectationFailure } from './expectations.ts';
import type { LintFinding } from '../request-lint/request-lint.ts';
import { rootCauses, type RootCause } from './root-cause.ts';
import { changesAgainstBase, type BaseConfig } from './why.ts';

export interface ReviewData {
  changes: ChangeSet;
  /** Every scenario's figures before and after, by scenario id. */
  sides: Map<string, Sides>;
  rootCauses: RootCause[];
  expectations: ExpectationFailure[];
  /** The request linter's findings (request-lint.ts) on the scenarios the change touches, as the change renders them. */
  lint: { id: string; stem: string; title: string; findings: LintFinding[] }[];
}

/** The review of the rendered corpus against `read` (a ref or commit; `label` names it to readers). */
export function buildReview(c: BaseConfig, corpus: RenderedCorpus, read: string, label = read): ReviewData {
  const { changes, fixtures } = changesAgainstBase(c, read, corpus.scenarios, label);
  return reviewOf(c.root, changes, fixtures, corpus);
}

/** The review of a change set already computed (the site computes its change set with its reviews). */
export function reviewOf(root: string, changes: ChangeSet, fixtures: ReadonlyMap<string, BaseFixture>, corpus: RenderedCorpus): ReviewData {
  const base = baseFigures(root, changes.commit);
  const head = new Map([...corpus.economics].map(([id, e]) => [id, e.requests]));
  const rendered = new Map(corpus.scenarios.map((r) => [r.scenario.id, r]));
  const roots = rootCauses(
    changes.scenarios.flatMap((s) => {
      const r = rendered.get(s.id);
      const econ = corpus.economics.get(s.id);
      if (s.status !== 'changed' || !r || !econ) return [];
      return [{ change: s, head: r, econ, baseFigures: base.ok ? base.byStem.get(s.stem) : undefined, baseFixture: fixtures.get(s.stem) }];
    }),
  );
  const lint = changes.scenarios.flatMap((s) => {
    if (s.status !== 'changed' && s.status !== 'added') return [];
    // The corpus check linted every scenario already (corpus/check.ts).
    const findings = corpus.lint.get(s.id) ?? [];
    return findings.length ? [{ id: s.id, stem: s.stem, title: s.title, findings }] : [];
  });
  return { changes, sides: baseSides(changes.scenarios, head, base), rootCauses: roots, expectations: expectationFailures(corpus), lint };
}

/** Each scenario's token and cost delta (delta.ts), from the review's sides. */
export const reviewDeltas = (review: ReviewData): Map<string, ScenarioDelta> => deltasOf(review.sides);
