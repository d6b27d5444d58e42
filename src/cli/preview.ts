/**
 * Pull-request previews, as three commands (package.json maps each to a script):
 *
 *   npm run preview:build   -- --pr <N> --base <ref> [--site-url <url>] [--out <dir>]
 *   npm run preview:publish -- --pr <N> --target <target> [--base <ref>] [--site-url <url>] [--endpoint <url>]
 *   npm run preview:publish -- --prebuilt <dir> --target <target> [--pr <N>] [--verify-head <sha>] [--site-url <url>] [--endpoint <url>]
 *   npm run preview:remove  -- --pr <N> --target <target> [--endpoint <url>]
 *
 * publish without --prebuilt builds first (against the merge-base of <ref>, under the preview's
 * path), then syncs to <target>/previews/pr-<N>/. With --prebuilt it publishes a folder that
 * preview:build wrote — in CI, an artifact from the unprivileged pull-request workflow, so its PR
 * number is checked against GitHub (--verify-head: the workflow run's head commit) before anything
 * is written. The logic is in src/preview/; this only reads arguments. Exit 0, or 1 with a message.
 */
import { parseArgs } from 'node:util';
import { assertPullHead, githubFromEnv } from '../github/api.ts';
import { basePathOf } from '../integration/site-base.ts';
import { parsePr, previewBasePath, previewUrl } from '../preview/paths.ts';
import { SyncError } from '../sync/errors.ts';
import { TARGET_FORMS } from '../sync/target.ts';
import { runCommandWithArgs } from '../project.ts';
import { loadConfig, runMain, UsageError } from './config.ts';

// Each subcommand imports its modules when it runs: a usage error or `remove` loads no corpus machinery.
const building = () => import('../preview/build.ts');
const publishing = () => import('../preview/publish.ts');

/** The usage text, naming the commands as this project runs them (read when printed: the bin sets the project first). */
const usage = (): string => `usage:
  ${runCommandWithArgs('preview:build')}   --pr <N> --base <ref> [--site-url <url>] [--out <dir>]
  ${runCommandWithArgs('preview:publish')} --pr <N> --base <ref> --target <target> [--site-url <url>] [--endpoint <url>]
  ${runCommandWithArgs('preview:publish')} --prebuilt <dir> --target <target> [--pr <N>] [--verify-head <sha>] [--site-url <url>] [--endpoint <url>]
  ${runCommandWithArgs('preview:remove')}  --pr <N> --target <target> [--endpoint <url>]

  --pr           the pull request's number; its preview lives at <target>/previews/pr-<N>/
  --base         the pull request's base branch (e.g. origin/main): the site is compared with its merge-base
                 (default: $EXPLAINER_BASE, taken as the commit to compare with)
  --site-url     the production site's URL (e.g. https://explainer.example/): the preview is built for
                 <site-url>previews/pr-<N>/ and the summary's links point there
  --target       the PRODUCTION target, ${TARGET_FORMS}; previews go under its previews/ folder
  --endpoint     S3 endpoint for non-AWS services (Cloudflare R2, MinIO); empty means AWS
  --out          where preview:build writes the preview folder (default preview-site)
  --prebuilt     publish a folder written by preview:build instead of building
  --verify-head  with --prebuilt: publish only if pull request <N> is open with this head commit (GitHub API;
                 needs GITHUB_TOKEN and GITHUB_REPOSITORY)`;

runMain(async () => {
  const command = process.argv[2];
  let values;
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(3),
      options: {
        pr: { type: 'string' },
        base: { type: 'string' },
        'site-url': { type: 'string' },
        target: { type: 'string' },
        endpoint: { type: 'string' },
        out: { type: 'string', default: 'preview-site' },
        prebuilt: { type: 'string' },
        'verify-head': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }));
  } catch (err) {
    throw new UsageError(`preview: ${(err as Error).message}\n\n${usage()}`);
  }
  if (values.help) {
    console.log(usage());
    return 0;
  }
  const siteUrl = values['site-url'] || undefined;
  if (siteUrl) basePathOf(siteUrl); // a bad URL fails before anything runs
  const needTarget = (): string => {
    if (!values.target) throw new UsageError(`preview:${command}: --target is required (the production target; the preview goes under its previews/ folder)\n\n${usage()}`);
    return values.target;
  };
  const baseRef = (): string => {
    const ref = values.base ?? process.env.EXPLAINER_BASE;
    if (!ref) throw new UsageError(`preview:${command}: missing --base <ref> — the pull request's base branch, e.g. --base origin/main\n\n${usage()}`);
    return ref;
  };
  try {
    switch (command) {
      case 'build': {
        const { buildPreview } = await building();
        await buildPreview({ config: await loadConfig(), pr: parsePr(values.pr), baseRef: baseRef(), siteUrl, out: values.out });
        return 0;
      }
      case 'publish': {
        const target = needTarget();
        const [{ buildPreview, readPreview }, { publishPreview }] = await Promise.all([building(), publishing()]);
        let dir = values.out;
        if (!values.prebuilt) {
          if (values['verify-head']) throw new UsageError('preview:publish: --verify-head is for --prebuilt folders (built elsewhere)');
          await buildPreview({ config: await loadConfig(), pr: parsePr(values.pr), baseRef: baseRef(), siteUrl, out: values.out });
        } else {
          dir = values.prebuilt;
        }
        const { meta, site } = readPreview(dir);
        const pr = values.pr ? parsePr(values.pr) : meta.pr;
        if (meta.pr !== pr) throw new UsageError(`preview:publish: ${dir} is the preview of #${meta.pr}, not #${pr}; nothing was published`);
        const expected = previewBasePath(pr, siteUrl);
        if (siteUrl && meta.basePath !== expected) {
          throw new UsageError(`preview:publish: ${dir} was built for ${meta.basePath}, but the preview of #${pr} is served at ${expected}; nothing was published`, {
            fix: `build with the same --site-url`,
          });
        }
        if (values['verify-head']) await assertPullHead(githubFromEnv(), pr, values['verify-head']);
        await publishPreview(site, { target, pr, endpoint: values.endpoint });
        console.log(`preview of #${pr} published${siteUrl ? `: ${previewUrl(pr, siteUrl)}/` : ` under ${meta.basePath}`}`);
        return 0;
      }
      case 'remove': {
        const { removePreview } = await publishing();
        await removePreview({ target: needTarget(), pr: parsePr(values.pr), endpoint: values.endpoint });
        return 0;
      }
      default:
        throw new UsageError(`preview: unknown command "${command ?? ''}"; use build, publish or remove\n\n${usage()}`);
    }
  } catch (err) {
    if (err instanceof SyncError) throw new UsageError(err.message);
    throw err;
  }
});
