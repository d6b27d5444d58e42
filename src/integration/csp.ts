/**
 * The Content Security Policy of the explainer's built pages — the second wall behind escaping, for
 * pages that show untrusted prompt text. Only the explainer's own pages get it (the files its
 * injected routes wrote), and host pages the host opts in (the `policyPages` option): every other
 * file of a host's dist/ is left byte for byte as the host built it. Computed by the build
 * (astro:build:done) from each page's own HTML and written as the first element of its <head>:
 *   default-src 'self'; script-src 'self' + the sha256 of each inline script of that page (+
 *   'wasm-unsafe-eval' only where pagefind's search runs); object-src 'none'; base-uri 'none';
 *   form-action 'self'; style-src 'self' 'unsafe-inline' (styles cannot run code; the panes set a
 *   per-line indent in a style attribute); img-src 'self' data:.
 * No third-party origin is allowed anywhere, and inline event handlers (`onclick=` …) never run:
 * no 'unsafe-inline' or 'unsafe-hashes' for scripts. Not applied in `astro dev` (its overlay and
 * hot reload inject scripts), only to what is published.
 *
 * Cost: the layout writes an empty slot there (POLICY_SLOT: a meta element whose content is
 * spaces), and the build fills it in place — each page is read as bytes and scanned for its inline
 * scripts, and only the slot's bytes are written: no page is decoded, rebuilt and written a second
 * time (that was about a second per hundred scenarios). A policy longer than the slot (a page with
 * many inline scripts) is written the slow way, the whole page again.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
/** Script types the browser does not execute (data blocks): no hash needed. */
const DATA_TYPE = /\btype\s*=\s*["']?(?!module\b|text\/javascript\b|application\/javascript\b)[\w/+.-]+/i;

/** The bytes of `html` between two of its offsets (a page read as latin1: offsets are byte offsets). */
type Bytes = (from: number, to: number) => Uint8Array;

/**
 * The sha256 source expressions of a page's inline, executable scripts, in order of appearance,
 * deduplicated. `bytes`: the page's own bytes, when `html` is them read as latin1.
 */
export function inlineScriptHashes(html: string, bytes?: Bytes): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(SCRIPT)) {
    const attrs = m[1]!;
    if (/\bsrc\s*=/i.test(attrs) || DATA_TYPE.test(attrs)) continue;
    const from = m.index + m[0].indexOf('>') + 1;
    const hash = createHash('sha256');
    if (bytes) hash.update(bytes(from, from + m[2]!.length));
    else hash.update(m[2]!, 'utf8');
    out.add(`'sha256-${hash.digest('base64')}'`);
  }
  return [...out];
}

/**
 * The policy for one page (`bytes`: see inlineScriptHashes). `wasm`: the page runs a search (its
 * own, or the host's: Starlight's search box on every page loads pagefind from a script bundle, not
 * from the page's HTML).
 */
export function policyFor(html: string, bytes?: Bytes, wasm = false): string {
  const search = wasm || /pagefind-ui\.js|pagefind\//.test(html) ? " 'wasm-unsafe-eval'" : '';
  const hashes = inlineScriptHashes(html, bytes);
  return [
    "default-src 'self'",
    `script-src 'self'${hashes.length ? ` ${hashes.join(' ')}` : ''}${search}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

const META = /<meta http-equiv="content-security-policy"[^>]*>/i;

/**
 * The page with its policy as the first element of <head> (replacing an earlier one). A page
 * without `<head>` (valid HTML: the parser makes one) gets one where the parser would, after
 * `<html …>` or the doctype, holding just the policy — never an error: the explainer's own layouts
 * always write a <head>, so only a host page the host opted in can lack one.
 */
export function withPolicy(html: string, wasm = false): string {
  const meta = `<meta http-equiv="content-security-policy" content="${policyFor(html.replace(META, ''), undefined, wasm)}">`;
  if (META.test(html)) return html.replace(META, meta);
  const head = /<head\b[^>]*>/i.exec(html);
  if (head) {
    const at = head.index + head[0].length;
    return html.slice(0, at) + meta + html.slice(at);
  }
  const before = /^(?:\s|<!--[\s\S]*?-->)*(?:<!doctype[^>]*>)?(?:\s|<!--[\s\S]*?-->)*(?:<html\b[^>]*>)?/i.exec(html)![0].length;
  return `${html.slice(0, before)}<head>${meta}</head>${html.slice(before)}`;
}

/** Bytes the layout reserves for a policy (the longest so far, on the search page, is about 400). */
const SLOT_CHARS = 512;
const SLOT_OPEN = '<meta http-equiv="content-security-policy" content="';
/** What the layout (Base.astro) writes first in <head> on a build; applyPolicies fills it. */
export const POLICY_SLOT = `${SLOT_OPEN}${' '.repeat(SLOT_CHARS)}">`;
const SLOT_BYTES = Buffer.from(POLICY_SLOT);

/**
 * Gives each of `files` (built .html pages) its policy: the slot filled in place (see the header);
 * a page without the slot, or whose policy is longer, gets it by withPolicy. `wasm`: see
 * policyFor. Returns how many pages.
 */
export function applyPolicies(files: Iterable<string>, { wasm = false } = {}): number {
  let n = 0;
  for (const file of files) {
    const bytes = readFileSync(file);
    const at = bytes.indexOf(SLOT_BYTES);
    // latin1: one character per byte, so string offsets are byte offsets and nothing is decoded;
    // the scripts' bytes are hashed as they are (UTF-8, what the browser hashes).
    const policy = at < 0 ? undefined : policyFor(bytes.toString('latin1'), (from, to) => bytes.subarray(from, to), wasm);
    if (policy === undefined || policy.length > SLOT_CHARS) {
      writeFileSync(file, withPolicy(bytes.toString('utf8').replace(POLICY_SLOT, ''), wasm));
    } else {
      const fd = openSync(file, 'r+');
      try {
        writeSync(fd, Buffer.from(`${policy}">`.padEnd(SLOT_CHARS + 2, ' '), 'latin1'), 0, SLOT_CHARS + 2, at + SLOT_OPEN.length);
      } finally {
        closeSync(fd);
      }
    }
    n++;
  }
  return n;
}

/** A built file's URL path below the output folder: `dist/a/index.html` → `/a/`, `dist/404.html` → `/404.html`. */
const urlPathOf = (out: string, file: string): string => `/${relative(out, file).split(sep).join('/')}`.replace(/(^|\/)index\.html$/, '$1');

/**
 * The pages that get a policy, from Astro's `astro:build:done` `assets` (output files by route
 * pattern): every .html file of the explainer's own routes (`own`: their patterns), and of any
 * other route whose URL path starts with one of `optIn` (the `policyPages` option). Sorted.
 */
export function policyPages(out: string, assets: Map<string, URL[]>, own: ReadonlySet<string>, optIn: readonly string[]): string[] {
  const files = new Set<string>();
  for (const [pattern, urls] of assets) {
    for (const url of urls) {
      const file = fileURLToPath(url);
      if (!file.endsWith('.html')) continue;
      if (own.has(pattern) || optIn.some((p) => urlPathOf(out, file).startsWith(p))) files.add(file);
    }
  }
  return [...files].sort();
}
