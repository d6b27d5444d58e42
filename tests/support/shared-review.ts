/**
 * Test support: what a test file gets of the run's shared review repository and pull-request
 * preview (made once per run by the global setup, tests/support/global-setup.ts, from
 * tests/support/review-repo.ts): reviewRepo() — a copy of the repository of its own, the same
 * commits — and sharedPreview() — the preview itself, read-only. See review-repo.ts's header.
 */
import { inject } from 'vitest';
import type { SharedPreviewAnswer, SharedReviewRepoAnswer } from './global-setup.ts';
import { copyRepo, createReviewRepo, type ReviewRepo, reviewRepoAt } from './review-repo.ts';
import { ask } from './shared-site.ts';

/** A review repository of this file's own: a copy of the run's one (see the header); outside the build and browser projects, one made here. */
export async function reviewRepo(): Promise<ReviewRepo> {
  const endpoint = inject('pfeShared');
  if (!endpoint) return reviewRepoAt(await createReviewRepo());
  const answer = await ask<SharedReviewRepoAnswer>(`${endpoint}/review-repo`);
  if ('error' in answer) throw new Error(answer.error);
  return reviewRepoAt(copyRepo(answer.dir));
}

/**
 * The run's one pull-request preview (see the header): the review repository on branch `feature`,
 * `main` at the base commit, and the command's result; its `preview-site/` is the preview. Treat
 * `dir` as read-only (copyRepo() it to change anything): other files read the same folder.
 */
export async function sharedPreview(): Promise<{ dir: string; status: number; stdout: string; stderr: string }> {
  const endpoint = inject('pfeShared');
  if (!endpoint) throw new Error('no shared preview in this project: run the file in the `build` or `browser` project (vitest.config.ts)');
  const answer = await ask<SharedPreviewAnswer>(`${endpoint}/preview`);
  if ('error' in answer) throw new Error(answer.error);
  return answer;
}
