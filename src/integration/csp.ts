/**
 * The Content Security Policy of every built page — the second wall behind escaping, for pages that
 * show untrusted prompt text. Computed from each page's own HTML as it is rendered
 * (csp-middleware.ts) and written as the first element of its <head>:
 *   default-src 'self'; script-src 'self' + the sha256 of each inline script of that page (+
 *   'wasm-unsafe-eval' only where pagefind's search runs); object-src 'none'; base-uri 'none';
 *   form-action 'self'; style-src 'self' 'unsafe-inline' (styles cannot run code; the panes set a
 *   per-line indent in a style attribute); img-src 'self' data:.
 * No third-party origin is allowed anywhere, and inline event handlers (`onclick=` …) never run:
 * no 'unsafe-inline' or 'unsafe-hashes' for scripts. Not applied in `astro dev` (its overlay and
 * hot reload inject scripts), only to what is published.
 */
import { createHash } from 'node:crypto';

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
/** Script types the browser does not execute (data blocks): no hash needed. */
const DATA_TYPE = /\btype\s*=\s*["']?(?!module\b|text\/javascript\b|application\/javascript\b)[\w/+.-]+/i;

/** The sha256 source expressions of a page's inline, executable scripts, in order of appearance, deduplicated. */
export function inlineScriptHashes(html: string): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(SCRIPT)) {
    const attrs = m[1]!;
    if (/\bsrc\s*=/i.test(attrs) || DATA_TYPE.test(attrs)) continue;
    out.add(`'sha256-${createHash('sha256').update(m[2]!, 'utf8').digest('base64')}'`);
  }
  return [...out];
}

/** The policy for one page. */
export function policyFor(html: string): string {
  const wasm = /pagefind-ui\.js|pagefind\//.test(html) ? " 'wasm-unsafe-eval'" : '';
  const hashes = inlineScriptHashes(html);
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
