/**
 * The Content Security Policy of every built page — the second wall behind escaping, for pages that
 * show untrusted prompt text. Computed by the build (astro:build:done) from each page's own HTML and
 * written as the first element of its <head>:
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
import { closeSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

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

/** The policy for one page (`bytes`: see inlineScriptHashes). */
export function policyFor(html: string, bytes?: Bytes): string {
  const wasm = /pagefind-ui\.js|pagefind\//.test(html) ? " 'wasm-unsafe-eval'" : '';
  const hashes = inlineScriptHashes(html, bytes);
  return [
    "default-src 'self'",
    `script-src 'self'${hashes.length ? ` ${hashes.join(' ')}` : ''}${wasm}`,
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

/** The page with its policy as the first element of <head> (replacing an earlier one). */
export function withPolicy(html: string): string {
  const meta = `<meta http-equiv="content-security-policy" content="${policyFor(html.replace(META, ''))}">`;
  if (META.test(html)) return html.replace(META, meta);
  const head = /<head\b[^>]*>/i.exec(html);
  if (!head) throw new Error('a built page has no <head>: cannot place its Content-Security-Policy');
  const at = head.index + head[0].length;
  return html.slice(0, at) + meta + html.slice(at);
}

/** Bytes the layout reserves for a policy (the longest so far, on the search page, is about 400). */
const SLOT_CHARS = 512;
const SLOT_OPEN = '<meta http-equiv="content-security-policy" content="';
/** What the layout (Base.astro) writes first in <head> on a build; applyPolicies fills it. */
export const POLICY_SLOT = `${SLOT_OPEN}${' '.repeat(SLOT_CHARS)}">`;
const SLOT_BYTES = Buffer.from(POLICY_SLOT);

/**
 * Fills the policy slot of every .html file under `dir` in place (see the header); a page without
 * the slot, or whose policy is longer, gets its policy by withPolicy. Returns how many pages.
 */
export function applyPolicies(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !e.name.endsWith('.html')) continue;
    const file = join(e.parentPath, e.name);
    const bytes = readFileSync(file);
    const at = bytes.indexOf(SLOT_BYTES);
    // latin1: one character per byte, so string offsets are byte offsets and nothing is decoded;
    // the scripts' bytes are hashed as they are (UTF-8, what the browser hashes).
    const policy = at < 0 ? undefined : policyFor(bytes.toString('latin1'), (from, to) => bytes.subarray(from, to));
    if (policy === undefined || policy.length > SLOT_CHARS) {
      writeFileSync(file, withPolicy(bytes.toString('utf8').replace(POLICY_SLOT, '')));
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
