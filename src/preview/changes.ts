/**
 * The review a preview carries (`changes.json`), so the pull-request comment can be written where
 * the production URL is known: a pull request from a fork builds its preview without the
 * repository's variables, and the trusted workflow that publishes it renders the comment with
 * `prSummary` from this file — the same renderer as `npm run pr-summary`, from the same data
 * (review/review-data.ts): the change list (statuses, +/− counts, dropped annotations, why each
 * changed — no prompt text), every scenario's token and cost figures before and after, the root
 * causes of a cache regression, the broken expectations and the request linter's findings. The file is validated on the way in
 * (zod; the first problem named with its path): it comes from the pull request's own run, so it is
 * untrusted.
 */
import { z } from 'zod';
import { LINT_RULES } from '../request-lint/request-lint.ts';
import type { ChangeSet } from '../review/compare.ts';
import type { Side, Sides } from '../review/delta.ts';
import type { ReviewData } from '../review/review-data.ts';
import { rootCauseSchema } from '../review/root-cause.ts';
import { causeSchema } from '../review/cause.ts';
import { SiteBaseError } from '../integration/site-base.ts';
import { runCommand } from '../project.ts';

const status = z.enum(['unchanged', 'changed', 'added', 'removed']);
const count = z.number().int().nonnegative();
const text = z.string().max(10_000);
const why = z.array(causeSchema).max(100).optional();

const SummaryChanges = z.strictObject({
  ref: text,
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  changed: z.boolean(),
  scenarios: z
    .array(
      z.strictObject({
        id: text,
        stem: text,
        title: text,
        status,
        added: count,
        removed: count,
        why,
        requests: z
          .array(
            z.strictObject({
              offset: count,
              status,
              diff: z.strictObject({ added: count, removed: count }).optional(),
              droppedAnnotations: z.array(z.strictObject({ find: text, comment: text })),
              why,
            }),
          )
          .max(100_000),
      }),
    )
    .max(10_000),
});

const figures = z.strictObject({
  offset: count,
  inputTokens: z.number().nonnegative(),
  cachedTokens: z.number().nonnegative(),
  costUsd: z.number().nonnegative().nullable(),
  exact: z.boolean(),
});
const side = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('figures'), requests: z.array(figures).max(100_000) }),
  z.strictObject({ kind: z.literal('absent') }),
  z.strictObject({ kind: z.literal('unknown'), reason: text }),
]);

/** The file: format version, the change list, the figures, root causes, broken expectations and lint findings. */
const ReviewFile = z.strictObject({
  version: z.literal(2),
  changes: SummaryChanges,
  sides: z.array(z.strictObject({ id: text, before: side, after: side })).max(10_000),
  rootCauses: z.array(rootCauseSchema).max(1000),
  expectations: z.array(z.strictObject({ file: text, line: z.number().int().positive(), col: z.number().int().positive(), message: text })).max(100_000),
  lint: z
    .array(
      z.strictObject({
        id: text,
        stem: text,
        title: text,
        findings: z
          .array(
            z.strictObject({
              offset: count,
              rule: z.enum(LINT_RULES),
              severity: z.enum(['error', 'warning']),
              message: text,
              source: z.strictObject({ url: text, read: text, rule: text }),
              fix: text.optional(),
            }),
          )
          .max(100_000),
      }),
    )
    .max(10_000),
});

const sideJson = (s: Side): z.infer<typeof side> => (s.kind === 'figures' ? { kind: 'figures', requests: [...s.requests].map(([offset, f]) => ({ offset, ...f })) } : s);
const sideOfJson = (s: z.infer<typeof side>): Side => (s.kind === 'figures' ? { kind: 'figures', requests: new Map(s.requests.map(({ offset, ...f }) => [offset, f])) } : s);

/** The change set without prompt text or diff rows. */
function slimChanges(changes: ChangeSet): z.infer<typeof SummaryChanges> {
  const slim = {
    ref: changes.ref,
    commit: changes.commit,
    changed: changes.changed,
    scenarios: changes.scenarios.map((s) => ({
      id: s.id,
      stem: s.stem,
      title: s.title,
      status: s.status,
      added: s.added,
      removed: s.removed,
      ...(s.why && { why: s.why }),
      requests: s.requests.map((q) => ({
        offset: q.offset,
        status: q.status,
        ...(q.diff ? { diff: { added: q.diff.added, removed: q.diff.removed } } : {}),
        droppedAnnotations: q.droppedAnnotations.map((a) => ({ find: a.find, comment: a.comment })),
        ...(q.why && { why: q.why }),
      })),
    })),
  };
  return slim;
}

/** The JSON a preview folder stores (see the header). */
export function serializeReview(review: ReviewData): string {
  const file: z.infer<typeof ReviewFile> = {
    version: 2,
    changes: slimChanges(review.changes),
    sides: [...review.sides].map(([id, s]) => ({ id, before: sideJson(s.before), after: sideJson(s.after) })),
    rootCauses: review.rootCauses,
    expectations: review.expectations,
    lint: review.lint,
  };
  return `${JSON.stringify(file, null, 1)}\n`;
}

/** Parses and validates `changes.json`; the result is what `prSummary` reads. */
export function parseReview(json: string, file: string): ReviewData {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (err) {
    throw new SiteBaseError(`${file}: not JSON (${(err as Error).message})`, { fix: `rebuild the preview with \`${runCommand('preview:build')}\`` });
  }
  const r = ReviewFile.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new SiteBaseError(`${file}: not a review (changes.json): ${issue.path.join('.') || '(root)'}: ${issue.message}`, {
      fix: `rebuild the preview with \`${runCommand('preview:build')}\` (this version writes format 2)`,
    });
  }
  const sides = new Map<string, Sides>(r.data.sides.map((s) => [s.id, { before: sideOfJson(s.before), after: sideOfJson(s.after) }]));
  // prSummary reads only the fields kept here (diff: its counts).
  return { changes: r.data.changes as unknown as ChangeSet, sides, rootCauses: r.data.rootCauses, expectations: r.data.expectations, lint: r.data.lint };
}
