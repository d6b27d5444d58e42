/**
 * Where the site is synced to, behind one small interface: a local directory (`dir:<path>`, what the
 * tests use) or an S3-compatible bucket (`s3://<bucket>/<prefix>`: AWS S3, Cloudflare R2, MinIO).
 * Paths given to and returned by a target are always relative to its root/prefix; a target never
 * reads, writes, lists or deletes anything outside it.
 */
import { SyncError } from './errors.ts';
import { DirTarget } from './targets/dir.ts';

export interface PutOptions {
  contentType: string;
  cacheControl: string;
  /** sha256 of the body, stored as object metadata where the target supports it. */
  sha256: string;
}

export interface Target {
  /** For messages: `dir:/abs/path` or `s3://bucket/prefix`. */
  readonly description: string;
  /** The file at `path`, or undefined when there is none. */
  read(path: string): Promise<Uint8Array | undefined>;
  /** Creates or replaces the file at `path`, atomically: readers see the old or the new body, never a part. */
  write(path: string, body: Uint8Array, options: PutOptions): Promise<void>;
  /** Every file under the root/prefix, as relative paths. */
  list(): Promise<string[]>;
  /** Deletes these files (missing ones are fine). */
  remove(paths: readonly string[]): Promise<void>;
  /** A hint for a failure of this target (e.g. which credentials are missing), if there is one. */
  hint?(error: unknown): string | undefined;
}

export type TargetSpec = { kind: 'dir'; path: string } | { kind: 's3'; bucket: string; prefix: string };

export const TARGET_FORMS = '`dir:<path>` or `s3://<bucket>/<prefix>`';

/** Parses `--target`. The prefix loses leading/trailing slashes; `.`/`..`/empty segments are refused. */
export function parseTargetSpec(spec: string): TargetSpec {
  if (spec.startsWith('dir:')) {
    const path = spec.slice(4);
    if (!path) throw new SyncError(`sync: --target dir: needs a path, e.g. dir:./out`);
    return { kind: 'dir', path };
  }
  if (spec.startsWith('s3://')) {
    const rest = spec.slice(5);
    const slash = rest.indexOf('/');
    const bucket = slash < 0 ? rest : rest.slice(0, slash);
    const prefix = (slash < 0 ? '' : rest.slice(slash + 1)).replace(/^\/+|\/+$/g, '');
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
      throw new SyncError(`sync: "${bucket}" in --target ${spec} is not a valid bucket name (3-63 characters: lower-case letters, digits, dots, hyphens).`);
    }
    if (prefix !== '' && prefix.split('/').some((s) => s === '' || s === '.' || s === '..')) {
      throw new SyncError(`sync: the prefix "${prefix}" in --target ${spec} has an empty, "." or ".." segment; write it like s3://${bucket}/site/prod.`);
    }
    return { kind: 's3', bucket, prefix };
  }
  throw new SyncError(`sync: --target "${spec}" is not a target; use ${TARGET_FORMS}.`);
}

export interface OpenTargetOptions {
  /** S3 endpoint for non-AWS services (R2, MinIO); empty means AWS. */
  endpoint?: string;
}

/** Opens a `--target`; the AWS SDK is loaded only for s3:// targets. */
export async function openTarget(spec: string, options: OpenTargetOptions = {}): Promise<Target> {
  const parsed = parseTargetSpec(spec);
  if (parsed.kind === 'dir') {
    if (options.endpoint) throw new SyncError(`sync: --endpoint is for s3:// targets, not ${spec}.`);
    return new DirTarget(parsed.path);
  }
  const { S3Target } = await import('./targets/s3.ts');
  return new S3Target({ bucket: parsed.bucket, prefix: parsed.prefix, endpoint: options.endpoint || undefined });
}
