// The GitHub calls of the preview workflow, against an in-memory stand-in of the REST API: one
// summary comment created then updated (found across pages), a PR number checked against its head
// commit, and every failure a one-line error saying what to fix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUMMARY_MARKER } from '../review/summary.ts';
import { assertPullHead, githubFromEnv, upsertComment, type GitHub } from './api.ts';
import { startFakeGitHub, type FakeGitHub } from '../../tests/support/fake-github.ts';

let fake: FakeGitHub;
let gh: GitHub;
const SHA = 'a'.repeat(40);

beforeAll(async () => {
  fake = await startFakeGitHub();
  gh = githubFromEnv({ GITHUB_REPOSITORY: fake.repo, GITHUB_TOKEN: fake.token, GITHUB_API_URL: fake.apiUrl });
});
afterAll(() => fake?.close());

describe('the summary comment', () => {
  it('is created once, then updated in place — found by its marker past the first page', async () => {
    fake.pageSize = 2;
    fake.comments.set(
      5,
      [1, 2, 3].map((i) => ({ id: i, body: `someone else ${i} mentions ${SUMMARY_MARKER} later on` })),
    );
    const first = await upsertComment(gh, 5, `${SUMMARY_MARKER}\nv1`, SUMMARY_MARKER);
    expect(first.action).toBe('created');
    const second = await upsertComment(gh, 5, `${SUMMARY_MARKER}\nv2`, SUMMARY_MARKER);
    expect(second).toEqual({ action: 'updated', id: first.id });
    const ours = fake.comments.get(5)!.filter((c) => c.body.startsWith(SUMMARY_MARKER));
    expect(ours).toEqual([{ id: first.id, body: `${SUMMARY_MARKER}\nv2` }]);
    expect(fake.comments.get(5)).toHaveLength(4);
    expect(fake.requests.filter((r) => r.includes('/issues/5/comments?')).length).toBeGreaterThanOrEqual(2); // paged
  });

  it('refuses a body without its marker', async () => {
    await expect(upsertComment(gh, 5, 'no marker', SUMMARY_MARKER)).rejects.toThrow('lacks its marker');
  });
});

describe('the pull-request check', () => {
  it('passes for an open pull request at that head, and fails for another head or a closed one', async () => {
    fake.pulls.set(7, { state: 'open', head: { sha: SHA } });
    await expect(assertPullHead(gh, 7, SHA)).resolves.toBeUndefined();
    await expect(assertPullHead(gh, 7, 'b'.repeat(40))).rejects.toThrow(`pull request #7 has head ${SHA}, not ${'b'.repeat(40)}: the preview was built from another commit`);
    fake.pulls.set(8, { state: 'closed', head: { sha: SHA } });
    await expect(assertPullHead(gh, 8, SHA)).rejects.toThrow('pull request #8 is closed');
    await expect(assertPullHead(gh, 9, SHA)).rejects.toThrow(/GitHub API GET .*\/pulls\/9: 404 Not Found/);
  });
});

describe('errors', () => {
  it('says what is missing from the environment and what a rejected token needs', async () => {
    expect(() => githubFromEnv({})).toThrow(/GITHUB_REPOSITORY and GITHUB_TOKEN not set\n {2}fix: run this in a GitHub Actions step/);
    expect(() => githubFromEnv({ GITHUB_REPOSITORY: 'nope', GITHUB_TOKEN: 't' })).toThrow('GITHUB_REPOSITORY "nope" is not owner/name');
    await expect(upsertComment({ ...gh, token: 'wrong' }, 5, SUMMARY_MARKER, SUMMARY_MARKER)).rejects.toThrow(
      /401 Bad credentials\n {2}fix: give the workflow `permissions: pull-requests: write`/,
    );
    await expect(assertPullHead({ ...gh, apiUrl: 'http://127.0.0.1:9' }, 1, SHA)).rejects.toThrow(
      /GitHub API GET http:\/\/127\.0\.0\.1:9\/repos\/acme\/explainer\/pulls\/1 failed/,
    );
  });
});
