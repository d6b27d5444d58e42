// The S3 target against a real S3-compatible server (s3rver on 127.0.0.1, free port) through the real
// AWS SDK over HTTP, with a fault-injecting proxy in between: the shared sync contract, headers read
// back, nothing touched outside the prefix, network failures mid-sync. (A killed `npm run sync`, a
// child process, is in cli.test.ts: the build project.)
import { HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dist, syncContract } from '../../tests/support/sync-contract.ts';
import { SyncError } from './errors.ts';
import { syncSite } from './sync.ts';
import { openTarget } from './target.ts';
import { S3Target } from './targets/s3.ts';
import { brokenLinks, removeTempDirs, s3Client, siteV1, siteV2, sitePart, snapshot, startProxy, startS3, type FaultProxy, type S3Server } from '../../tests/support/sync-sites.ts';

const ENV = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
const saved: Record<string, string | undefined> = {};
let s3: S3Server;
let proxy: FaultProxy;
let n = 0;

beforeAll(async () => {
  for (const [k, v] of Object.entries(ENV)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  s3 = await startS3();
  proxy = await startProxy(s3.port);
});
afterAll(async () => {
  await proxy?.close();
  await s3?.close();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  removeTempDirs();
});
afterEach(() => {
  proxy.fault = () => 'pass';
});

/** A fresh prefix; the target is made the way the CLI makes it (env credentials, --endpoint = the proxy). */
function freshSpec(): { spec: string; prefix: string } {
  const prefix = `run${++n}/site`;
  return { spec: `s3://${s3.bucket}/${prefix}`, prefix };
}
const fresh = () => openTarget(freshSpec().spec, { endpoint: proxy.endpoint });
const quiet = { log: () => {}, retry: { baseDelayMs: 1, maxDelayMs: 5, attempts: 3 } };

syncContract('an S3 bucket (s3rver over HTTP)', { fresh });

describe('S3 target', () => {
  it('stores each file with its content type, cache policy and sha256 metadata', async () => {
    const { spec, prefix } = freshSpec();
    const target = await openTarget(spec, { endpoint: proxy.endpoint });
    await syncSite({ ...quiet, dist: dist(siteV1()), target });
    const head = async (path: string) => {
      const h = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/${path}` }));
      return [h.ContentType, h.CacheControl];
    };
    expect(await head('index.html')).toEqual(['text/html; charset=utf-8', 'no-cache']);
    expect(await head('docs/guide/index.html')).toEqual(['text/html; charset=utf-8', 'no-cache']);
    expect(await head('_astro/app.abc123.js')).toEqual(['text/javascript; charset=utf-8', 'public, max-age=31536000, immutable']);
    expect(await head('style.css')).toEqual(['text/css; charset=utf-8', 'public, max-age=300']);
    expect(await head('favicon.svg')).toEqual(['image/svg+xml', 'public, max-age=300']);
    expect(await head('pagefind/pagefind-entry.json')).toEqual(['application/json', 'public, max-age=300']);
    expect(await head('pagefind/fragment/en_1.pf_fragment')).toEqual(['application/octet-stream', 'public, max-age=300']);
    expect(await head('.sync-manifest.json')).toEqual(['application/json', 'no-cache']);
    const h = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/index.html` }));
    expect(h.Metadata?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a resync of an unchanged site sends no PUT or DELETE over the wire', async () => {
    const target = await fresh();
    const d = dist(siteV1());
    await syncSite({ ...quiet, dist: d, target });
    const from = proxy.requests.length;
    await syncSite({ ...quiet, dist: d, target, prune: true });
    const sent = proxy.requests.slice(from);
    expect(sent.map((r) => r.method).sort()).toEqual(['GET', 'GET', 'GET']); // manifest, journal, listing
  });

  it('never lists or deletes anything outside the prefix', async () => {
    const { spec, prefix } = freshSpec();
    const base = prefix.slice(0, prefix.indexOf('/'));
    const neighbours = [`${base}/site-old/index.html`, `${base}/sitex`, `${base}/other/site/index.html`, `${base}/index.html`];
    for (const Key of neighbours) await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key, Body: 'not ours' }));
    const target = await openTarget(spec, { endpoint: proxy.endpoint });
    await syncSite({ ...quiet, dist: dist(siteV1()), target });
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/stale.html`, Body: 'stale' }));
    const result = await syncSite({ ...quiet, dist: dist(siteV2()), target, prune: true });
    expect(result.deleted).toEqual(['_astro/app.abc123.js', 'stale.html']);
    const all = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${base}/` }));
    const keys = (all.Contents ?? []).map((o) => o.Key!).sort();
    expect(keys.filter((k) => !k.startsWith(`${prefix}/`))).toEqual([...neighbours].sort());
    expect(keys.filter((k) => k.startsWith(`${prefix}/`)).map((k) => k.slice(prefix.length + 1))).toEqual(['.sync-manifest.json', ...Object.keys(siteV2()).sort()]);
    await expect(new S3Target({ bucket: s3.bucket, prefix, client: s3.client }).remove(['../site-old/index.html'])).rejects.toThrow(SyncError);
  });

  it('retries dropped connections and 503s transparently', async () => {
    const target = await fresh();
    const faults = new Map<string, number>();
    proxy.fault = (r) => {
      if (r.method !== 'PUT') return 'pass';
      const seen = (faults.get(r.path) ?? 0) + 1;
      faults.set(r.path, seen);
      if (seen > 1) return 'pass';
      if (r.path.endsWith('/style.css')) return 'drop';
      if (r.path.endsWith('/index.html')) return { status: 503, code: 'SlowDown' };
      return 'pass';
    };
    const lines: string[] = [];
    const result = await syncSite({ ...quiet, dist: dist(siteV1()), target, log: (l) => lines.push(l) });
    expect(result.uploaded).toHaveLength(Object.keys(siteV1()).length);
    expect(lines.filter((l) => l.includes('retry:'))).toHaveLength(3); // style.css, index.html, docs/guide/index.html
    expect(sitePart(await snapshot(target))).toEqual(siteV1());
  });

  it('an injected server failure mid-sync leaves production whole; a rerun converges', async () => {
    const { spec, prefix } = freshSpec();
    const target = await openTarget(spec, { endpoint: proxy.endpoint });
    const direct = new S3Target({ bucket: s3.bucket, prefix, client: s3.client }); // reads bypass the proxy
    await syncSite({ ...quiet, dist: dist(siteV1()), target });
    const v1 = await snapshot(direct);
    let puts = 0;
    proxy.fault = (r) => (r.method === 'PUT' && ++puts > 3 ? { status: 500, code: 'InternalError' } : 'pass');
    const d2 = dist(siteV2());
    const err = await syncSite({ ...quiet, dist: d2, target, prune: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SyncError);
    expect((err as Error).message).toMatch(/uploading .* failed after 3 attempts: InternalError: injected by the test proxy \(HTTP 500\)/);

    const between = await snapshot(direct);
    expect(between['.sync-manifest.json']).toBe(v1['.sync-manifest.json']);
    expect(between['index.html']).toBe(siteV1()['index.html']);
    expect(brokenLinks(between)).toEqual([]);
    expect(between['.sync-pending.json']).toBeDefined();

    proxy.fault = () => 'pass';
    await syncSite({ ...quiet, dist: d2, target, prune: true });
    expect((await direct.list()).filter((p) => p.startsWith('.sync-'))).toEqual(['.sync-manifest.json']);
    expect(sitePart(await snapshot(direct))).toEqual(siteV2());
    expect(await direct.read('.sync-pending.json')).toBeUndefined();
  });

  it('fails fast and clearly on a missing bucket or rejected credentials', async () => {
    const from = proxy.requests.length;
    const missing = await openTarget('s3://no-such-bucket/site', { endpoint: proxy.endpoint });
    await expect(syncSite({ ...quiet, dist: dist(siteV1()), target: missing })).rejects.toThrow(
      /NoSuchBucket[\s\S]*hint: the bucket s3:\/\/no-such-bucket at http:\/\/127\.0\.0\.1:\d+ does not exist/,
    );
    expect(proxy.requests.length - from).toBe(1); // not retried

    const wrongKey = new S3Target({
      bucket: s3.bucket,
      prefix: 'x',
      endpoint: proxy.endpoint,
      client: s3Client(proxy.endpoint, { accessKeyId: 'WRONG', secretAccessKey: 'WRONG' }),
    });
    await expect(syncSite({ ...quiet, dist: dist(siteV1()), target: wrongKey })).rejects.toThrow(/hint: the credentials were rejected/);
  });
});
