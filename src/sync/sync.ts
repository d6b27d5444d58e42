/**
 * One sync of the built site to a target, in an order that keeps production whole at every moment:
 *
 *   read dist/ → read the target's manifest, pending journal and listing → plan → (dry run: stop)
 *   → write the pending journal → upload assets → other files → HTML → write the manifest
 *   → remove the journal → delete stale files (--prune only)
 *
 * Why it converges after an interruption (killed process, network failure): the manifest is written
 * only after every upload succeeded, and every path about to be overwritten is recorded in the
 * pending journal first. A rerun therefore re-uploads whatever changed since the last complete sync
 * plus whatever an interrupted one may have touched, and --prune works from the target's actual
 * listing, so files an interrupted sync uploaded but the new dist no longer has are removed too.
 * Until the new HTML goes up, the old pages keep their old assets (nothing is deleted before the end).
 */
import pLimit from 'p-limit';
import { readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { unfinishedBuild } from './build-stamp.ts';
import { SyncError } from './errors.ts';
import { CACHE_NONE } from './headers.ts';
import { MANIFEST_NAME, PENDING_NAME, RESERVED_NAMES, parseManifest, parsePending, readLocalSite, serializeManifest, serializePending, sha256 } from './manifest.ts';
import { deletions, formatPlan, PHASES, planSync, type SyncPlan, type Upload } from './plan.ts';
import { messageOf, RetryExhaustedError, withRetry, type RetryOptions } from './retry.ts';
import type { Target } from './target.ts';
import { DirTarget } from './targets/dir.ts';
import { runCommand, runCommandWithArgs } from '../project.ts';

export interface SyncOptions {
  /** The built site, usually `dist`. */
  dist: string;
  /** The project's public/ folder: dist files copied from symlinks in it that resolve outside it are never uploaded. */
  publicDir?: string;
  target: Target;
  dryRun?: boolean;
  /** A dry run also lists the unchanged files. */
  verbose?: boolean;
  prune?: boolean;
  retry?: Partial<RetryOptions>;
  /**
   * Folders at the target that belong to someone else (e.g. `previews/`, where pull-request previews
   * live under production): never listed, so never pruned, journalled or counted as foreign files.
   * The site itself must not have files there.
   */
  keep?: readonly string[];
  /** Parallel uploads within one phase (phases never overlap). Default 8. */
  concurrency?: number;
  log?: (line: string) => void;
}

export interface SyncResult {
  plan: SyncPlan;
  dryRun: boolean;
  uploaded: string[];
  deleted: string[];
  manifestWritten: boolean;
}

const JSON_TYPE = 'application/json';

export async function syncSite(options: SyncOptions): Promise<SyncResult> {
  const { target } = options;
  const log = options.log ?? ((line: string) => console.log(line));
  const retry: Partial<RetryOptions> = {
    ...options.retry,
    onRetry: (info) => {
      log(`  retry: ${info.what} failed (${messageOf(info.error)}); attempt ${info.attempt + 1} in ${info.delayMs} ms`);
      options.retry?.onRetry?.(info);
    },
  };
  const unfinished = unfinishedBuild(options.dist);
  if (unfinished) throw new SyncError(unfinished);
  const site = readLocalSite(options.dist, options.publicDir);
  for (const x of site.skipped) {
    log(
      `skipped ${x.path}: it was copied from ${x.from}, a symlink resolving outside public/ (to ${x.resolvesTo}) — never uploaded; remove the link or copy the file into public/`,
    );
  }
  if (target instanceof DirTarget) assertSeparate(site.dir, target.root);
  if (site.unknownTypes.length) {
    log(`warning: no content type known for ${site.unknownTypes.join(', ')}; uploaded as application/octet-stream (add the extension to src/sync/headers.ts)`);
  }

  // What the target holds now.
  const attempt = <T>(what: string, op: () => Promise<T>, after: string): Promise<T> => attemptStep(target, what, op, retry, after);
  const beforeAnyChange = 'Nothing was changed.';
  const storedBytes = await attempt(`reading ${MANIFEST_NAME} from ${target.description}`, () => target.read(MANIFEST_NAME), beforeAnyChange);
  const remote = storedBytes && parseManifest(Buffer.from(storedBytes).toString('utf8'));
  if (storedBytes && !remote) log(`warning: ${MANIFEST_NAME} at ${target.description} is unreadable; every file will be uploaded`);
  const pendingBytes = await attempt(`reading ${PENDING_NAME} from ${target.description}`, () => target.read(PENDING_NAME), beforeAnyChange);
  const pendingPaths = pendingBytes ? parsePending(Buffer.from(pendingBytes).toString('utf8')) : [];
  if (pendingBytes) log(`note: an earlier sync to ${target.description} did not finish; the files it may have touched are uploaded again`);
  const keep = (options.keep ?? []).map((k) => k.replace(/\/*$/, '/'));
  const kept = (p: string): boolean => keep.some((k) => p.startsWith(k));
  const clash = Object.keys(site.manifest.files).find(kept);
  if (clash)
    throw new SyncError(
      `sync: ${options.dist} has ${clash}, inside ${keep.find((k) => clash.startsWith(k))}, which the target keeps for something else (pull-request previews); rename that page.`,
    );
  const listing = (await attempt(`listing ${target.description}`, () => target.list(), beforeAnyChange)).filter((p) => !kept(p));

  const prune = options.prune ?? false;
  const foreign = listing.filter((p) => !RESERVED_NAMES.includes(p));
  if (prune && !storedBytes && !pendingBytes && foreign.length > 0) {
    throw new SyncError(
      `sync: --prune refused: ${target.description} holds ${foreign.length} file(s) (e.g. ${foreign[0]}) but no ${MANIFEST_NAME}, so it was never synced by this tool ` +
        `and pruning could delete files that are not the site's. Check the target; if it is right, run once without --prune (that adopts it), then with --prune.`,
    );
  }

  const dirty = pendingPaths === undefined ? ('all' as const) : new Set(pendingPaths);
  const plan = planSync({ local: site.manifest, remote, dirty, listing, prune });
  const dryRun = options.dryRun ?? false;
  log(formatPlan(plan, { source: options.dist, target: target.description, dryRun, listUnchanged: options.verbose ?? false }));
  const result: SyncResult = { plan, dryRun, uploaded: [], deleted: [], manifestWritten: false };
  if (dryRun) return result;

  // 1. Journal the paths about to change (with those of any earlier unfinished sync).
  const interrupted = `The stored manifest was not updated and the pages already live still have their assets; rerun \`${runCommand('sync')}\` to finish.`;
  let journal = false;
  if (plan.uploads.length > 0) {
    const paths = new Set<string>(plan.uploads.map((u) => u.path));
    if (pendingPaths === undefined) for (const p of [...listing, ...Object.keys(remote?.files ?? {})]) paths.add(p);
    else for (const p of pendingPaths) paths.add(p);
    const body = Buffer.from(serializePending(paths));
    await attempt(`writing ${PENDING_NAME}`, () => target.write(PENDING_NAME, body, { contentType: JSON_TYPE, cacheControl: CACHE_NONE, sha256: sha256(body) }), beforeAnyChange);
    journal = true;
  }

  // 2-4. Upload: hashed assets, then other files, then HTML, each phase complete before the next.
  for (const phase of PHASES) {
    const batch = plan.uploads.filter((u) => u.phase === phase);
    await runLimited(batch, options.concurrency ?? 8, async (u) => {
      await upload(u);
      result.uploaded.push(u.path);
    });
  }

  // 5. The manifest, last: from now on the target is described by the new dist.
  if (plan.writeManifest) {
    const body = Buffer.from(serializeManifest(site.manifest));
    await attempt(`writing ${MANIFEST_NAME}`, () => target.write(MANIFEST_NAME, body, { contentType: JSON_TYPE, cacheControl: CACHE_NONE, sha256: sha256(body) }), interrupted);
    result.manifestWritten = true;
  }
  const published = `The new site is fully published; rerun \`${runCommandWithArgs('sync')} --prune\` to finish.`;
  if (journal || pendingBytes) {
    await attempt(`removing ${PENDING_NAME}`, () => target.remove([PENDING_NAME]), published);
  }

  // 6. Deletions, only with --prune and only now that everything else succeeded.
  const toDelete = deletions(plan);
  if (toDelete.length > 0) {
    await attempt(`deleting ${toDelete.length} stale file(s) from ${target.description}`, () => target.remove(toDelete), published);
    result.deleted = toDelete;
    for (const p of toDelete) log(`  deleted   ${p}`);
  }
  log(
    `done: uploaded ${result.uploaded.length}, deleted ${result.deleted.length}, ${plan.unchanged.length} unchanged${result.manifestWritten ? '' : ' (manifest already current)'}`,
  );
  return result;

  async function upload(u: Upload): Promise<void> {
    const body = readFileSync(join(site.dir, u.path));
    if (sha256(body) !== u.entry.sha256) {
      throw new SyncError(`sync: ${u.path} changed in ${options.dist} while syncing; rebuild and rerun. ${interrupted}`);
    }
    await attempt(
      `uploading ${u.path}`,
      () => target.write(u.path, body, { contentType: u.entry.contentType, cacheControl: u.entry.cacheControl, sha256: u.entry.sha256 }),
      interrupted,
    );
    log(`  uploaded  ${u.path}`);
  }
}

/** One target operation with retries; a final failure becomes a SyncError saying what state it left. */
async function attemptStep<T>(target: Target, what: string, op: () => Promise<T>, retry: Partial<RetryOptions>, after: string): Promise<T> {
  try {
    return await withRetry(what, op, retry);
  } catch (err) {
    const cause = err instanceof RetryExhaustedError ? err.cause : err;
    if (cause instanceof SyncError) throw cause;
    const hint = target.hint?.(cause);
    throw new SyncError(`sync: ${err instanceof Error ? err.message : String(err)}${hint ? `\n  hint: ${hint}` : ''}\n  ${after}`, { cause });
  }
}

/** Runs `fn` over `items`, at most `limit` at a time (p-limit); after the first failure the rest are skipped, the running ones awaited, the failure rethrown. */
export async function runLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  const run = pLimit(Math.max(1, limit));
  let failure: { error: unknown } | undefined;
  await Promise.all(
    items.map((item) =>
      run(async () => {
        if (failure) return;
        try {
          await fn(item);
        } catch (error) {
          failure ??= { error };
        }
      }),
    ),
  );
  if (failure) throw failure.error;
}

/** A directory target must not be, contain or sit inside the dist it publishes. */
function assertSeparate(dist: string, root: string): void {
  const inside = (a: string, b: string) => a === b || a.startsWith(b + sep);
  if (inside(root, dist) || inside(dist, root)) {
    throw new SyncError(`sync: the target directory ${root} overlaps the site ${dist}; pick a directory outside it (and not one of its parents).`);
  }
}
