/**
 * The build's highlighter: token classes with a fresh stylesheet, escaping of hostile text, marks
 * laid over cached tokens (exact characters, across token boundaries, overlapping marks merged),
 * and each distinct message tokenized once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTRAST, highlightCode, LANGS, highlightLines, highlightStats, jsonTokenClasses, tokenCss, yamlTokenClasses, yamlTokenTags } from './highlight.ts';

const text = (html: string): string =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe('highlightLines', () => {
  it('src/styles/tokens.css is what tokenCss() generates (else: npm run token-css)', async () => {
    expect(readFileSync(join(import.meta.dirname, '../styles/tokens.css'), 'utf8')).toBe(await tokenCss());
  });

  it('writes tokens as the elements tokens.css colours, never inline styles or classes', async () => {
    const [model] = await highlightLines(['model: x'], [0]);
    const css = await tokenCss();
    expect(model).toBe('<y-k>model</y-k><y-p>:</y-p> x');
    expect(model).not.toMatch(/style=|class=/);
    // `model` is a key: github-light #22863A, github-dark #85E89D.
    expect(css).toContain('y-k{color:light-dark(#22863A,#85E89D)}');
  });

  it("gives each token element the colours of its kinds' palette classes in both themes, with the contrast adjustments", async () => {
    const css = await tokenCss();
    const cls = await yamlTokenClasses();
    const tags = await yamlTokenTags();
    const colourOf = (c: string): string => new RegExp(`\\.${c}\\{--shiki-(?:light|dark):(#[0-9A-F]+)\\}`).exec(css)![1]!;
    const rules = [...css.matchAll(/^(y-[a-z])\{color:light-dark\((#[0-9A-F]+),(#[0-9A-F]+)\)\}$/gm)];
    expect(rules.map((r) => r[1])).toEqual([...new Set(Object.values(tags).filter(Boolean))]);
    for (const kind of Object.keys(tags) as (keyof typeof tags)[]) {
      if (!tags[kind]) {
        expect(cls[kind]).toBe(cls.string);
        continue;
      }
      const [l, d] = cls[kind].split(' ');
      const rule = rules.find((r) => r[1] === tags[kind])!;
      expect(rule[2], `${kind} light`).toBe(CONTRAST.light[colourOf(l!)] ?? colourOf(l!));
      expect(rule[3], `${kind} dark`).toBe(CONTRAST.dark[colourOf(d!)] ?? colourOf(d!));
      // kinds share an element only when they share both colours
      for (const other of Object.keys(tags) as (keyof typeof tags)[]) expect(tags[other] === tags[kind], `${kind}/${other}`).toBe(cls[other] === cls[kind]);
    }
    // the comment grey of github-dark is the one adjusted here
    expect(css).toContain(`${tags.comment}{color:light-dark(#6A737D,#8B949E)}`);
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

  it('finds a chunk by its key object, and never by a key whose lines have changed', async () => {
    const key = {};
    const a = ['  - role: user', `    content: "first ${Math.random()}"`];
    const b = [a[0]!, `    content: 42`]; // the same key object, other lines
    const c = [a[0]!, a[1]!, '    toolCallId: "x"']; // the same key, one line more
    const first = await highlightLines(a, [0, 0], [], [key, key]);
    expect(first).toEqual(await highlightLines(a, [0, 0]));
    expect(await highlightLines(a, [0, 0], [], [key, key])).toEqual(first);
    // Each answer is what the lines alone give (no key): never the chunk of another text.
    for (const lines of [b, c, a]) {
      const groups = lines.map(() => 0);
      const keyed = await highlightLines(lines, groups, [], [key, key, key]);
      expect(keyed).toEqual(await highlightLines(lines, groups));
    }
    expect((await highlightLines(b, [0, 0], [], [key, key]))[1]).toContain('42');
  });
});

describe('highlightCode', () => {
  // Each language's grammar is loaded when a block first asks for it (not all of LANGS up front).
  const samples: Record<(typeof LANGS)[number], string> = {
    yaml: 'key: value # note',
    js: 'const x = 1; // note',
    ts: 'const x: number = 1; // note',
    json: '{"k": 1}',
    sh: 'echo "hi" # note',
    md: '# Title\n\n*em* text',
  };
  it('colours a block of every language of LANGS with its grammar, the same however many blocks ask for it at once', async () => {
    for (const lang of LANGS) {
      const [a, b] = await Promise.all([highlightCode(samples[lang], lang), highlightCode(samples[lang], lang)]);
      expect(a).toBe(b);
      // A grammar gives the tokens colours of their own: more than the one colour of plain text.
      const colours = new Set([...a.matchAll(/--shiki-light:(#[0-9A-Fa-f]+)/g)].map((m) => m[1]));
      expect(colours.size, lang).toBeGreaterThan(1);
    }
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
  it('keeps every line’s text and writes keys and block headers as their elements, strings untagged', async () => {
    const lines = ['  - role: system', '    content: |-', '      <section key="a">', '      x: not a key inside a block', '  - role: user', '    content: "hi \\"there\\" <b>"'];
    const html = await highlightLines(lines, [1, 1, 1, 1, 2, 2]);
    const text = (h: string): string =>
      h
        .replace(/<[^>]+>/g, '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&');
    expect(html.map(text)).toEqual(lines);
    const t = await yamlTokenTags();
    expect(html[0]).toBe(`  <${t.punct}>-</${t.punct}> <${t.key}>role</${t.key}><${t.punct}>:</${t.punct}> system`);
    expect(html[1]).toContain(`<${t.header}>|-</${t.header}>`);
    // block text is one string token: a "key:" inside it is not a key. Strings carry no tag (the
    // line's colour is the string colour), so the whole line is bare, escaped text.
    expect(html[3]).toBe('      x: not a key inside a block');
    expect(html[5]).toMatch(/<\/y-p> &quot;hi \\&quot;there\\&quot; &lt;b&gt;&quot;$/);
    // nor does whitespace: an indentation is bare text
    expect(html[5]).toMatch(/^ {4}<y-k>content<\/y-k>/);
    expect(html.join('')).not.toMatch(/class=|<span/);
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
