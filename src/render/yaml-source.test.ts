/**
 * The event-YAML highlighter: its text is the source, byte for byte (for any YAML the yaml package
 * writes, and for hostile text), every tag is a token element, and keys, values, indicators and block
 * headers are written as the elements whose colours are the ones shiki's themes give them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { tokenClassesFor, yamlTokenTags } from './highlight.ts';
import { yamlSourceHtml } from './yaml-source.ts';

/** As the page script writes it: with the elements the page's data file names (yamlTokenTags). */
const highlightYamlSource = async (source: string): Promise<string> => yamlSourceHtml(source, await yamlTokenTags());

const unescapeHtml = (s: string): string =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
const textOf = (html: string): string => unescapeHtml(html.replace(/<\/?y-[a-z]>/g, ''));

describe('yamlSourceHtml', () => {
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
    expect(html).not.toMatch(/<(?!\/?y-[a-z]>)/);
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
    // One element per colour pair: kinds coloured alike share it, strings have none.
    const tags = await yamlTokenTags();
    const el = (kind: keyof typeof shiki): string => `y-${Object.keys(shiki).find((k) => shiki[k as keyof typeof shiki] === shiki[kind])![0]}`;
    for (const kind of ['key', 'number', 'literal', 'punct', 'header'] as const) expect(tags[kind], kind).toBe(el(kind));
    expect(tags.literal).toBe(shiki.literal === shiki.number ? tags.number : 'y-l');
    expect(tags.string).toBe('');
    const html = await highlightYamlSource('off: 12\ntype: agents/context-added\nok: false\nitems:\n  - one\ncontent: |-\n  line\n');
    expect(html).toContain(`<${tags.key}>type</${tags.key}>`);
    // strings carry no tag: the block's colour is the string colour (site.css)
    expect(html).toContain(`<${tags.punct}>:</${tags.punct}> agents/context-added\n`);
    expect(html).toContain(`<${tags.number}>12</${tags.number}>`);
    expect(html).toContain(`<${tags.literal}>false</${tags.literal}>`);
    expect(html).toContain(`<${tags.punct}>-</${tags.punct}>`);
    expect(html.endsWith(`<${tags.header}>|-</${tags.header}>\n  line\n`)).toBe(true);
    expect(shiki.key).not.toBe(shiki.string);
  });
});
