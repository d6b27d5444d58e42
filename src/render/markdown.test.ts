/** Untrusted prose rendered as Markdown: inline for titles and notes, always escaped. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { micromark } from 'micromark';
import { inlineMarkdown, markdownText, MAX_EMPHASIS_MARKS, plainLine, safeMarkdown } from './markdown.ts';

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

describe('plain lines (rendered without micromark)', () => {
  const micro = (s: string): string => micromark(s, { allowDangerousHtml: false, allowDangerousProtocol: false });
  // Characters of plain lines and the ones around them that do start constructs, mixed.
  const plain = [...'abcXYZé漢09 ,.;:\'"?%$@/()=+—–’‘“”…·×→←≈-'];
  const chars = [...plain, ...'`*_[]!<>&\\#~|\t\n'];

  it('renders as micromark renders them, and anything else goes to micromark', () => {
    fc.assert(
      // Mostly text of plain characters (the fast path), some with the others mixed in.
      fc.property(
        fc.oneof(fc.array(fc.constantFrom(...plain), { maxLength: 24 }), fc.array(fc.constantFrom(...chars), { maxLength: 24 })).map((a) => a.join('')),
        (s) => {
          expect(safeMarkdown(s)).toBe(micro(s));
          const html = micro(s).trim();
          const m = /^<p>([\s\S]*)<\/p>$/.exec(html);
          expect(inlineMarkdown(s)).toBe(m && !m[1]!.includes('<p>') ? m[1]! : html);
        },
      ),
      { numRuns: 4000 },
    );
  });

  it('takes the common note as plain, and list, heading and construct starts as not', () => {
    expect(plainLine('the agent exists; nothing here reaches the prompt')).toBe(true);
    expect(plainLine('birth batch: 4 keyed sections, "one" atomic append')).toBe(true);
    for (const s of ['- item', '+ item', '1. item', '2) item', '# h', '> q', 'a *b*', 'a `b`', 'a  b', ' a', 'a ', 'a\nb', '', 'a & b', '<b>', '---'])
      expect(plainLine(s), s).toBe(false);
    expect(inlineMarkdown('say "hi"')).toBe('say &quot;hi&quot;');
    expect(markdownText('say "hi"')).toBe('say "hi"');
  });
});

describe('a text with more emphasis markers than micromark handles in reasonable time', () => {
  it('is shown as plain escaped paragraphs past MAX_EMPHASIS_MARKS, and as Markdown up to it', () => {
    const at = '*a'.repeat(MAX_EMPHASIS_MARKS / 2);
    expect(safeMarkdown(at)).toContain('<em>');
    // 20,000 markers (micromark alone: seconds), with markup and a second paragraph.
    const hostile = `${'*a'.repeat(20_000)} <script>x</script>\n\n  second _para_ \n`;
    expect(safeMarkdown(hostile)).toBe(`<p>${'*a'.repeat(20_000)} &lt;script&gt;x&lt;/script&gt;</p>\n<p>second _para_</p>`);
    expect(inlineMarkdown(`${'_'.repeat(MAX_EMPHASIS_MARKS + 1)} & co`)).toBe(`${'_'.repeat(MAX_EMPHASIS_MARKS + 1)} &amp; co`);
  });
});
