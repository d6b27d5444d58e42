/**
 * The manifest: one entry per file of the built site (sha256, size, Content-Type, Cache-Control),
 * keyed by its posix path relative to `dist/`. The sync compares the manifest of the local `dist/`
 * with the one stored at the target (`<prefix>/.sync-manifest.json`) to upload only what changed;
 * headers are part of an entry, so a change of cache policy re-uploads the file too.
 *
 * Also the pending journal (`<prefix>/.sync-pending.json`): the paths a sync is about to overwrite,
 * written before the first upload and removed after the manifest. A rerun after an interruption
 * treats those paths as dirty, because the target may hold content the stored manifest does not
 * describe.
 *
 * Reading `dist/` fails with a clear message when it is missing, empty or has no index.html.
 * A file the build copied from a symlink in public/ that resolves outside public/ (the build
 * follows links: `public/x -> /etc/passwd` becomes a plain dist/x) is left out of the manifest,
 * so it is never uploaded, and reported as skipped.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { SyncError } from './errors.ts';
import { cacheControlFor, contentTypeFor, knownContentType } from './headers.ts';

export const MANIFEST_NAME = '.sync-manifest.json';
export const PENDING_NAME = '.sync-pending.json';
/** Bookkeeping files the sync keeps at the target root; never uploaded from dist, never pruned. */
export const RESERVED_NAMES: readonly string[] = [MANIFEST_NAME, PENDING_NAME];

export interface ManifestEntry {
  sha256: string;
  size: number;
  contentType: string;
  cacheControl: string;
}

export interface Manifest {
  version: 1;
  /** Keyed by posix path relative to the site root, e.g. `docs/index.html`, `_astro/app.abc123.js`. */
  files: Record<string, ManifestEntry>;
}

export interface LocalSite {
  /** Absolute path of the dist directory. */
  dir: string;
  manifest: Manifest;
  /** Paths whose extension is not in the content-type map (uploaded as application/octet-stream). */
  unknownTypes: string[];
  /** Paths left out: copied from a symlink in public/ that resolves outside it (path → where it resolves). */
  skipped: { path: string; from: string; resolvesTo: string }[];
}

/**
 * The dist paths that came from `publicDir` through a symlink (of the file or of a folder above it)
 * resolving outside `publicDir`.
 */
export function linkedOutside(publicDir: string, paths: readonly string[]): LocalSite['skipped'] {
  if (!existsSync(publicDir)) return [];
  const root = realpathSync(publicDir);
  const out: LocalSite['skipped'] = [];
  for (const path of paths) {
    const candidate = join(publicDir, ...path.split('/'));
    let exists = false;
    try {
      lstatSync(candidate);
      exists = true;
    } catch {
      // not from public/, or a dangling link: the build could not have copied it
    }
    if (!exists) continue;
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      continue;
    }
    if (real !== root && !real.startsWith(root + sep)) out.push({ path, from: relative(process.cwd(), candidate) || candidate, resolvesTo: real });
  }
  return out;
}

export function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Walks `dist/`, hashing every file. Throws SyncError on a missing, empty or index-less dist. */
export function readLocalSite(distDir: string, publicDir?: string): LocalSite {
  const dir = resolve(distDir);
  const rerun = 'run `npm run build` first';
  if (!existsSync(dir)) throw new SyncError(`sync: ${distDir} not found (${dir}): ${rerun}.`);
  if (!statSync(dir).isDirectory()) throw new SyncError(`sync: ${distDir} is not a directory (${dir}).`);
  const paths = listFiles(dir);
  if (paths.length === 0) throw new SyncError(`sync: ${distDir} is empty (${dir}): ${rerun}; refusing to publish an empty site.`);
  if (!paths.includes('index.html')) {
    throw new SyncError(`sync: ${distDir} has no index.html (${dir}): the build did not finish or wrote elsewhere; ${rerun}.`);
  }
  for (const reserved of RESERVED_NAMES) {
    if (paths.includes(reserved)) throw new SyncError(`sync: ${distDir}/${reserved} is a name the sync reserves for its own bookkeeping; rename or remove it.`);
  }
  const files: Record<string, ManifestEntry> = {};
  const unknownTypes: string[] = [];
  const skipped = publicDir ? linkedOutside(publicDir, paths) : [];
  const skip = new Set(skipped.map((x) => x.path));
  for (const path of paths) {
    if (skip.has(path)) continue;
    const data = readFileSync(join(dir, path));
    files[path] = { sha256: sha256(data), size: data.length, contentType: contentTypeFor(path), cacheControl: cacheControlFor(path) };
    if (knownContentType(path) === undefined) unknownTypes.push(path);
  }
  return { dir, manifest: { version: 1, files }, unknownTypes, skipped };
}

/** Every regular file under `root`, as sorted posix paths relative to it. Symlinks are refused. */
export function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const abs = join(dir, entry.name);
      if (entry.isDirectory()) walk(abs);
      else if (entry.isFile()) out.push(relative(root, abs).split(sep).join('/'));
      else throw new SyncError(`sync: ${abs} is not a regular file or directory (symlink?); the site must consist of plain files.`);
    }
  };
  walk(root);
  return out.sort();
}

/** Stable JSON (sorted paths) so identical sites give byte-identical manifests. */
export function serializeManifest(manifest: Manifest): string {
  const files: Record<string, ManifestEntry> = {};
  for (const path of Object.keys(manifest.files).sort()) {
    const e = manifest.files[path]!;
    files[path] = { sha256: e.sha256, size: e.size, contentType: e.contentType, cacheControl: e.cacheControl };
  }
  return `${JSON.stringify({ version: 1, files }, null, 1)}\n`;
}

/**
 * Parses a stored manifest. Returns undefined when it is not a manifest this code wrote (corrupt,
 * foreign or a future version): the caller then treats the target as unknown and uploads everything,
 * which is always safe.
 */
export function parseManifest(text: string): Manifest | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(data) || data.version !== 1 || !isObject(data.files)) return undefined;
  const files: Record<string, ManifestEntry> = {};
  for (const [path, e] of Object.entries(data.files)) {
    if (!isObject(e) || typeof e.sha256 !== 'string' || typeof e.size !== 'number' || typeof e.contentType !== 'string' || typeof e.cacheControl !== 'string') return undefined;
    files[path] = { sha256: e.sha256, size: e.size, contentType: e.contentType, cacheControl: e.cacheControl };
  }
  return { version: 1, files };
}

export function sameManifest(a: Manifest, b: Manifest | undefined): boolean {
  return b !== undefined && serializeManifest(a) === serializeManifest(b);
}

export function serializePending(paths: Iterable<string>): string {
  return `${JSON.stringify({ version: 1, paths: [...new Set(paths)].sort() }, null, 1)}\n`;
}

/** The dirty paths of an interrupted sync; undefined if the journal is unreadable (then: all dirty). */
export function parsePending(text: string): string[] | undefined {
  try {
    const data: unknown = JSON.parse(text);
    if (isObject(data) && data.version === 1 && Array.isArray(data.paths) && data.paths.every((p) => typeof p === 'string')) return data.paths as string[];
  } catch {
    // fall through
  }
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
