/**
 * The change list a preview carries (`changes.json`), so the pull-request comment can be written
 * where the production URL is known: a pull request from a fork builds its preview without the
 * repository's variables, and the trusted workflow that publishes it renders the summary with
 * `prSummary` from this file. Only what the summary shows is kept (statuses, +/− counts, dropped
 * annotations, why each changed — no prompt text), and the file is validated on the way in: it comes from the pull
 * request's own run, so it is untrusted.
 */
import { z } from 'zod';
import type { ChangeSet } from '../review/compare.ts';
import { causeSchema } from '../review/cause.ts';
import { SiteBaseError } from '../integration/site-base.ts';

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

/** The JSON a preview folder stores: the change set without prompt text or diff rows. */
export function serializeChanges(changes: ChangeSet): string {
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
  return `${JSON.stringify(slim, null, 1)}\n`;
}

/** Parses and validates `changes.json`; the result is what `prSummary` reads. */
export function parseChanges(json: string, file: string): ChangeSet {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (err) {
    throw new SiteBaseError(`${file}: not JSON (${(err as Error).message})\n  fix: rebuild the preview with \`npm run preview:build\``);
  }
  const r = SummaryChanges.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new SiteBaseError(`${file}: not a change list: ${issue.path.join('.') || '(root)'}: ${issue.message}\n  fix: rebuild the preview with \`npm run preview:build\``);
  }
  // prSummary reads only the fields kept here (diff: its counts).
  return r.data as unknown as ChangeSet;
}
