/**
 * `npm run sync -- --target <target> [--dry-run [--verbose]] [--prune] [--endpoint <url>] [--dist <dir>]` —
 * publishes the built site (dist/) to production: a content-hash sync that uploads only what changed,
 * assets before pages, the manifest last, deletions (with --prune) at the very end. The logic is in
 * src/sync/; this only reads the arguments. Exit 0 on success, 1 with a clear message otherwise.
 * The target's previews/ folder (pull-request previews, src/preview/) is never listed or pruned.
 */
import { parseArgs } from 'node:util';
import { SyncError } from '../sync/errors.ts';
import { PREVIEWS_DIR } from '../preview/paths.ts';
import { syncSite } from '../sync/sync.ts';
import { openTarget, TARGET_FORMS } from '../sync/target.ts';
import { runMain, UsageError } from './config.ts';
import { runCommand, runCommandWithArgs } from '../project.ts';

const USAGE = `usage: ${runCommandWithArgs('sync')} --target <target> [--dry-run [--verbose]] [--prune] [--endpoint <url>] [--dist <dir>]

  --target    ${TARGET_FORMS}
  --dry-run   print the plan (what would be uploaded or deleted) and change nothing
  --verbose   with --dry-run, also list the unchanged files
  --prune     delete files at the target that are not in the new dist (after everything else succeeded)
  --endpoint  S3 endpoint for non-AWS services (Cloudflare R2, MinIO); empty means AWS
  --dist      the built site (default: dist)

The target's ${PREVIEWS_DIR}/ folder holds pull-request previews (${runCommand('preview:publish')}); a sync never
lists, prunes or overwrites it.

S3 credentials come from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (AWS_SESSION_TOKEN), AWS_REGION.`;

runMain(async () => {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        target: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        verbose: { type: 'boolean', default: false },
        prune: { type: 'boolean', default: false },
        endpoint: { type: 'string' },
        dist: { type: 'string', default: 'dist' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: false,
      strict: true,
    }));
  } catch (err) {
    throw new UsageError(`sync: ${(err as Error).message}\n\n${USAGE}`);
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.target) throw new UsageError(`sync: --target is required.\n\n${USAGE}`);
  try {
    const target = await openTarget(values.target, { endpoint: values.endpoint });
    await syncSite({ dist: values.dist, publicDir: 'public', target, dryRun: values['dry-run'], verbose: values.verbose, prune: values.prune, keep: [`${PREVIEWS_DIR}/`] });
  } catch (err) {
    if (err instanceof SyncError) throw new UsageError(err.message);
    throw err;
  }
  return 0;
});
