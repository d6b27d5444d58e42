// Publishing and removing previews, against a directory target and a real S3-compatible server
// (s3rver over HTTP, the AWS SDK as the CLI uses it): a preview lands in previews/pr-N/ only, a
// second publish sends only what changed and prunes what is gone, removal deletes that folder and
// nothing else (not pr-70, not production), and a production sync with --prune leaves previews alone.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dist } from '../../tests/support/sync-contract.ts';
import { SyncError } from '../sync/errors.ts';
import { syncSite } from '../sync/sync.ts';
import { openTarget, type Target } from '../sync/target.ts';
import { removeTempDirs, siteV1, siteV2, sitePart, snapshot, startS3, tempDir, type S3Server } from '../../tests/support/sync-sites.ts';
import { PREVIEWS_DIR } from './paths.ts';
import { publishPreview, removePreview } from './publish.ts';

const ENV = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
const saved: Record<string, string | undefined> = {};
let s3: S3Server;
let n = 0;
const quiet = { log: () => {}, retry: { baseDelayMs: 1, maxDelayMs: 5, attempts: 3 } };

beforeAll(async () => {
  for (const [k, v] of Object.entries(ENV)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.close();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  removeTempDirs();
});

interface Kind {
  name: string;
  /** A fresh production target spec, and how to open any spec the way the CLI does. */
  fresh(): string;
  open(spec: string): Promise<Target>;
}

const kinds: Kind[] = [
  { name: 'a directory', fresh: () => `dir:${join(tempDir('preview'), 'www')}`, open: (spec) => openTarget(spec) },
  { name: 'an S3 bucket (s3rver)', fresh: () => `s3://${s3.bucket}/run${++n}/site`, open: (spec) => openTarget(spec, { endpoint: s3.endpoint }) },
];

for (const kind of kinds) {
  describe(`previews on ${kind.name}`, () => {
    const opts = (target: string, pr: number) => ({ ...quiet, target, pr, open: (spec: string) => kind.open(spec) });

    it('publishes into previews/pr-N only; a second publish sends only changes and prunes what is gone', async () => {
      const target = kind.fresh();
      const first = await publishPreview(dist(siteV1()), opts(target, 7));
      expect(first.uploaded.sort()).toEqual(Object.keys(siteV1()).sort());
      const all = await snapshot(await kind.open(target));
      expect(Object.keys(sitePart(all)).every((p) => p.startsWith('previews/pr-7/'))).toBe(true);
      expect(Object.keys(all)).toContain('previews/pr-7/.sync-manifest.json');

      const second = await publishPreview(dist(siteV2()), opts(target, 7));
      expect(second.uploaded.sort()).toEqual(['_astro/app.def456.js', 'docs/guide/index.html', 'index.html', 'style.css']);
      expect(second.deleted).toEqual(['_astro/app.abc123.js']);
      expect(sitePart(await snapshot(await kind.open(`${target}/previews/pr-7`)))).toEqual(siteV2());
    });

    it('removing a preview deletes exactly its folder: not pr-70, not production', async () => {
      const target = kind.fresh();
      await syncSite({ ...quiet, dist: dist(siteV1()), target: await kind.open(target), keep: [`${PREVIEWS_DIR}/`] });
      await publishPreview(dist(siteV1()), opts(target, 7));
      await publishPreview(dist(siteV2()), opts(target, 70));
      const before = await snapshot(await kind.open(target));
      const lines: string[] = [];
      const deleted = await removePreview({ ...opts(target, 7), log: (l) => lines.push(l) });
      expect(deleted.sort()).toEqual([...Object.keys(siteV1()), '.sync-manifest.json'].sort());
      const after = await snapshot(await kind.open(target));
      expect(after).toEqual(Object.fromEntries(Object.entries(before).filter(([p]) => !p.startsWith('previews/pr-7/'))));
      expect(Object.keys(after).filter((p) => p.startsWith('previews/pr-70/'))).toHaveLength(Object.keys(siteV2()).length + 1);
      expect(lines[0]).toMatch(/^removed the preview of #7: 8 file\(s\) deleted from /);
      if (target.startsWith('dir:')) expect(existsSync(join(target.slice(4), 'previews/pr-7'))).toBe(false);

      // Removing again is not an error: there is nothing left.
      lines.length = 0;
      expect(await removePreview({ ...opts(target, 7), log: (l) => lines.push(l) })).toEqual([]);
      expect(lines[0]).toMatch(/^no preview of #7 at .*; nothing to remove$/);
    });

    it('a production sync with --prune keeps previews/, and refuses a site that has a previews/ folder', async () => {
      const target = kind.fresh();
      await publishPreview(dist(siteV1()), opts(target, 3));
      const prod = await kind.open(target);
      // The first production sync of a prefix holding only previews is not "foreign files": --prune is allowed.
      const r = await syncSite({ ...quiet, dist: dist(siteV2()), target: prod, prune: true, keep: [`${PREVIEWS_DIR}/`] });
      expect(r.deleted).toEqual([]);
      const after = await snapshot(prod);
      expect(Object.keys(after).filter((p) => p.startsWith('previews/pr-3/'))).toHaveLength(Object.keys(siteV1()).length + 1);
      expect(sitePart(Object.fromEntries(Object.entries(after).filter(([p]) => !p.startsWith('previews/'))))).toEqual(siteV2());

      // Without `keep`, the same sync would prune the preview (what the CLI's keep: previews/ prevents).
      const risky = await syncSite({ ...quiet, dist: dist(siteV2()), target: prod, prune: true, dryRun: true });
      expect(risky.plan.stale).toContain('previews/pr-3/index.html');

      const clash = await syncSite({ ...quiet, dist: dist({ ...siteV2(), 'previews/x.html': 'x' }), target: prod, keep: [`${PREVIEWS_DIR}/`] }).catch((e: unknown) => e);
      expect(clash).toBeInstanceOf(SyncError);
      expect((clash as Error).message).toMatch(/has previews\/x\.html, inside previews\/, which the target keeps for something else/);
    });
  });
}
