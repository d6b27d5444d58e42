/**
 * A changed line shown down to the word: removed and added words marked, long unchanged runs cut
 * to a little context with a gap that says how much was left out, every piece of text escaped.
 */
import { describe, expect, it } from 'vitest';
import { diffLines, wordParts } from '../prompt/diff.ts';
import { sideHtml, wordDiffHtml } from './word-diff-html.ts';

const text = (html: string): string => html.replace(/<[^>]*>/g, '');

describe('wordDiffHtml', () => {
  it('shows one inserted timestamp in a 10,800-character line as a short row', () => {
    const before = `${'You are a careful agent. '.repeat(216)}Today is a day.`;
    const after = before.replace('Today is', 'Today (2026-08-24T16:41:31Z) is');
    const html = wordDiffHtml(wordParts(before, after));
    expect(html).toContain('<ins>(2026-08-24T16:41:31Z) </ins>');
    expect(html).not.toContain('<del>');
    expect(html.length).toBeLessThan(300);
    // what was left out is said, and adds up: kept context + gap + the rest = the old line
    const gap = Number(/⋯ ([\d,]+) unchanged characters ⋯/.exec(html)![1]!.replace(/,/g, ''));
    const kept = text(html.replace(/<span class="gap">[^<]*<\/span>/, '')).replace('(2026-08-24T16:41:31Z) ', '');
    expect(kept.length + gap).toBe(before.length);
  });

  it('marks removed and added words, keeping short unchanged runs whole', () => {
    expect(wordDiffHtml(wordParts('run pnpm test before commit', 'run pnpm check --ci before commit'))).toBe(
      'run pnpm <del>test</del><ins>check</ins> <ins>--ci </ins>before commit',
    );
  });

  it('escapes every piece of text', () => {
    const html = wordDiffHtml(wordParts('<b>"x"</b> & y', "<i>'x'</i> & y"));
    expect(html).not.toMatch(/<[bi]>/);
    expect(html).toContain('&lt;');
    expect(html).toContain('&amp;');
  });

  it('gives up on two unrelated long lines: one removal, one insertion', () => {
    const a = Array.from({ length: 600 }, (_, i) => `a${i}`).join(' ');
    const b = Array.from({ length: 600 }, (_, i) => `b${i}`).join(' ');
    expect(wordParts(a, b)).toEqual([
      { op: '-', text: a },
      { op: '+', text: b },
    ]);
  });

  it('never splits a character made of two UTF-16 units', () => {
    const long = '😀'.repeat(100);
    const html = wordDiffHtml([
      { op: '=', text: long },
      { op: '+', text: 'x' },
      { op: '=', text: long },
    ]);
    expect(html).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});

describe('sideHtml', () => {
  it('writes one side of a two-sided diff with its own mark', () => {
    const row = diffLines(['keep the old word here'], ['keep the new word here']).rows[0]!;
    expect(sideHtml(row.before!.segments, 'del')).toBe('keep the <del>old</del> word here');
    expect(sideHtml(row.after!.segments, 'ins')).toBe('keep the <ins>new</ins> word here');
  });
});
