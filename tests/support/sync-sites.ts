/**
 * Test helpers for the sync (not a test file itself): a small fake built site in a temp dir, a real
 * S3-compatible server (s3rver) on 127.0.0.1 with a free port, a fault-injecting HTTP proxy in front
 * of it (fail, drop or hang chosen requests, count what went over the wire), and a check that every
 * page at the target has the assets it links to.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { isHtml } from '../../src/sync/headers.ts';
import type { Target } from '../../src/sync/target.ts';

export const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

const created: string[] = [];

/** A new temp dir, removed by removeTempDirs() (each test file calls it in afterAll). */
export function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `sync-${label}-`));
  created.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Version 1 of the fake site: a home page, a nested page, a hashed script, a stylesheet, a favicon, pagefind bits. */
export function siteV1(): Record<string, string> {
  return {
    'index.html': '<!doctype html><link rel="stylesheet" href="/style.css"><script type="module" src="/_astro/app.abc123.js"></script><h1>Home v1</h1>',
    'docs/guide/index.html': '<!doctype html><script type="module" src="/_astro/app.abc123.js"></script><p>Guide v1</p>',
    '_astro/app.abc123.js': 'console.log("app v1");',
    'style.css': 'body { color: black; }',
    'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'pagefind/pagefind-entry.json': '{"version":"1.0"}',
    'pagefind/fragment/en_1.pf_fragment': 'fragment-1',
  };
}

/** Version 2: a new build — the script's hash changed (new file, old one gone), both pages point at it. */
export function siteV2(): Record<string, string> {
  const v1 = siteV1();
  delete v1['_astro/app.abc123.js'];
  return {
    ...v1,
    'index.html': '<!doctype html><link rel="stylesheet" href="/style.css"><script type="module" src="/_astro/app.def456.js"></script><h1>Home v2</h1>',
    'docs/guide/index.html': '<!doctype html><script type="module" src="/_astro/app.def456.js"></script><p>Guide v2</p>',
    '_astro/app.def456.js': 'console.log("app v2");',
    'style.css': 'body { color: navy; }',
  };
}

/** (Re)writes `dir` to hold exactly these files. */
export function writeSite(dir: string, files: Record<string, string>): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** Reads a whole target as path → text (bookkeeping files included). */
export async function snapshot(target: Target): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of await target.list()) out[path] = Buffer.from((await target.read(path))!).toString('utf8');
  return out;
}

/** The site paths of a snapshot (without the sync's bookkeeping files). */
export function sitePart(snap: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(snap).filter(([p]) => !p.startsWith('.sync-')));
}

/** Every root-relative `src`/`href` of every page at the target that does not exist there. */
export function brokenLinks(snap: Record<string, string>): string[] {
  const broken: string[] = [];
  for (const [path, text] of Object.entries(snap)) {
    if (!isHtml(path)) continue;
    for (const m of text.matchAll(/(?:src|href)="\/([^"]+)"/g)) if (!(m[1]! in snap)) broken.push(`${path} → /${m[1]}`);
  }
  return broken;
}

export interface S3Server {
  endpoint: string;
  port: number;
  bucket: string;
  client: S3Client;
  close(): Promise<void>;
}

/** A real S3-compatible server (s3rver) on 127.0.0.1, free port, empty bucket. */
export async function startS3(bucket = 'site-bucket'): Promise<S3Server> {
  const directory = tempDir('s3rver');
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = s3Client(endpoint);
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    endpoint,
    port,
    bucket,
    client,
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

export function s3Client(endpoint: string, credentials = S3_CREDENTIALS): S3Client {
  return new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials, maxAttempts: 1 });
}

export interface ProxiedRequest {
  method: string;
  /** URL path without the query string, e.g. `/site-bucket/prod/index.html`. */
  path: string;
}

/** What to do with one request: forward it, answer with an error status, drop the connection, or never answer. */
export type Fault = 'pass' | 'drop' | 'hang' | { status: number; code: string };

export interface FaultProxy {
  endpoint: string;
  /** Every request seen, in order. */
  requests: ProxiedRequest[];
  /** Decides each request's fate; default: pass. */
  fault: (req: ProxiedRequest) => Fault;
  /** Resolves when a request is hung. */
  hung: Promise<ProxiedRequest>;
  close(): Promise<void>;
}

/** An HTTP proxy on 127.0.0.1 in front of `upstreamPort`; headers (and so SigV4 signatures) pass through unchanged. */
export async function startProxy(upstreamPort: number): Promise<FaultProxy> {
  let onHung: (r: ProxiedRequest) => void = () => {};
  const hungRequests: IncomingMessage[] = [];
  const proxy: FaultProxy = {
    endpoint: '',
    requests: [],
    fault: () => 'pass',
    hung: new Promise((r) => {
      onHung = r;
    }),
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const info: ProxiedRequest = { method: req.method ?? 'GET', path: decodeURIComponent((req.url ?? '/').split('?')[0]!) };
    proxy.requests.push(info);
    const fault = proxy.fault(info);
    if (fault === 'drop') {
      req.socket.destroy();
      return;
    }
    if (fault === 'hang') {
      hungRequests.push(req);
      onHung(info);
      return;
    }
    if (typeof fault === 'object') {
      req.resume();
      res.writeHead(fault.status, { 'content-type': 'application/xml' });
      res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${fault.code}</Code><Message>injected by the test proxy</Message></Error>`);
      return;
    }
    const upstream = request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = async () => {
    for (const r of hungRequests) r.socket.destroy();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return proxy;
}

export interface Op {
  op: 'read' | 'write' | 'list' | 'remove';
  paths: string[];
}

/** Wraps a target, records every operation, and can fail chosen ones (`fail` returns the error to throw). */
export function recording(inner: Target, fail?: (op: Op, index: number) => Error | undefined): Target & { ops: Op[]; writes(): string[] } {
  const ops: Op[] = [];
  const run = async <T>(op: Op, f: () => Promise<T>): Promise<T> => {
    const error = fail?.(op, ops.length);
    ops.push(op);
    if (error) throw error;
    return f();
  };
  return {
    description: inner.description,
    ops,
    writes: () => ops.filter((o) => o.op === 'write').map((o) => o.paths[0]!),
    read: (path) => run({ op: 'read', paths: [path] }, () => inner.read(path)),
    write: (path, body, options) => run({ op: 'write', paths: [path] }, () => inner.write(path, body, options)),
    list: () => run({ op: 'list', paths: [] }, () => inner.list()),
    remove: (paths) => run({ op: 'remove', paths: [...paths] }, () => inner.remove(paths)),
  };
}
