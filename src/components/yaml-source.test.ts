/**
 * The event-YAML highlighter: its text is the source, byte for byte (for any YAML the yaml package
 * writes, and for hostile text), every tag is a token span, and keys, values, indicators and block
 * headers get the classes shiki's themes give them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { tokenClassesFor } from './highlight.ts';
import { highlightYamlSource } from './yaml-source.ts';

const unescapeHtml = (s: string): string => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const textOf = (html: string): string => unescapeHtml(html.replace(/<span class="[^"]*">|<\/span>/g, ''));

describe('highlightYamlSource', () => {
  it('keeps the text exactly (any YAML the yaml package writes)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (v) => {
        const src = stringify({ off: 1, payload: v });
        expect(textOf(await highlightYamlSource(src))).toBe(src);
      }),
      { numRuns: 200, seed: 11 },
    );
  });

  it('escapes everything: prompt text never becomes markup', async () => {
    const src = stringify({ payload: { content: '<script>alert(1)</script>\n</code></pre><img src=x onerror=alert(1)>', key: '"&amp;' } });
    const html = await highlightYamlSource(src);
    expect(html).not.toMatch(/<(?!\/?span\b)/);
    expect(textOf(html)).toBe(src);
  });

  it("colours keys, strings, numbers, literals, indicators and block headers as shiki's themes do", async () => {
    const shiki = await tokenClassesFor('yaml', 'a: text\nn: 2\nb: true\nl:\n  - x\nc: |-\n  body\n', {
      key: 'a',
      string: 'text',
      number: '2',
      literal: 'true',
      punct: '-',
      header: '|-',
    });
    const html = await highlightYamlSource('off: 12\ntype: agents/context-added\nok: false\nitems:\n  - one\ncontent: |-\n  line\n');
    expect(html).toContain(`<span class="${shiki.key}">type</span>`);
    // strings carry no tag: the block's colour is the string colour (site.css)
    expect(html).toContain(`<span class="${shiki.punct}">:</span> agents/context-added\n`);
    expect(html).not.toContain(`class="${shiki.string}"`);
    expect(html).toContain(`<span class="${shiki.number}">12</span>`);
    expect(html).toContain(`<span class="${shiki.literal}">false</span>`);
    expect(html).toContain(`<span class="${shiki.punct}">-</span>`);
    expect(html).toContain(`<span class="${shiki.header}">|-</span>`);
    expect(html.endsWith(`<span class="${shiki.header}">|-</span>\n  line\n`)).toBe(true);
    expect(shiki.key).not.toBe(shiki.string);
  });
});
