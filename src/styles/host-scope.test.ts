/**
 * The explainer's styles share a page with a host's (Starlight's chrome, a team's custom CSS), and
 * custom properties inherit from :root into everything. So every custom property the explainer
 * reads or sets is its own (`--pfe-…`), or one of the few it deliberately shares: shiki's
 * `--shiki-light/dark` (inline styles on code), the generated `--yaml-string-…` (tokens.css),
 * pagefind UI's `--pagefind-ui-…` (set on its own #search only) and Starlight's
 * `--sl-content-width` (starlight.css, on the explainer's own pages). A host defining `--accent` or
 * `--bg` is then neither read nor overwritten.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..');
const SHARED = /^--(pfe-|shiki-(light|dark)$|yaml-string-(light|dark)$|pagefind-ui-|sl-content-width$)/;

/** Shipped style sources: stylesheets, components, routes, and the modules that write markup or styles (the pages' scripts, the build-time writers, the playground); tests left out. */
function sources(): { file: string; text: string }[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((f) => (/\.(css|astro|mdx)$/.test(f) || /^(client|render|playground)\/.*\.ts$/.test(f)) && !f.endsWith('.test.ts') && !f.startsWith('pages/'))
    .map((f) => ({ file: relative(SRC, join(SRC, f)), text: readFileSync(join(SRC, f), 'utf8') }));
}

/** Custom property names a text reads (`var(--x`) or sets (`--x:` in CSS or a style string, `setProperty('--x'`). */
function customProperties(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/var\((--[a-z][\w-]*)/gi)) names.add(m[1]!);
  for (const m of text.matchAll(/(?<![\w-])(--[a-z][\w-]*)\s*:(?!:)/gi)) names.add(m[1]!);
  for (const m of text.matchAll(/setProperty\(\s*['"](--[a-z][\w-]*)/g)) names.add(m[1]!);
  return [...names];
}

describe('custom properties a host page shares', () => {
  it('are the explainer’s own (--pfe-) or one of the few it shares on purpose', () => {
    const foreign = sources().flatMap(({ file, text }) =>
      customProperties(text)
        .filter((n) => !SHARED.test(n))
        .map((n) => `${file}: ${n}`),
    );
    expect(foreign).toEqual([]);
  });

  it('the check finds an unprefixed one, read or set', () => {
    expect(customProperties('a { color: var(--accent); } .x { --band: red; } el.style.setProperty("--digits", 2)').filter((n) => !SHARED.test(n))).toEqual([
      '--accent',
      '--band',
      '--digits',
    ]);
    expect(customProperties('.x { --pfe-band: var(--shiki-light); } a:hover { color: red }').filter((n) => !SHARED.test(n))).toEqual([]);
  });
});
