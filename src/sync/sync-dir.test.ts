// The directory target (`dir:<path>`): the shared sync contract, plus what only a local folder needs —
// atomic writes, no escaping the root, no overlap with dist.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dist, syncContract } from '../../tests/support/sync-contract.ts';
import { SyncError } from './errors.ts';
import { syncSite } from './sync.ts';
import { DirTarget } from './targets/dir.ts';
import { siteV1, removeTempDirs, tempDir } from '../../tests/support/sync-sites.ts';

afterAll(removeTempDirs);

syncContract('a directory', { fresh: async () => new DirTarget(join(tempDir('dir-target'), 'www')) });

const quiet = { log: () => {} };

describe('directory target', () => {
  it('writes through a temp file and leaves no temp files behind', async () => {
    const root = join(tempDir('dir-target'), 'www');
    await syncSite({ ...quiet, dist: dist(siteV1()), target: new DirTarget(root) });
    const all = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? all(join(dir, e.name)) : [e.name]));
    expect(all(root).filter((n) => n.endsWith('.sync-tmp'))).toEqual([]);
  });

  it('removes folders that pruning emptied, but never the root', async () => {
    const root = join(tempDir('dir-target'), 'www');
    const target = new DirTarget(root);
    await syncSite({ ...quiet, dist: dist({ ...siteV1(), 'old/deep/page.html': '<p>old</p>' }), target });
    await syncSite({ ...quiet, dist: dist(siteV1()), target, prune: true });
    expect(existsSync(join(root, 'old'))).toBe(false);
    expect(existsSync(join(root, 'index.html'))).toBe(true);
  });

  it('refuses paths that would leave the root', async () => {
    const target = new DirTarget(join(tempDir('dir-target'), 'www'));
    for (const bad of ['../outside.html', '/etc/passwd', 'a/../../b', 'a//b', '']) {
      await expect(target.write(bad, Buffer.from('x'), { contentType: 'text/plain', cacheControl: 'no-cache', sha256: '' })).rejects.toThrow(SyncError);
      await expect(target.remove([bad])).rejects.toThrow(SyncError);
    }
  });

  it('refuses a target that is, contains or sits inside dist', async () => {
    const d = dist(siteV1());
    for (const root of [d, join(d, 'out'), join(d, '..')]) {
      await expect(syncSite({ ...quiet, dist: d, target: new DirTarget(root), prune: true })).rejects.toThrow(/overlaps the site/);
    }
  });

  it('prunes a symlink in the target as a link, without following it', async () => {
    const outside = tempDir('outside');
    writeFileSync(join(outside, 'precious.txt'), 'keep');
    const root = join(tempDir('dir-target'), 'www');
    const target = new DirTarget(root);
    await syncSite({ ...quiet, dist: dist(siteV1()), target });
    mkdirSync(join(root, 'sub'), { recursive: true });
    const { symlinkSync } = await import('node:fs');
    symlinkSync(outside, join(root, 'sub', 'link'));
    const result = await syncSite({ ...quiet, dist: dist(siteV1()), target, prune: true });
    expect(result.deleted).toEqual(['sub/link']);
    expect(existsSync(join(outside, 'precious.txt'))).toBe(true);
  });
});
