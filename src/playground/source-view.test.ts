/**
 * The source view's markup: one line element per text line with its number, the worker's YAML
 * ranges as token elements (split where a range spans lines), the error lines marked, and every
 * character of the untrusted text escaped — the text reads back exactly, markup never appears.
 */
import { describe, expect, it } from 'vitest';
import { yamlRanges } from '../render/yaml-tokens.ts';
import { sourceHtml, type TokenTags } from './source-view.ts';

const tags: TokenTags = { key: 'y-k', string: '', number: 'y-n', literal: 'y-l', punct: 'y-p', header: 'y-h', comment: 'y-c' };

/** The text of each line of the markup, entities decoded (what the browser shows). */
const linesOf = (html: string): string[] =>
  [...html.matchAll(/<span class="pg-src-text">(.*?)<\/span><\/div>/g)].map((m) =>
    m[1]!
      .replace(/<[^>]*>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&'),
  );

describe('source view markup', () => {
  it('numbers every line and writes tokens as their kinds’ elements, also across lines; strings untagged', () => {
    const text = 'id: x\n# done\nn: 2\ncontent: |-\n  one\n  two\n';
    const html = sourceHtml(text, yamlRanges(text), tags);
    expect(linesOf(html)).toEqual(text.split('\n'));
    expect([...html.matchAll(/<span class="pg-src-no" aria-hidden="true">(\d+)<\/span>/g)].map((m) => m[1])).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(html).toContain('<span class="pg-src-text"><y-k>id</y-k><y-p>:</y-p> x</span>');
    expect(html).toContain('<y-n>2</y-n>');
    expect(html).toContain('<y-h>|-</y-h>');
    // The block scalar's one range is split at the line ends (its lines, strings, are untagged).
    expect(html).toContain('<span class="pg-src-text">  one</span>');
    expect(html).toContain('<span class="pg-src-text">  two</span>');
    expect(html).not.toMatch(/<y-s\b/);
    expect(html).toContain('<span class="pg-src-text"><y-c># done</y-c></span>');
  });

  it('shows the text plain without ranges, and marks the error lines', () => {
    const html = sourceHtml('a: 1\nb: [\n', undefined, tags, new Set([2]));
    expect(html).not.toContain('<y-k>');
    expect(linesOf(html)).toEqual(['a: 1', 'b: [', '']);
    expect(html.match(/pg-src-ln[^"]*/g)).toEqual(['pg-src-ln', 'pg-src-ln pg-src-err', 'pg-src-ln']);
    expect(html.match(/pg-src-marker/g)).toHaveLength(1);
  });

  it('escapes hostile text: it reads back exactly and never becomes markup', () => {
    const text = [
      'title: "</textarea><script>window.__pwned=\'x\'</script>"',
      'note: <a href="javascript:window.__pwned=\'y\'">&amp; x</a>',
      '# <img src=x onerror="window.__pwned=\'z\'"> \' "',
      '',
    ].join('\n');
    for (const ranges of [yamlRanges(text), undefined]) {
      const html = sourceHtml(text, ranges, { ...tags, key: 'y-k onclick="x"' });
      expect(linesOf(html)).toEqual(text.split('\n'));
      expect(html).not.toMatch(/<(?!\/?(?:div|span|y-[a-z])\b)/); // only the view's own elements
      expect(html).not.toMatch(/onclick/);
    }
  });
});
