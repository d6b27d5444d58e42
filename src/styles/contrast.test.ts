/**
 * The code colours keep WCAG AA contrast (4.5:1) on the page background, where every code block
 * sits (site.css): each theme colour below it is overridden in site.css — by its palette class in
 * tokens.css and by its inline style — and the override passes. The palette classes are generated
 * (tokens.css: index order), so this also fails when a theme change moves a colour to another class,
 * and when a theme gains a text colour below 4.5:1.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledThemes } from 'shiki';
import { describe, expect, it } from 'vitest';
import { CONTRAST, THEMES } from '../render/highlight.ts';

const css = (name: string): string => readFileSync(join(import.meta.dirname, name), 'utf8');
const site = css('site.css');
const tokens = css('tokens.css');

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string): number => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const bg = /--pfe-bg: light-dark\((#[0-9a-f]{6}), (#[0-9a-f]{6})\)/i.exec(site)!;
const background = { light: bg[1]!, dark: bg[2]! };
/** Palette classes: `l3` → { side: light, colour }. */
const palette = [...tokens.matchAll(/\.([ld]\d+)\{--shiki-(light|dark):(#[0-9A-F]{6})\}/gi)].map((m) => ({
  cls: m[1]!,
  side: m[2] as 'light' | 'dark',
  colour: m[3]!.toUpperCase(),
}));
/** The overrides: class, side, theme colour, and the colour shown instead. */
const overrides = [
  ...site.matchAll(
    /\.code > :not\(\[role\], \.row, details\) span\.([ld]\d+), pre code span\.\1, pre code span\[style\*='--shiki-(light|dark):(#[0-9A-F]{6})' i\] \{ color: light-dark\(([^,]+), (.+?)\); \}/gi,
  ),
].map((m) => {
  const side = m[2] as 'light' | 'dark';
  return { cls: m[1]!, side, colour: m[3]!.toUpperCase(), shown: side === 'light' ? m[4]!.trim() : m[5]!.trim() };
});

describe('code colour contrast', () => {
  it('reads the backgrounds, the palette and the overrides', () => {
    expect(background).toEqual({ light: '#ffffff', dark: '#0d1117' });
    expect(palette.length).toBeGreaterThan(20);
    expect(overrides.length).toBeGreaterThanOrEqual(2);
  });

  it('each override names the palette class of the colour it replaces, and the replacement passes 4.5:1', () => {
    for (const o of overrides) {
      expect(
        palette.find((p) => p.cls === o.cls),
        `${o.cls} in tokens.css`,
      ).toMatchObject({ side: o.side, colour: o.colour });
      expect(o.shown, `${o.cls}: a colour, not a variable`).toMatch(/^#[0-9a-f]{6}$/i);
      expect(contrast(o.shown, background[o.side]), `${o.shown} on ${background[o.side]}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('every text colour of the themes below 4.5:1 on the page background is overridden', async () => {
    // Text colours: a theme's token foregrounds that come without a token background of their own
    // (the code blocks show no token backgrounds; those come with one are inverse diff markers).
    const text = { light: new Set<string>(), dark: new Set<string>() };
    for (const side of ['light', 'dark'] as const) {
      const theme = (await bundledThemes[THEMES[side]]()).default as { tokenColors?: { settings: { foreground?: string; background?: string } }[] };
      for (const t of theme.tokenColors ?? []) if (t.settings.foreground && !t.settings.background) text[side].add(t.settings.foreground.toUpperCase());
    }
    const weak = palette.filter((p) => text[p.side].has(p.colour) && contrast(p.colour, background[p.side]) < 4.5);
    expect(weak.length).toBeGreaterThan(0); // the github themes have some: the check is live
    for (const w of weak)
      expect(
        overrides.some((o) => o.cls === w.cls && o.colour === w.colour),
        `${w.side} ${w.colour} (.${w.cls}) needs an override in site.css`,
      ).toBe(true);
  });

  it('the YAML token elements (tokens.css) pass 4.5:1, and their adjustments are the overrides site.css gives the same colours', () => {
    const elements = [...tokens.matchAll(/^(y-[a-z])\{color:light-dark\((#[0-9A-F]{6}),(#[0-9A-F]{6})\)\}$/gm)];
    expect(elements.length).toBeGreaterThanOrEqual(4);
    for (const [, tag, light, dark] of elements) {
      expect(contrast(light!, background.light), `${tag} light ${light}`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(dark!, background.dark), `${tag} dark ${dark}`).toBeGreaterThanOrEqual(4.5);
    }
    const fromSite = overrides.map((o) => [o.side, o.colour, o.shown.toUpperCase()]).sort();
    const fromHighlight = (['light', 'dark'] as const).flatMap((side) => Object.entries(CONTRAST[side]).map(([c, shown]) => [side, c, shown])).sort();
    expect(fromHighlight).toEqual(fromSite);
  });
});
