/**
 * The build's policy pass: a page's slot (written by the layout) is filled in place with exactly
 * the policy computed from the page — its inline scripts hashed over their UTF-8 bytes, as the
 * browser hashes them, non-ASCII text included — and the page keeps its length; a page without
 * the slot, or with more inline scripts than the slot holds, gets the same policy the slow way. Only
 * the explainer's own pages and the host pages opted in are chosen; a page without <head> gets one.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { applyPolicies, POLICY_SLOT, policyFor, policyPages, withPolicy } from './csp.ts';

const script = (body: string): string => `<script>${body}</script>`;
const page = (head: string, body: string): string => `<!DOCTYPE html><html><head>${head}<meta charset="utf-8"></head><body>${body}</body></html>`;
const policyOf = (html: string): string => /<meta http-equiv="content-security-policy" content="([^"]*)">/.exec(html)![1]!;

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('applyPolicies', () => {
  it('fills the slot in place with the policy of the page, hashing UTF-8 bytes', () => {
    dir = mkdtempSync(join(tmpdir(), 'pfe-csp-'));
    const body = `<p>caf\u00e9 \u2702 ${'x'.repeat(3000)}</p>${script("document.title = 'caf\u00e9 \u2702 \ud83d\ude00';")}<script type="application/json">{"a":"\u00e9"}</script>`;
    const html = page(POLICY_SLOT + script('1'), body);
    writeFileSync(join(dir, 'index.html'), html);
    const size = statSync(join(dir, 'index.html')).size;
    expect(applyPolicies([join(dir, 'index.html')])).toBe(1);
    const out = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(statSync(join(dir, 'index.html')).size).toBe(size);
    expect(policyOf(out)).toBe(policyFor(page(script('1'), body)));
    expect(policyOf(out).match(/'sha256-/g)).toHaveLength(2);
    // the rest of the page is untouched
    expect(out.replace(/<meta http-equiv="content-security-policy" content="[^"]*"> */, '')).toBe(page(script('1'), body));
  });

  it('gives a page without a slot, or with a policy longer than the slot, the same policy by rewriting it', () => {
    dir = mkdtempSync(join(tmpdir(), 'pfe-csp-'));
    const many = Array.from({ length: 12 }, (_, i) => script(`var v${i} = ${i};`)).join('');
    writeFileSync(join(dir, 'index.html'), page(POLICY_SLOT, many));
    writeFileSync(join(dir, 'plain.html'), page('', script('2')));
    expect(applyPolicies([join(dir, 'index.html'), join(dir, 'plain.html')])).toBe(2);
    const a = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(policyOf(a)).toBe(policyFor(page('', many)));
    expect(policyOf(a).match(/'sha256-/g)).toHaveLength(12);
    expect(a).not.toContain(POLICY_SLOT);
    expect(a.startsWith('<!DOCTYPE html><html><head><meta http-equiv="content-security-policy"')).toBe(true);
    const b = readFileSync(join(dir, 'plain.html'), 'utf8');
    expect(policyOf(b)).toBe(policyFor(page('', script('2'))));
  });

  it('adds what a search needs where the page runs one its HTML does not name (Starlight’s search box)', () => {
    expect(policyFor(page('', ''))).not.toContain('wasm-unsafe-eval');
    expect(policyFor(page('', ''), undefined, true)).toContain("'wasm-unsafe-eval'");
  });
});

describe('withPolicy on a page without <head>', () => {
  it('places a <head> holding the policy where the parser would, and changes nothing else', () => {
    const bare = '<p>no head</p>\n';
    const out = withPolicy(bare);
    expect(out).toBe(`<head><meta http-equiv="content-security-policy" content="${policyFor(bare)}"></head>${bare}`);
    const doc = '<!DOCTYPE html>\n<html lang="en"><body><script>1</script></body></html>';
    const placed = withPolicy(doc);
    expect(placed.startsWith('<!DOCTYPE html>\n<html lang="en"><head><meta http-equiv="content-security-policy"')).toBe(true);
    expect(placed.replace(/<head>.*?<\/head>/, '')).toBe(doc);
    expect(policyOf(placed)).toContain("'sha256-");
  });
});

describe('policyPages', () => {
  const out = '/site/dist';
  const url = (p: string): URL => pathToFileURL(join(out, p));
  const assets = new Map<string, URL[]>([
    ['/', [url('index.html')]],
    ['/bare', [url('bare/index.html')]],
    ['/docs/[...slug]', [url('docs/a/index.html'), url('docs/b/index.html')]],
    ['/explainer/scenarios/[id]', [url('explainer/scenarios/a/index.html'), url('explainer/scenarios/a/data.json')]],
    ['/explainer', [url('explainer/index.html')]],
    ['/404', [url('404.html')]],
  ]);
  const own = new Set(['/explainer/scenarios/[id]', '/explainer']);

  it('is the explainer’s own routes’ pages only, by default', () => {
    expect(policyPages(out, assets, own, [])).toEqual([join(out, 'explainer/index.html'), join(out, 'explainer/scenarios/a/index.html')]);
  });

  it('adds the host pages under a prefix the host opted in', () => {
    expect(policyPages(out, assets, own, ['/docs/'])).toEqual([
      join(out, 'docs/a/index.html'),
      join(out, 'docs/b/index.html'),
      join(out, 'explainer/index.html'),
      join(out, 'explainer/scenarios/a/index.html'),
    ]);
    expect(policyPages(out, assets, own, ['/'])).toHaveLength(7); // every page, never the data file
  });
});
