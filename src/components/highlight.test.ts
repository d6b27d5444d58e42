/**
 * The build's highlighter: token classes with a fresh stylesheet, escaping of hostile text, marks
 * laid over cached tokens (exact characters, across token boundaries, overlapping marks merged),
 * and each distinct message tokenized once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { highlightCode, highlightLines, highlightStats, jsonTokenClasses, tokenCss, yamlTokenClasses } from './highlight.ts';

const text = (html: string): string =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

describe('highlightLines', () => {
  it('src/styles/tokens.css is what tokenCss() generates (else: npx node src/cli/token-css.ts)', async () => {
    expect(readFileSync(join(import.meta.dirname, '../styles/tokens.css'), 'utf8')).toBe(await tokenCss());
  });

  it('colours tokens with palette classes that tokens.css defines, never inline styles for theme colours', async () => {
    const [model] = await highlightLines(['model: x'], [0]);
    const css = await tokenCss();
    const classes = [...model!.matchAll(/class="([^"]*)"/g)].flatMap((m) => m[1]!.split(' '));
    expect(classes.length).toBeGreaterThan(0);
    for (const c of classes) expect(css).toContain(`.${c}{`);
    expect(model).not.toContain('style=');
    // `model` is a key: github-light #22863A, github-dark #85E89D.
    const [l, d] = /<span class="(l\d+) (d\d+)">model<\/span>/.exec(model!)!.slice(1);
    expect(css).toContain(`.${l}{--shiki-light:#22863A}`);
    expect(css).toContain(`.${d}{--shiki-dark:#85E89D}`);
  });

  it('escapes prompt text: markup in a prompt stays text', async () => {
    const lines = ['  - role: user', '    content: "<script>alert(1)</script> & <img src=x onerror=alert(2)>"'];
    const html = await highlightLines(lines, [0, 0]);
    expect(html.join('\n')).not.toMatch(/<script|<img/);
    expect(html.map(text)).toEqual(lines);
  });

  it('keeps every character of every line, in order (line text round-trips)', async () => {
    const lines = [
      'messages:',
      '  - role: system',
      '    content: |-',
      '      key: value # not a comment',
      '      "quoted" \'single\' & <tag>',
      '',
      '  - role: user',
      '    content: ""',
    ];
    const html = await highlightLines(lines, [0, 1, 1, 1, 1, 1, 2, 2]);
    expect(html.map(text)).toEqual(lines);
  });

  it('marks exactly the given characters, across token boundaries, with the given attributes', async () => {
    const lines = ['    content: "hello world"'];
    const [html] = await highlightLines(lines, [0], [{ line: 0, start: 4, end: 19, attrs: { class: 'anchor', 'data-notes': 'n"1' } }]);
    const mark = /<mark class="anchor" data-notes="n&quot;1">(.*?)<\/mark>/.exec(html!)!;
    expect(text(mark[1]!)).toBe('content: "hello');
    expect(text(html!)).toBe(lines[0]);
  });

  it('merges overlapping marks into one, keeping both notes', async () => {
    const [html] = await highlightLines(
      ['abc def ghi'],
      [0],
      [
        { line: 0, start: 0, end: 5, attrs: { class: 'anchor', 'data-notes': 'a' } },
        { line: 0, start: 4, end: 9, attrs: { class: 'anchor', 'data-notes': 'b' } },
      ],
    );
    expect(html!.match(/<mark/g)).toHaveLength(1);
    expect(html).toContain('data-notes="a b"');
    expect(text(/<mark[^>]*>(.*?)<\/mark>/.exec(html!)![1]!)).toBe('abc def g');
  });

  it('tokenizes a message once: repeats and marked repeats come from the cache', async () => {
    const lines = ['  - role: user', `    content: "unique ${Math.random()}"`];
    const before = highlightStats().tokenized;
    const first = await highlightLines(lines, [0, 0]);
    expect(highlightStats().tokenized).toBe(before + 1);
    expect(await highlightLines(lines, [0, 0])).toEqual(first);
    await highlightLines(lines, [0, 0], [{ line: 1, start: 4, end: 11, attrs: { class: 'anchor' } }]);
    expect(highlightStats().tokenized).toBe(before + 1);
  });
});

describe('jsonTokenClasses', () => {
  it("gives each kind of JSON token the classes of shiki's own JSON colours in both themes", async () => {
    const c = await jsonTokenClasses();
    for (const kind of ['key', 'string', 'number', 'literal', 'punct'] as const) expect(c[kind]).toMatch(/^l\d+ d\d+$/);
    expect(c.key).not.toBe(c.string);
    // The classes are the palette indexes of the colours shiki gives the same text.
    const html = await highlightCode('{"k": "s"}', 'json');
    const colours = (text: string): string[] => {
      const m = new RegExp(`--shiki-light:(#[0-9A-Fa-f]+);--shiki-dark:(#[0-9A-Fa-f]+)">${text}<`).exec(html);
      return [m?.[1]?.toUpperCase() ?? '?', m?.[2]?.toUpperCase() ?? '?'];
    };
    const css = await tokenCss();
    for (const [kind, text] of [
      ['key', '"k"'],
      ['string', '"s"'],
    ] as const) {
      const [l, d] = c[kind].split(' ');
      const [light, dark] = colours(text);
      expect(css).toContain(`.${l}{--shiki-light:${light}}`);
      expect(css).toContain(`.${d}{--shiki-dark:${dark}}`);
    }
  });
});

describe('printed requests coloured from the yaml parse', () => {
  it('keeps every line’s text and gives keys, strings and block headers the classes shiki gives them', async () => {
    const lines = ['  - role: system', '    content: |-', '      <section key="a">', '      x: not a key inside a block', '  - role: user', '    content: "hi \\"there\\" <b>"'];
    const html = await highlightLines(lines, [1, 1, 1, 1, 2, 2]);
    const text = (h: string): string =>
      h
        .replace(/<[^>]+>/g, '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&');
    expect(html.map(text)).toEqual(lines);
    const c = await yamlTokenClasses();
    expect(html[0]).toContain(`<span class="${c.key}">role</span>`);
    expect(html[1]).toContain(`<span class="${c.header}">|-</span>`);
    // block text is one string token: a "key:" inside it is not a key. Strings carry no tag (the
    // line's colour is the string colour), so the whole line is bare, escaped text.
    expect(html[3]).toBe('      x: not a key inside a block');
    expect(html[5]).toMatch(/<\/span> "hi \\"there\\" &lt;b&gt;"$/);
    // nor does whitespace: an indentation is bare text
    expect(html[5]).toMatch(/^ {4}<span class="[^"]+">content<\/span>/);
    expect(html.join('')).not.toContain(`class="${c.string}"`);
  });

  it('gives the untagged strings the colour shiki gives a YAML string, in both themes (tokens.css)', async () => {
    const c = await yamlTokenClasses();
    const css = await tokenCss();
    const [l, d] = c.string.split(' ');
    const light = new RegExp(`\\.${l}\\{--shiki-light:(#[0-9A-F]+)\\}`).exec(css)![1];
    const dark = new RegExp(`\\.${d}\\{--shiki-dark:(#[0-9A-F]+)\\}`).exec(css)![1];
    expect(css).toContain(`:root{--yaml-string-light:${light};--yaml-string-dark:${dark}}`);
    const site = readFileSync(join(import.meta.dirname, '../styles/site.css'), 'utf8');
    expect(site).toMatch(/\.code\.yaml > :not\(\[role\], \.row, details\)[^{]* \{ color: light-dark\(var\(--yaml-string-light\), var\(--yaml-string-dark\)\); \}/);
  });
});
