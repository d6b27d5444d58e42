/**
 * The pane highlighter of the playground: colours the printer's shapes (keys, values, `|-` block
 * text), marks annotations (overlaps merged), and escapes everything — its output is inserted as
 * HTML, so hostile prompt text must stay text. Checked against real printed requests.
 */
import { describe, expect, it } from 'vitest';
import { printRequest } from '../prompt/print.ts';
import { highlightLines } from './highlight.ts';

const textOf = (html: string): string =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe('highlightLines', () => {
  const lines = printRequest(
    'm/1',
    [
      { role: 'system', content: 'one line <b>', parts: [{ text: 'one line <b>', from: [1] }] },
      {
        role: 'user',
        content: 'a:\n</textarea><script>x()</script>\n\n- b',
        parts: [{ text: 'a:\n</textarea><script>x()</script>\n\n- b', from: [2] }],
        files: [{ name: '"><img>' }],
      },
    ],
    [],
  ).map((l) => l.text);

  it('keeps every character, escaped', () => {
    const html = highlightLines(lines);
    expect(html.map(textOf)).toEqual(lines);
    expect(html.join('\n')).not.toMatch(/<(script|img|b|\/textarea)\b/);
  });

  it('colours keys and values, and block text as a string', () => {
    const html = highlightLines(lines);
    expect(html[0]).toBe('<span class="tok-propertyName">model</span><span class="tok-punctuation">:</span> <span class="tok-string">m/1</span>');
    expect(html[lines.indexOf('    content: |-')]).toContain('<span class="tok-keyword">|-</span>');
    expect(html[lines.indexOf('      a:')]).toBe('<span class="tok-string">      a:</span>'); // block text, not a key
    expect(html[lines.indexOf('      - b')]).toBe('<span class="tok-string">      - b</span>');
    expect(html[lines.indexOf('    files:')]).toContain('<span class="tok-propertyName">files</span>');
  });

  it('marks annotated ranges, merging overlaps', () => {
    const i = lines.indexOf('      </textarea><script>x()</script>');
    const html = highlightLines(lines, [
      { line: i, start: 6, end: 20, attrs: { class: 'anchor', 'data-notes': 'n1' } },
      { line: i, start: 10, end: 30, attrs: { class: 'anchor', 'data-notes': 'n2' } },
    ]);
    expect(html[i]!.match(/<mark /g)).toHaveLength(1);
    expect(html[i]).toContain('<mark class="anchor" data-notes="n1 n2"><span class="tok-string">&lt;/textarea&gt;&lt;script&gt;x()&lt;/</span></mark>');
    expect(textOf(html[i]!)).toBe(lines[i]);
  });
});
