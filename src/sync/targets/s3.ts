/**
 * The S3 target (`s3://<bucket>/<prefix>`): AWS S3 or any S3-compatible service (Cloudflare R2,
 * MinIO) through the AWS SDK — `--endpoint` for non-AWS, path-style addressing then. Credentials come
 * from the standard AWS environment variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, optional
 * AWS_SESSION_TOKEN; AWS_REGION, default us-east-1, `auto` for R2), else the SDK's default chain.
 *
 * Every key is `<prefix>/<path>`; listing asks only for `<prefix>/`, and deletion refuses any key
 * outside it, so nothing beside the prefix (`<prefix>-old/`, other sites) is ever touched. The SDK's
 * own retries are off (maxAttempts 1): the sync's retry.ts is the one policy.
 */
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SyncError } from '../errors.ts';
import type { PutOptions, Target } from '../target.ts';

export interface S3TargetOptions {
  bucket: string;
  /** Without leading or trailing slash; '' for the whole bucket. */
  prefix: string;
  endpoint?: string;
  /** A ready client (tests); otherwise one is made from the environment. */
  client?: S3Client;
}

export class S3Target implements Target {
  readonly bucket: string;
  readonly prefix: string;
  readonly description: string;
  readonly client: S3Client;
  private readonly endpoint: string | undefined;

  constructor(options: S3TargetOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.endpoint = options.endpoint;
    this.description = `s3://${this.bucket}/${this.prefix}${this.endpoint ? ` (endpoint ${this.endpoint})` : ''}`;
    this.client = options.client ?? makeClient(options.endpoint);
  }

  async read(path: string): Promise<Uint8Array | undefined> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(path) }));
      return res.Body ? await res.Body.transformToByteArray() : new Uint8Array();
    } catch (err) {
      const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (e.name === 'NoSuchKey' || (e.$metadata?.httpStatusCode === 404 && e.name !== 'NoSuchBucket')) return undefined;
      throw err;
    }
  }

  async write(path: string, body: Uint8Array, options: PutOptions): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.key(path),
        Body: body,
        ContentLength: body.byteLength,
        ContentType: options.contentType,
        CacheControl: options.cacheControl,
        Metadata: { sha256: options.sha256 },
      }),
    );
  }

  async list(): Promise<string[]> {
    const out: string[] = [];
    const keyPrefix = this.prefix ? `${this.prefix}/` : '';
    let token: string | undefined;
    do {
      const res = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: keyPrefix || undefined, ContinuationToken: token }));
      for (const object of res.Contents ?? []) {
        const key = object.Key ?? '';
        if (!key.startsWith(keyPrefix) || key.length === keyPrefix.length) continue;
        out.push(key.slice(keyPrefix.length));
      }
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
    return out.sort();
  }

  async remove(paths: readonly string[]): Promise<void> {
    const keys = paths.map((p) => this.key(p));
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const res = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const errors = res.Errors ?? [];
      if (errors.length > 0) {
        const first = errors[0]!;
        const err = new Error(`could not delete ${errors.length} object(s), first ${first.Key}: ${first.Code} ${first.Message ?? ''}`.trim());
        // Let retry.ts classify it like the service's own error code (InternalError, SlowDown, AccessDenied…).
        err.name = first.Code ?? 'DeleteError';
        throw err;
      }
    }
  }

  hint(error: unknown): string | undefined {
    const name = (error as { name?: unknown }).name;
    const where = `s3://${this.bucket}${this.endpoint ? ` at ${this.endpoint}` : ''}`;
    switch (name) {
      case 'CredentialsProviderError':
        return 'no AWS credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_REGION; `auto` for R2).';
      case 'NoSuchBucket':
        return `the bucket ${where} does not exist: create it, or fix the bucket in --target${this.endpoint ? '' : ' (for R2/MinIO pass --endpoint)'}.`;
      case 'InvalidAccessKeyId':
      case 'SignatureDoesNotMatch':
        return `the credentials were rejected by ${where}: check AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY${this.endpoint ? '' : ' (and --endpoint for non-AWS services)'}.`;
      case 'AccessDenied':
        return `access denied on ${where}: the key needs s3:GetObject, s3:PutObject, s3:ListBucket and s3:DeleteObject on ${this.prefix ? `${this.prefix}/*` : 'the bucket'}.`;
      case 'PermanentRedirect':
      case 'AuthorizationHeaderMalformed':
        return 'the bucket lives in another region: set AWS_REGION to its region.';
      default:
        return undefined;
    }
  }

  /** The object key of a relative site path; refuses anything that is not plainly inside the prefix. */
  private key(path: string): string {
    if (!path || path.startsWith('/') || path.split('/').some((s) => s === '' || s === '.' || s === '..')) {
      throw new SyncError(`sync: refusing path "${path}": not a plain relative path inside ${this.description}.`);
    }
    return this.prefix ? `${this.prefix}/${path}` : path;
  }
}

function makeClient(endpoint: string | undefined): S3Client {
  if (endpoint !== undefined && !/^https?:\/\/[^/]/.test(endpoint)) {
    throw new SyncError(`sync: --endpoint "${endpoint}" is not an http(s) URL; e.g. https://<account>.r2.cloudflarestorage.com`);
  }
  const env = process.env;
  const credentials =
    env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN || undefined }
      : undefined; // the SDK's default chain: AWS_PROFILE, SSO, web identity, instance roles
  return new S3Client({
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    ...(credentials ? { credentials } : {}),
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
  });
}
