/**
 * A symlink in public/ pointing outside it: the build follows it (Vite copies the target's bytes
 * into a plain dist/ file), so the sync checks where each dist file came from and never uploads
 * one that resolves outside public/ — and says so. Links that stay inside public/ are fine.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { linkedOutside, readLocalSite } from './manifest.ts';
import { syncSite } from './sync.ts';
import { DirTarget } from './targets/dir.ts';
import { removeTempDirs, siteV1, tempDir, writeSite } from '../../tests/support/sync-sites.ts';

afterAll(removeTempDirs);

/** A project with public/ holding a plain file, a link inside, a link to a file outside and a link to a folder outside; dist/ as the build leaves it (links followed). */
function project(): { root: string; dist: string; pub: string } {
  const root = tempDir('symlinks');
  const secret = join(root, 'secret');
  mkdirSync(join(secret, 'keys'), { recursive: true });
  writeFileSync(join(secret, 'token.txt'), 'SECRET-TOKEN');
  writeFileSync(join(secret, 'keys', 'id.txt'), 'SECRET-KEY');
  const pub = join(root, 'public');
  mkdirSync(pub);
  writeFileSync(join(pub, 'favicon.svg'), '<svg/>');
  symlinkSync(join(pub, 'favicon.svg'), join(pub, 'icon.svg'));
  symlinkSync(join(secret, 'token.txt'), join(pub, 'robots.txt'));
  symlinkSync(join(secret, 'keys'), join(pub, 'keys'));
  const dist = writeSite(join(root, 'dist'), siteV1());
  copyFollowingLinks(pub, dist);
  return { root, dist, pub };
}

/** What the build's public/ copy (Vite's copyDir) does: statSync and copyFileSync, links followed. */
function copyFollowingLinks(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const src = join(from, name);
    if (statSync(src).isDirectory()) copyFollowingLinks(src, join(to, name));
    else copyFileSync(src, join(to, name));
  }
}

describe('symlinks in public/', () => {
  it('linkedOutside names the dist files that came through a link leaving public/, file or folder', () => {
    const { dist, pub } = project();
    const site = readLocalSite(dist, pub);
    expect(site.skipped.map((s) => s.path)).toEqual(['keys/id.txt', 'robots.txt']);
    expect(site.skipped[1]!.resolvesTo).toMatch(/secret\/token\.txt$/);
    expect(Object.keys(site.manifest.files)).toContain('icon.svg'); // a link inside public/ is fine
    expect(Object.keys(site.manifest.files)).toContain('favicon.svg');
    expect(Object.keys(site.manifest.files)).not.toContain('robots.txt');
    expect(linkedOutside(join(pub, 'missing'), ['robots.txt'])).toEqual([]);
  });

  it('npm run sync never uploads them, says so, and uploads the rest', async () => {
    const { root, dist, pub } = project();
    const www = join(root, 'www');
    const lines: string[] = [];
    await syncSite({ dist, publicDir: pub, target: new DirTarget(www), log: (l) => lines.push(l) });
    expect(existsSync(join(www, 'robots.txt'))).toBe(false);
    expect(existsSync(join(www, 'keys'))).toBe(false);
    expect(readFileSync(join(www, 'icon.svg'), 'utf8')).toBe('<svg/>');
    expect(readFileSync(join(www, 'index.html'), 'utf8')).toBe(siteV1()['index.html']);
    expect(lines.filter((l) => l.startsWith('skipped '))).toEqual([
      expect.stringMatching(
        /^skipped keys\/id\.txt: it was copied from .*public\/keys\/id\.txt, a symlink resolving outside public\/ \(to .*secret\/keys\/id\.txt\) — never uploaded/,
      ),
      expect.stringMatching(/^skipped robots\.txt: it was copied from .*public\/robots\.txt, a symlink resolving outside public\//),
    ]);
    expect(JSON.stringify(readFileSync(join(www, '.sync-manifest.json'), 'utf8'))).not.toContain('robots.txt');
  });
});
