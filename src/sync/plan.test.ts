// Tests for the sync plan: what is uploaded and why, the phase order, what is stale, and the printout.
import { describe, expect, it } from 'vitest';
import { contentTypeFor, cacheControlFor } from './headers.ts';
import type { Manifest } from './manifest.ts';
import { deletions, formatPlan, planSync, type PlanInput } from './plan.ts';

function manifest(files: Record<string, string>): Manifest {
  return {
    version: 1,
    files: Object.fromEntries(Object.entries(files).map(([p, h]) => [p, { sha256: h, size: h.length, contentType: contentTypeFor(p), cacheControl: cacheControlFor(p) }])),
  };
}

const local = manifest({
  'index.html': 'h2',
  'docs/index.html': 'd1',
  '_astro/app.b.js': 'a2',
  '_astro/app.b.css': 'c1',
  'favicon.svg': 'f1',
  'pagefind/pagefind-entry.json': 'p2',
});

function plan(over: Partial<PlanInput>) {
  return planSync({ local, remote: undefined, dirty: new Set(), listing: [], prune: false, ...over });
}

describe('planSync', () => {
  it('uploads everything to an empty target: assets, then other files, then HTML', () => {
    const p = plan({});
    expect(p.uploads.map((u) => u.path)).toEqual(['_astro/app.b.css', '_astro/app.b.js', 'favicon.svg', 'pagefind/pagefind-entry.json', 'docs/index.html', 'index.html']);
    expect(p.uploads.map((u) => u.phase)).toEqual(['assets', 'assets', 'other', 'other', 'html', 'html']);
    expect(p.uploads.every((u) => u.reason === 'new')).toBe(true);
    expect(p.writeManifest).toBe(true);
  });

  it('uploads nothing and keeps the manifest when the target is current', () => {
    const listing = Object.keys(local.files);
    const p = plan({ remote: local, listing });
    expect(p.uploads).toEqual([]);
    expect(p.unchanged).toHaveLength(6);
    expect(p.writeManifest).toBe(false);
  });

  it('uploads changed content, changed headers, dirty and missing files, each with its reason', () => {
    const remote = manifest({
      'index.html': 'h1',
      'docs/index.html': 'd1',
      '_astro/app.b.js': 'a2',
      '_astro/app.b.css': 'c1',
      'favicon.svg': 'f1',
      'pagefind/pagefind-entry.json': 'p2',
    });
    remote.files['favicon.svg']!.cacheControl = 'no-store';
    const listing = Object.keys(local.files).filter((p) => p !== '_astro/app.b.css');
    const p = plan({ remote, listing, dirty: new Set(['docs/index.html', 'gone.html']) });
    expect(p.uploads.map((u) => [u.path, u.reason])).toEqual([
      ['_astro/app.b.css', 'missing'],
      ['favicon.svg', 'headers'],
      ['docs/index.html', 'interrupted'],
      ['index.html', 'changed'],
    ]);
    expect(p.unchanged).toEqual(['_astro/app.b.js', 'pagefind/pagefind-entry.json']);
  });

  it("treats every stored file as dirty when the journal is unreadable ('all')", () => {
    const p = plan({ remote: local, listing: Object.keys(local.files), dirty: 'all' });
    expect(p.uploads).toHaveLength(6);
    expect(p.uploads.every((u) => u.reason === 'interrupted')).toBe(true);
  });

  it('writes the manifest when files only disappeared', () => {
    const remote = manifest({ ...Object.fromEntries(Object.entries(local.files).map(([p, e]) => [p, e.sha256])), 'old.html': 'o' });
    const p = plan({ remote, listing: [...Object.keys(local.files), 'old.html'] });
    expect(p.uploads).toEqual([]);
    expect(p.writeManifest).toBe(true);
    expect(p.stale).toEqual(['old.html']);
  });

  it('lists stale files from the target listing, never the bookkeeping files; deletes them only with prune', () => {
    const listing = [...Object.keys(local.files), 'old.html', '_astro/app.a.js', '.sync-manifest.json', '.sync-pending.json'];
    const kept = plan({ remote: local, listing });
    expect(kept.stale).toEqual(['_astro/app.a.js', 'old.html']);
    expect(deletions(kept)).toEqual([]);
    const pruned = plan({ remote: local, listing, prune: true });
    expect(deletions(pruned)).toEqual(['_astro/app.a.js', 'old.html']);
  });
});

describe('formatPlan', () => {
  it('prints counts and paths', () => {
    const p = plan({ remote: manifest({ 'index.html': 'h1' }), listing: ['index.html', 'old.html'], prune: true });
    const text = formatPlan(p, { source: 'dist', target: 'dir:/x', dryRun: true });
    expect(text).toContain('sync dist → dir:/x (dry run: nothing will be changed)');
    expect(text).toContain('  upload:    6 (5 new, 1 changed)');
    expect(text).toContain('  unchanged: 0');
    expect(text).toContain('  delete:    1');
    expect(text).toContain('  upload    _astro/app.b.css  [assets, new]');
    expect(text).toContain('  upload    index.html  [html, changed]');
    expect(text).toContain('  delete    old.html');
  });

  it('a real sync prints only the counts (each path is printed once, as it is uploaded or deleted)', () => {
    const p = plan({ remote: manifest({ 'index.html': 'h1' }), listing: ['index.html', 'old.html'], prune: true });
    const text = formatPlan(p, { source: 'dist', target: 'dir:/x', dryRun: false });
    expect(text).toContain('  upload:    6 (5 new, 1 changed)');
    expect(text).not.toContain('index.html');
    expect(text).not.toContain('old.html');
  });

  it('mentions stale files kept without --prune', () => {
    const p = plan({ remote: local, listing: [...Object.keys(local.files), 'old.html'] });
    const text = formatPlan(p, { source: 'dist', target: 'dir:/x', dryRun: false });
    expect(text).toContain('delete:    0 (1 stale file(s) kept; pass --prune to delete them)');
    expect(text).toContain('  stale     old.html');
  });
});
