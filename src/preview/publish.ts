/**
 * Publishing and removing a pull request's preview at `<target>/previews/pr-<N>/`, with the same
 * content-hash sync as production (only changed files go up, assets before pages, --prune at the
 * end so a second push leaves no stale files). Removal lists exactly that folder and deletes what it
 * holds: the S3 target lists only keys under `<prefix>/previews/pr-<N>/` (the trailing slash keeps
 * pr-1 from matching pr-10), the directory target only files inside its root.
 */
import { readdirSync, rmdirSync } from 'node:fs';
import { syncSite, type SyncResult } from '../sync/sync.ts';
import { openTarget, type Target } from '../sync/target.ts';
import { DirTarget } from '../sync/targets/dir.ts';
import { withRetry, type RetryOptions } from '../sync/retry.ts';
import { SyncError } from '../sync/errors.ts';
import { previewTarget } from './paths.ts';

export interface PreviewTargetOptions {
  /** The production `--target` (`s3://bucket/prefix` or `dir:<path>`). */
  target: string;
  pr: number;
  endpoint?: string;
  log?: (line: string) => void;
  retry?: Partial<RetryOptions>;
  /** A ready target for the preview folder (tests); otherwise opened from `target`. */
  open?: (spec: string) => Promise<Target>;
}

function open(options: PreviewTargetOptions): Promise<Target> {
  const spec = previewTarget(options.target, options.pr);
  return options.open ? options.open(spec) : openTarget(spec, { endpoint: options.endpoint });
}

/** Syncs a built preview site (`site`: the folder with index.html) to the preview folder, pruning stale files. */
export async function publishPreview(site: string, options: PreviewTargetOptions): Promise<SyncResult> {
  const target = await open(options);
  return syncSite({ dist: site, target, prune: true, log: options.log, retry: options.retry });
}

/** Deletes every file in the preview folder, and nothing else. Returns the deleted paths. */
export async function removePreview(options: PreviewTargetOptions): Promise<string[]> {
  const log = options.log ?? ((l: string) => console.log(l));
  const target = await open(options);
  const run = async <T>(what: string, op: () => Promise<T>): Promise<T> => {
    try {
      return await withRetry(what, op, options.retry);
    } catch (err) {
      const hint = target.hint?.((err as { cause?: unknown }).cause ?? err);
      throw new SyncError(`preview:remove: ${(err as Error).message}${hint ? `\n  hint: ${hint}` : ''}\n  Rerun the same command to finish.`);
    }
  };
  const paths = await run(`listing ${target.description}`, () => target.list());
  if (paths.length) await run(`deleting ${paths.length} file(s) from ${target.description}`, () => target.remove(paths));
  if (target instanceof DirTarget) {
    try {
      if (readdirSync(target.root).length === 0) rmdirSync(target.root);
    } catch {
      /* already gone */
    }
  }
  log(
    paths.length
      ? `removed the preview of #${options.pr}: ${paths.length} file(s) deleted from ${target.description}`
      : `no preview of #${options.pr} at ${target.description}; nothing to remove`,
  );
  return paths;
}
