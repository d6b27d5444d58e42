/**
 * The pane highlighter of the playground: writes the printer's shapes (keys, indicators, `|-`
 * headers) as the build's token elements, strings and block text untagged, marks annotations (overlaps merged), and escapes everything — its output is inserted as
 * HTML, so hostile prompt text must stay text. Checked against real printed requests.
 */
import { describe, expect, it } from 'vitest';
import { printRequest } from '../prompt/print.ts';
import { highlightLines } from './highlight.ts';
import type { TokenTags } from './source-view.ts';

/** As the build names them (highlight.ts yamlTokenTags); a bad name writes no tag. */
const tags: TokenTags = { key: 'y-k', number: 'y-n', literal: 'y-n', punct: 'y-p', header: 'y-h', comment: 'y-c', string: '' };

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
    const html = highlightLines(lines, tags);
    expect(html.map(textOf)).toEqual(lines);
    expect(html.join('\n')).not.toMatch(/<(script|img|b|\/textarea)\b/);
  });

  it('writes keys, indicators and block headers as their elements; strings and block text untagged', () => {
    const html = highlightLines(lines, tags);
    expect(html[0]).toBe('<y-k>model</y-k><y-p>:</y-p> m/1');
    expect(html[lines.indexOf('  - role: system')]).toBe('  <y-p>-</y-p> <y-k>role</y-k><y-p>:</y-p> system');
    expect(html[lines.indexOf('    content: |-')]).toBe('    <y-k>content</y-k><y-p>:</y-p> <y-h>|-</y-h>');
    expect(html[lines.indexOf('      a:')]).toBe('      a:'); // block text, not a key
    expect(html[lines.indexOf('      - b')]).toBe('      - b');
    expect(html[lines.indexOf('    files:')]).toBe('    <y-k>files</y-k><y-p>:</y-p>');
    expect(html[lines.indexOf('    files:') + 1]).toMatch(/^ {6}<y-p>-<\/y-p> \{&quot;/);
  });

  it('writes no tag for a name that is not a custom element’s (the names arrive as data)', () => {
    const html = highlightLines(lines, { ...tags, key: 'img src=x onerror=alert(1)', punct: 'span' });
    expect(html[0]).toBe('model: m/1');
    expect(html.map(textOf)).toEqual(lines);
  });

  it('marks annotated ranges, merging overlaps', () => {
    const i = lines.indexOf('      </textarea><script>x()</script>');
    const html = highlightLines(lines, tags, [
      { line: i, start: 6, end: 20, attrs: { class: 'anchor', 'data-notes': 'n1' } },
      { line: i, start: 10, end: 30, attrs: { class: 'anchor', 'data-notes': 'n2' } },
    ]);
    expect(html[i]!.match(/<mark /g)).toHaveLength(1);
    expect(html[i]).toContain('<mark class="anchor" data-notes="n1 n2">&lt;/textarea&gt;&lt;script&gt;x()&lt;/</mark>');
    expect(textOf(html[i]!)).toBe(lines[i]);
    // a mark over token elements closes and reopens around them
    const k = highlightLines(lines, tags, [{ line: 0, start: 3, end: 8, attrs: { class: 'anchor' } }]);
    expect(k[0]).toBe('<y-k>mod</y-k><mark class="anchor"><y-k>el</y-k><y-p>:</y-p> m</mark>/1');
  });
});
