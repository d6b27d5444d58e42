/**
 * The plan of a sync: compare the local manifest with what the target holds (its stored manifest,
 * the pending journal of an interrupted sync, its actual listing) and order the steps so production
 * never serves a page whose assets are missing:
 *
 *   1. hashed assets (`_astro/…`)   2. other files   3. HTML   4. the manifest   5. deletions (--prune)
 *
 * A file is uploaded when it is new, its content or headers changed, an interrupted sync may have
 * left other content there (pending journal), or the target does not actually have it. Deletions are
 * the target's files that are not in the new dist (never the sync's bookkeeping files); without
 * --prune they are only reported as stale. Pure: no I/O here.
 */
import { isHashedAsset, isHtml } from './headers.ts';
import { RESERVED_NAMES, sameManifest, type Manifest, type ManifestEntry } from './manifest.ts';

export type Phase = 'assets' | 'other' | 'html';
export const PHASES: readonly Phase[] = ['assets', 'other', 'html'];

export type UploadReason = 'new' | 'changed' | 'headers' | 'interrupted' | 'missing';

export interface Upload {
  path: string;
  entry: ManifestEntry;
  reason: UploadReason;
  phase: Phase;
}

export interface SyncPlan {
  /** In execution order: assets, other files, HTML; sorted by path within a phase. */
  uploads: Upload[];
  unchanged: string[];
  /** Target files not in the new dist. Deleted only with --prune. */
  stale: string[];
  prune: boolean;
  /** False only when the stored manifest already equals the local one and nothing is uploaded. */
  writeManifest: boolean;
}

export interface PlanInput {
  local: Manifest;
  /** The manifest stored at the target, if any (and readable). */
  remote: Manifest | undefined;
  /** Paths an interrupted sync may have overwritten; 'all' when the journal exists but is unreadable. */
  dirty: ReadonlySet<string> | 'all';
  /** What the target actually holds (relative paths). */
  listing: readonly string[];
  prune: boolean;
}

export function phaseOf(path: string): Phase {
  if (isHashedAsset(path)) return 'assets';
  if (isHtml(path)) return 'html';
  return 'other';
}

export function planSync(input: PlanInput): SyncPlan {
  const { local, remote, dirty, listing } = input;
  const present = new Set(listing);
  const uploads: Upload[] = [];
  const unchanged: string[] = [];
  for (const path of Object.keys(local.files).sort()) {
    const entry = local.files[path]!;
    const reason = uploadReason(path, entry, remote?.files[path], dirty, present);
    if (reason) uploads.push({ path, entry, reason, phase: phaseOf(path) });
    else unchanged.push(path);
  }
  uploads.sort((a, b) => PHASES.indexOf(a.phase) - PHASES.indexOf(b.phase) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const stale = listing.filter((p) => !(p in local.files) && !RESERVED_NAMES.includes(p)).sort();
  return { uploads, unchanged, stale, prune: input.prune, writeManifest: uploads.length > 0 || !sameManifest(local, remote) };
}

function uploadReason(
  path: string,
  entry: ManifestEntry,
  stored: ManifestEntry | undefined,
  dirty: ReadonlySet<string> | 'all',
  present: ReadonlySet<string>,
): UploadReason | undefined {
  if (!stored) return 'new';
  if (stored.sha256 !== entry.sha256 || stored.size !== entry.size) return 'changed';
  if (stored.contentType !== entry.contentType || stored.cacheControl !== entry.cacheControl) return 'headers';
  if (dirty === 'all' || dirty.has(path)) return 'interrupted';
  if (!present.has(path)) return 'missing';
  return undefined;
}

/** The deletions this plan will perform (none without --prune). */
export function deletions(plan: SyncPlan): string[] {
  return plan.prune ? plan.stale : [];
}

const REASON_TEXT: Record<UploadReason, string> = {
  new: 'new',
  changed: 'changed',
  headers: 'headers changed',
  interrupted: 'rewritten: an earlier sync was interrupted',
  missing: 'missing at target',
};

/**
 * The plan as printed before a sync (and as all a --dry-run does). Each path is printed once: a
 * dry run lists what would change (unchanged files only with `listUnchanged`, i.e. --verbose); a
 * real sync prints only the counts here, and each path as it is uploaded or deleted.
 */
export function formatPlan(plan: SyncPlan, options: { source: string; target: string; dryRun: boolean; listUnchanged?: boolean }): string {
  const lines: string[] = [];
  const del = deletions(plan);
  lines.push(`sync ${options.source} → ${options.target}${options.dryRun ? ' (dry run: nothing will be changed)' : ''}`);
  const byReason = new Map<UploadReason, number>();
  for (const u of plan.uploads) byReason.set(u.reason, (byReason.get(u.reason) ?? 0) + 1);
  const detail = [...byReason].map(([r, n]) => `${n} ${REASON_TEXT[r]}`).join(', ');
  lines.push(`  upload:    ${plan.uploads.length}${detail ? ` (${detail})` : ''}`);
  lines.push(`  unchanged: ${plan.unchanged.length}`);
  lines.push(`  delete:    ${del.length}${!plan.prune && plan.stale.length ? ` (${plan.stale.length} stale file(s) kept; pass --prune to delete them)` : ''}`);
  if (options.dryRun) {
    for (const phase of PHASES) {
      for (const u of plan.uploads.filter((x) => x.phase === phase)) lines.push(`  upload    ${u.path}  [${phase}, ${REASON_TEXT[u.reason]}]`);
    }
    if (options.listUnchanged) for (const p of plan.unchanged) lines.push(`  unchanged ${p}`);
    else if (plan.unchanged.length) lines.push(`  (${plan.unchanged.length} unchanged file(s) not listed; --verbose lists them)`);
    for (const p of del) lines.push(`  delete    ${p}`);
  }
  if (!plan.prune) for (const p of plan.stale) lines.push(`  stale     ${p}`);
  return lines.join('\n');
}
