/** Untrusted prose rendered as Markdown: inline for titles and notes, always escaped. */
import { describe, expect, it } from 'vitest';
import { inlineMarkdown, markdownText, safeMarkdown } from './markdown.ts';

describe('inlineMarkdown', () => {
  it('renders code and emphasis without a wrapping paragraph', () => {
    expect(inlineMarkdown('the `pnpm check` rule is *gone*')).toBe('the <code>pnpm check</code> rule is <em>gone</em>');
  });

  it('escapes raw HTML and drops javascript: links', () => {
    const out = inlineMarkdown("<script>alert('x')</script>") + inlineMarkdown('see [a](javascript:void)');
    expect(out).not.toContain('<script');
    expect(out).toContain('&lt;script&gt;');
    expect(out).toContain('<a href="">a</a>');
  });

  it('keeps several paragraphs as paragraphs', () => {
    expect(inlineMarkdown('one\n\ntwo')).toBe('<p>one</p>\n<p>two</p>');
    expect(safeMarkdown('x')).toBe('<p>x</p>');
  });
});

describe('markdownText', () => {
  it('is the text a reader sees: no backticks or stars, entities decoded, markup never produced', () => {
    expect(markdownText('Deleting a key, and deleting everything (`*`)')).toBe('Deleting a key, and deleting everything (*)');
    expect(markdownText('a *b* & `<c>`')).toBe('a b & <c>');
    expect(markdownText('plain')).toBe('plain');
  });
});
