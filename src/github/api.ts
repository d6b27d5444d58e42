/**
 * The two things the preview workflow asks GitHub, over its REST API with the workflow's token:
 * "is <sha> really the head of pull request N?" (the PR number arrives in an artifact built from the
 * pull request's own code, so it is checked against GitHub before anything is published or posted)
 * and "post, or update, the one summary comment" (found by its marker, so pushes never pile up
 * comments). Plain fetch, no SDK; errors say which call failed and why.
 */
import { UserError } from '../errors.ts';

export class GitHubError extends UserError {}

export interface GitHub {
  /** e.g. https://api.github.com (GITHUB_API_URL). */
  apiUrl: string;
  /** owner/name (GITHUB_REPOSITORY). */
  repo: string;
  token: string;
  fetch?: typeof fetch;
}

/** The repository, API and token a workflow step has in its environment. */
export function githubFromEnv(env: NodeJS.ProcessEnv = process.env): GitHub {
  const missing = ['GITHUB_REPOSITORY', 'GITHUB_TOKEN'].filter((k) => !env[k]);
  if (missing.length) {
    throw new GitHubError(`${missing.join(' and ')} not set`, {
      fix: `run this in a GitHub Actions step with \`env: GITHUB_TOKEN: \${{ github.token }}\` (GITHUB_REPOSITORY is set by Actions)`,
    });
  }
  if (!/^[\w.-]+\/[\w.-]+$/.test(env.GITHUB_REPOSITORY!)) throw new GitHubError(`GITHUB_REPOSITORY "${env.GITHUB_REPOSITORY}" is not owner/name`);
  return { apiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''), repo: env.GITHUB_REPOSITORY!, token: env.GITHUB_TOKEN! };
}

interface Reply {
  body: unknown;
  next?: string;
}

async function call(gh: GitHub, method: string, pathOrUrl: string, body?: unknown): Promise<Reply> {
  const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${gh.apiUrl}${pathOrUrl}`;
  let res: Response;
  try {
    res = await (gh.fetch ?? fetch)(url, {
      method,
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${gh.token}`,
        'x-github-api-version': '2022-11-28',
        'user-agent': 'prompt-fold-explainer',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new GitHubError(`GitHub API ${method} ${url} failed: ${(err as Error).message}`);
  }
  const text = await res.text();
  if (!res.ok) {
    let message = text.slice(0, 300);
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? message;
    } catch {
      /* not JSON */
    }
    const fix = res.status === 403 || res.status === 401 ? 'give the workflow `permissions: pull-requests: write` and pass GITHUB_TOKEN' : undefined;
    throw new GitHubError(`GitHub API ${method} ${url}: ${res.status} ${message}`, { ...(fix && { fix }) });
  }
  const next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
  return { body: text ? JSON.parse(text) : undefined, next };
}

/** Throws unless pull request `pr` is open with head commit `sha` (a forged or stale PR number fails). */
export async function assertPullHead(gh: GitHub, pr: number, sha: string): Promise<void> {
  const { body } = await call(gh, 'GET', `/repos/${gh.repo}/pulls/${pr}`);
  const pull = body as { state?: string; head?: { sha?: string } };
  if (pull.head?.sha !== sha) {
    throw new GitHubError(
      `pull request #${pr} has head ${pull.head?.sha ?? '(none)'}, not ${sha}: the preview was built from another commit (a newer push, or a wrong PR number); nothing was published`,
    );
  }
  if (pull.state !== 'open') throw new GitHubError(`pull request #${pr} is ${pull.state}; a preview is only published for an open one`);
}

/** Creates the comment carrying `marker`, or updates it if it is there. Returns what it did. */
export async function upsertComment(gh: GitHub, pr: number, body: string, marker: string): Promise<{ action: 'created' | 'updated'; id: number }> {
  if (!body.includes(marker)) throw new GitHubError(`the comment body lacks its marker ${marker}; it could never be found again to update`);
  let page: string | undefined = `/repos/${gh.repo}/issues/${pr}/comments?per_page=100`;
  while (page) {
    const reply: Reply = await call(gh, 'GET', page);
    const mine = (reply.body as { id: number; body?: string }[]).find((c) => c.body?.startsWith(marker));
    if (mine) {
      await call(gh, 'PATCH', `/repos/${gh.repo}/issues/comments/${mine.id}`, { body });
      return { action: 'updated', id: mine.id };
    }
    page = reply.next;
  }
  const created = (await call(gh, 'POST', `/repos/${gh.repo}/issues/${pr}/comments`, { body })).body as { id: number };
  return { action: 'created', id: created.id };
}
