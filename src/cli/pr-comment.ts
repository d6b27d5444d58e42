/**
 * `npm run pr-comment -- --from <preview dir> --site-url <url> [--verify-head <sha>] [--dry-run]`, or
 * `-- --pr <N> --body-file <file>` — posts the pull-request summary as the ONE summary comment of
 * the pull request, updating it on later pushes instead of adding another (found by its marker).
 * With --from it reads the PR number and the review (`changes.json`: changes, token and cost
 * figures, root causes, broken expectations — validated, it is untrusted) from a folder `npm run
 * preview:build` wrote and renders it with the same renderer as `npm run pr-summary`, links into
 * <url>/previews/pr-<N>/; --verify-head first checks with GitHub that the pull request is open at
 * that commit (the folder came from the pull request's own run). Needs GITHUB_TOKEN and
 * GITHUB_REPOSITORY (set in a GitHub Actions step) — except with --dry-run, which prints the body it
 * would post and talks to no one.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { assertPullHead, githubFromEnv, upsertComment } from '../github/api.ts';
import { basePathOf } from '../integration/site-base.ts';
import { parsePr, previewUrl } from '../preview/paths.ts';
import { runCommandWithArgs } from '../project.ts';
import { runMain, UsageError } from './config.ts';

/** The usage text, naming the command as this project runs it (read when printed: the bin sets the project first). */
const usage = (): string => `usage: ${runCommandWithArgs('pr-comment')} --from <preview dir> --site-url <url> [--verify-head <sha>] [--dry-run]
       ${runCommandWithArgs('pr-comment')} --pr <N> --body-file <file> [--verify-head <sha>] [--dry-run]

  --dry-run  print the comment body and post nothing (no token needed; --verify-head is not checked)`;

runMain(async () => {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        from: { type: 'string' },
        pr: { type: 'string' },
        'body-file': { type: 'string' },
        'verify-head': { type: 'string' },
        'site-url': { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (err) {
    throw new UsageError(`pr-comment: ${(err as Error).message}\n\n${usage()}`);
  }
  let pr: number;
  let body: string;
  if (values.from) {
    // Loaded only here: a usage error or a --body-file comment needs neither the preview reader nor the renderer.
    const [{ readPreview }, { prSummary }] = await Promise.all([import('../preview/build.ts'), import('../review/summary.ts')]);
    const preview = readPreview(values.from);
    const siteUrl = values['site-url'];
    if (!siteUrl) throw new UsageError(`pr-comment: --site-url <production URL> is required with --from (the summary links into its previews/pr-<N>/)\n\n${usage()}`);
    basePathOf(siteUrl);
    pr = values.pr ? parsePr(values.pr) : preview.meta.pr;
    if (pr !== preview.meta.pr) throw new UsageError(`pr-comment: ${values.from} is the preview of #${preview.meta.pr}, not #${pr}`);
    body = prSummary(preview.review, previewUrl(pr, siteUrl));
  } else {
    if (!values['body-file']) throw new UsageError(`pr-comment: give --from <preview dir>, or --pr <N> with --body-file <file>\n\n${usage()}`);
    pr = parsePr(values.pr);
    try {
      body = readFileSync(values['body-file'], 'utf8');
    } catch (err) {
      throw new UsageError(`pr-comment: cannot read ${values['body-file']}: ${(err as Error).message}`);
    }
  }
  if (values['dry-run']) {
    process.stdout.write(body);
    return;
  }
  const gh = githubFromEnv();
  if (values['verify-head']) await assertPullHead(gh, pr, values['verify-head']);
  const { SUMMARY_MARKER } = await import('../review/summary.ts');
  const done = await upsertComment(gh, pr, body, SUMMARY_MARKER);
  console.log(`${done.action} the summary comment on #${pr} (id ${done.id})`);
});
