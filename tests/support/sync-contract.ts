/**
 * The sync cases every target must pass, as one vitest suite that sync-dir.test.ts and
 * sync-s3.test.ts both run (so the directory and the S3 target are held to exactly the same
 * behaviour): first sync, no-op resync, one changed page, prune, dry run, step order, and
 * convergence after a failure halfway — with production whole at every point in between.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SyncError } from '../../src/sync/errors.ts';
import { syncSite, type SyncOptions } from '../../src/sync/sync.ts';
import type { Target } from '../../src/sync/target.ts';
import { brokenLinks, recording, siteV1, siteV2, sitePart, snapshot, tempDir, writeSite } from './sync-sites.ts';

export interface ContractTarget {
  /** A fresh, empty target (a new directory or a new prefix). */
  fresh(): Promise<Target>;
}

const quiet = { log: () => {}, retry: { baseDelayMs: 1, maxDelayMs: 5, attempts: 3 } } satisfies Partial<SyncOptions>;

/** A fresh dist folder holding these files. */
export function dist(files: Record<string, string>): string {
  return writeSite(join(tempDir('dist'), 'dist'), files);
}

export function syncContract(name: string, t: ContractTarget): void {
  describe(`sync to ${name}`, () => {
    it('first sync uploads everything; an immediate second uploads (and writes) nothing', async () => {
      const target = await t.fresh();
      const d = dist(siteV1());
      const first = await syncSite({ ...quiet, dist: d, target });
      expect(first.uploaded.sort()).toEqual(Object.keys(siteV1()).sort());
      expect(first.manifestWritten).toBe(true);
      expect(sitePart(await snapshot(target))).toEqual(siteV1());

      const spy = recording(target);
      const second = await syncSite({ ...quiet, dist: d, target: spy });
      expect(second.uploaded).toEqual([]);
      expect(second.plan.unchanged).toHaveLength(Object.keys(siteV1()).length);
      expect(second.manifestWritten).toBe(false);
      expect(spy.ops.filter((o) => o.op === 'write' || o.op === 'remove')).toEqual([]);
    });

    it('one changed page uploads exactly that file', async () => {
      const target = await t.fresh();
      await syncSite({ ...quiet, dist: dist(siteV1()), target });
      const changed = { ...siteV1(), 'docs/guide/index.html': siteV1()['docs/guide/index.html']!.replace('v1', 'v1.1') };
      const spy = recording(target);
      const result = await syncSite({ ...quiet, dist: dist(changed), target: spy });
      expect(result.uploaded).toEqual(['docs/guide/index.html']);
      expect(spy.writes()).toEqual(['.sync-pending.json', 'docs/guide/index.html', '.sync-manifest.json']);
      expect(sitePart(await snapshot(target))).toEqual(changed);
    });

    it('--prune removes stale files; without it they stay', async () => {
      const target = await t.fresh();
      await syncSite({ ...quiet, dist: dist(siteV1()), target });
      const d2 = dist(siteV2());
      const kept = await syncSite({ ...quiet, dist: d2, target });
      expect(kept.deleted).toEqual([]);
      expect(kept.plan.stale).toEqual(['_astro/app.abc123.js']);
      expect(sitePart(await snapshot(target))).toEqual({ ...siteV2(), '_astro/app.abc123.js': siteV1()['_astro/app.abc123.js'] });

      const pruned = await syncSite({ ...quiet, dist: d2, target, prune: true });
      expect(pruned.uploaded).toEqual([]);
      expect(pruned.deleted).toEqual(['_astro/app.abc123.js']);
      expect(sitePart(await snapshot(target))).toEqual(siteV2());
    });

    it('--dry-run prints the plan and changes nothing', async () => {
      const target = await t.fresh();
      const lines: string[] = [];
      const empty = await syncSite({ ...quiet, dist: dist(siteV1()), target, dryRun: true, log: (l) => lines.push(l) });
      expect(empty.plan.uploads).toHaveLength(Object.keys(siteV1()).length);
      expect(await target.list()).toEqual([]);

      await syncSite({ ...quiet, dist: dist(siteV1()), target });
      const before = await snapshot(target);
      lines.length = 0;
      const spy = recording(target);
      const dry = await syncSite({ ...quiet, dist: dist(siteV2()), target: spy, dryRun: true, prune: true, log: (l) => lines.push(l) });
      expect(spy.ops.filter((o) => o.op === 'write' || o.op === 'remove')).toEqual([]);
      expect(await snapshot(target)).toEqual(before);
      expect(dry.uploaded).toEqual([]);
      expect(dry.deleted).toEqual([]);
      const text = lines.join('\n');
      expect(text).toContain('(dry run: nothing will be changed)');
      expect(text).toContain('upload:    4 (1 new, 3 changed)');
      expect(text).toContain('unchanged: 3');
      expect(text).toContain('delete:    1');
      expect(text).toContain('upload    _astro/app.def456.js  [assets, new]');
      expect(text).not.toContain('unchanged favicon.svg'); // only what would change, unless asked
      expect(text).toContain('(3 unchanged file(s) not listed; --verbose lists them)');
      expect(text).toContain('delete    _astro/app.abc123.js');
      lines.length = 0;
      await syncSite({ ...quiet, dist: dist(siteV2()), target: spy, dryRun: true, verbose: true, prune: true, log: (l) => lines.push(l) });
      expect(lines.join('\n')).toContain('unchanged favicon.svg');
    });

    it('orders the steps: journal, hashed assets, other files, HTML, manifest, then deletions', async () => {
      const target = await t.fresh();
      await syncSite({ ...quiet, dist: dist(siteV1()), target });
      const spy = recording(target);
      await syncSite({ ...quiet, dist: dist(siteV2()), target: spy, prune: true });
      const steps = spy.ops.filter((o) => o.op === 'write' || o.op === 'remove').map((o) => `${o.op} ${o.paths.join(',')}`);
      expect(steps).toEqual([
        'write .sync-pending.json',
        'write _astro/app.def456.js',
        'write style.css',
        'write docs/guide/index.html',
        'write index.html',
        'write .sync-manifest.json',
        'remove .sync-pending.json',
        'remove _astro/app.abc123.js',
      ]);
    });

    it('a failure halfway leaves production whole, and a rerun converges', async () => {
      const target = await t.fresh();
      await syncSite({ ...quiet, dist: dist(siteV1()), target });
      const v1 = await snapshot(target);
      const d2 = dist(siteV2());
      // Fail every write after the journal, the new asset and the stylesheet: HTML never goes up.
      let writes = 0;
      const flaky = recording(target, (op) => (op.op === 'write' && ++writes > 3 ? new Error('injected: disk on fire') : undefined));
      const err = await syncSite({ ...quiet, dist: d2, target: flaky, prune: true }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SyncError);
      expect((err as Error).message).toMatch(/uploading .* failed after 1 attempt: injected: disk on fire/);
      expect((err as Error).message).toContain('rerun `npm run sync` to finish');

      const between = await snapshot(target);
      expect(between['.sync-manifest.json']).toBe(v1['.sync-manifest.json']); // manifest untouched
      expect(between['index.html']).toBe(siteV1()['index.html']); // the old pages are still live…
      expect(brokenLinks(between)).toEqual([]); // …with every asset they use
      expect(between['_astro/app.abc123.js']).toBeDefined(); // nothing deleted before the end
      expect(between['.sync-pending.json']).toBeDefined();

      const rerun = await syncSite({ ...quiet, dist: d2, target, prune: true });
      expect(rerun.uploaded).toContain('index.html');
      expect(sitePart(await snapshot(target))).toEqual(siteV2());
      expect(await target.read('.sync-pending.json')).toBeUndefined();
      const again = await syncSite({ ...quiet, dist: d2, target, prune: true });
      expect(again.uploaded).toEqual([]);
      expect(again.deleted).toEqual([]);
    });

    it('after an interrupted sync, a rerun with the OLD dist restores what the interrupted one overwrote', async () => {
      const target = await t.fresh();
      const d1 = dist(siteV1());
      await syncSite({ ...quiet, dist: d1, target });
      // Interrupted after style.css (v2) went up; the stored manifest still says style.css is v1.
      let writes = 0;
      const flaky = recording(target, (op) => (op.op === 'write' && ++writes > 3 ? new Error('injected') : undefined));
      await expect(syncSite({ ...quiet, dist: dist(siteV2()), target: flaky })).rejects.toThrow(SyncError);
      expect(await snapshot(target).then((s) => s['style.css'])).toBe(siteV2()['style.css']);

      const revert = await syncSite({ ...quiet, dist: d1, target, prune: true });
      // The journal holds every path the interrupted sync planned to write (a safe superset), all rewritten now.
      expect(revert.plan.uploads.map((u) => [u.path, u.reason])).toEqual([
        ['style.css', 'interrupted'],
        ['docs/guide/index.html', 'interrupted'],
        ['index.html', 'interrupted'],
      ]);
      expect(sitePart(await snapshot(target))).toEqual(siteV1());
    });

    it('--prune removes files an interrupted sync uploaded that the next dist no longer has', async () => {
      const target = await t.fresh();
      await syncSite({ ...quiet, dist: dist(siteV1()), target });
      let writes = 0;
      const flaky = recording(target, (op) => (op.op === 'write' && ++writes > 2 ? new Error('injected') : undefined));
      await expect(syncSite({ ...quiet, dist: dist(siteV2()), target: flaky })).rejects.toThrow(SyncError);
      expect(await target.read('_astro/app.def456.js')).toBeDefined(); // uploaded, listed in no manifest

      const v3 = { ...siteV1(), 'index.html': siteV1()['index.html']!.replace('v1', 'v3') };
      const result = await syncSite({ ...quiet, dist: dist(v3), target, prune: true });
      expect(result.deleted).toEqual(['_astro/app.def456.js']);
      expect(sitePart(await snapshot(target))).toEqual(v3);
    });

    it('retries a transient failure and succeeds', async () => {
      const target = await t.fresh();
      let failed = false;
      const flaky = recording(target, (op) => {
        if (op.op !== 'write' || op.paths[0] !== 'index.html' || failed) return undefined;
        failed = true;
        return Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
      });
      const lines: string[] = [];
      await syncSite({ ...quiet, dist: dist(siteV1()), target: flaky, log: (l) => lines.push(l) });
      expect(failed).toBe(true);
      expect(lines.some((l) => /retry: uploading index\.html failed \(read ECONNRESET\); attempt 2 in \d+ ms/.test(l))).toBe(true);
      expect(sitePart(await snapshot(target))).toEqual(siteV1());
    });

    it('refuses --prune on a non-empty target it never synced to, until adopted', async () => {
      const target = await t.fresh();
      await target.write('someone-else.txt', Buffer.from('keep me'), { contentType: 'text/plain', cacheControl: 'no-cache', sha256: '' });
      await expect(syncSite({ ...quiet, dist: dist(siteV1()), target, prune: true })).rejects.toThrow(
        /--prune refused: .* holds 1 file\(s\) \(e\.g\. someone-else\.txt\) but no \.sync-manifest\.json/,
      );
      expect(await target.list()).toEqual(['someone-else.txt']);
      await syncSite({ ...quiet, dist: dist(siteV1()), target }); // adopt without pruning
      const pruned = await syncSite({ ...quiet, dist: dist(siteV1()), target, prune: true });
      expect(pruned.deleted).toEqual(['someone-else.txt']);
    });

    it('re-uploads everything when the stored manifest is corrupt, and files deleted behind its back', async () => {
      const target = await t.fresh();
      await syncSite({ ...quiet, dist: dist(siteV1()), target });
      await target.remove(['style.css']);
      const missing = await syncSite({ ...quiet, dist: dist(siteV1()), target });
      expect(missing.uploaded).toEqual(['style.css']);
      await target.write('.sync-manifest.json', Buffer.from('{oops'), { contentType: 'application/json', cacheControl: 'no-cache', sha256: '' });
      const lines: string[] = [];
      const all = await syncSite({ ...quiet, dist: dist(siteV1()), target, log: (l) => lines.push(l) });
      expect(all.uploaded).toHaveLength(Object.keys(siteV1()).length);
      expect(lines.join('\n')).toContain('is unreadable; every file will be uploaded');
    });
  });
}
