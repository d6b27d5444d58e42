/**
 * The shared pane writer escapes every piece of text it is given (prompt text, comments, removed
 * lines, reasons, model, types) — hostile text stays text — and writes the structure the page
 * script and the styles rely on (✂ line, notes, provenance links only where a run starts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeHtml, INDENT_CLASSES, markedText, paneMarkup, type PaneMarkupLine } from './pane-markup.ts';

const EVIL = `<script>alert(1)</script>"' onmouseover="x" </textarea><img src=x onerror=alert(2)>`;
const line = (over: Partial<PaneMarkupLine> = {}): PaneMarkupLine => ({ html: 'x', indent: 0, status: 'same', from: '', removedBefore: [], cutAbove: false, notes: [], ...over });

describe('paneMarkup', () => {
  it('escapes every text field', () => {
    const html = paneMarkup({
      offset: 7,
      kind: 'rejected',
      idPrefix: 'p',
      heading: EVIL,
      model: EVIL,
      eventType: EVIL,
      rejected: EVIL,
      typeOf: () => EVIL,
      lines: [line({ html: markedText(EVIL), from: '3', removedBefore: [EVIL], notes: [{ id: 'n"1', comment: EVIL }] })],
      removedAtEnd: [EVIL],
    });
    expect(html).not.toMatch(/<script|<img|<\/textarea|" onmouseover/);
    expect(html.split(escapeHtml(EVIL)).length - 1).toBeGreaterThanOrEqual(6);
    expect(html).toContain('id="n&quot;1"');
  });

  it('writes the cut, notes, signs and a provenance link per run of lines', () => {
    const html = paneMarkup({
      offset: 9,
      kind: 'request',
      idPrefix: 'pane',
      model: 'm',
      cachedPercent: 42,
      typeOf: (o) => (o === '3' ? 'user/said' : ''),
      linkBase: '/s/x/',
      lines: [
        line({ from: '3' }),
        line({ from: '3', cutAbove: true, status: 'added', indent: 2 }),
        line({ from: '3 5', status: 'changed', notes: [{ id: 'pane-n2-0', comment: 'why' }] }),
      ],
      removedAtEnd: ['gone'],
      diffBase: { kind: 'request', offset: 4 },
    });
    expect(html.match(/class="prov"/g)).toHaveLength(2);
    expect(html).toContain('<span class="gutter"><a class="prov" href="/s/x/#@3" title="from @3 user/said" data-off="3">@3</a></span>');
    // only a run's first line has a gutter element (the others paint the column themselves)
    expect(html.match(/class="gutter"/g)).toHaveLength(2);
    expect(html).toContain('title="from @3 user/said; from @5"');
    expect(html.indexOf('class="cut"')).toBeLessThan(html.indexOf('s-added'));
    expect(html).toContain('class="ln s-added i2"');
    expect(html).toContain(
      '<span class="story-label">Since request @4:</span> <span class="count c-add">+1 added</span> <span class="count c-chg">~1 changed</span> <span class="count c-rem">−1 removed</span>',
    );
    // the gutter band is the stylesheet's, from where the ✂ row is: the pane says it is banded
    expect(html).toContain('<div class="code yaml banded review-view"');
    expect(html).not.toMatch(/c-cached|c-billed/);
    // provenance: on the first line of each run only (the hover finds it from there)
    expect(html.match(/data-from=/g)).toHaveLength(2);
    // an unchanged line has no status class and no sign; a changed one says what it is
    expect(html).not.toContain('s-same');
    expect(html.match(/class="sign"/g)).toHaveLength(3);
    expect(html).toContain('<strong>✂ cache cut</strong>');
    expect(html).toContain('<div class="note" role="note" id="pane-n2-0">');
    expect(html).toContain('42% byte-stable prefix');
    expect(html.startsWith('<section class="pane" id="pane-9"')).toBe(true);
    // Out of the search index by class (pagefind.yml): gutter links, change signs, counts, badges
    // and the ✂ line — not the prompt text.
    expect(html).toContain('<span class="sign"><span aria-hidden="true">+</span><span class="visually-hidden">added</span></span>');
    expect(html).toContain('<p class="story" data-story="after">');
    expect(html).toContain('<div class="cut" role="separator"');
    expect(html).toContain('<span class="badge cached"');
    expect(html).not.toContain('data-pagefind-ignore');
  });

  it('says a first request has nothing cached yet instead of zero counts', () => {
    const html = paneMarkup({ offset: 2, kind: 'request', idPrefix: 'pane', typeOf: () => '', lines: [line({})], removedAtEnd: [] });
    expect(html).toContain('<p class="story" data-story="after">First request: nothing is cached yet.');
    expect(html).not.toContain('banded');
  });
});

describe('the ✂ line', () => {
  const pane = (kind: 'kept' | 'expired' | 'below-minimum') =>
    paneMarkup({
      offset: 9,
      kind: 'request',
      idPrefix: 'pane',
      typeOf: () => '',
      lines: [line({}), line({ cutAbove: true, status: 'added' })],
      removedAtEnd: [],
      diffBase: { kind: 'request', offset: 4 },
      econ: { text: 't', title: 'x', note: { above: '501 tokens above this line', events: [], kind, ...(kind !== 'kept' && { uncached: true as const }) } },
    });
  it('says the text above it is the cached prefix when the provider read it, and byte-stable but not read when it expired or is below the minimum', () => {
    expect(pane('kept')).toContain('↑ above: cached prefix, reused');
    for (const kind of ['expired', 'below-minimum'] as const) {
      expect(pane(kind)).toContain('↑ above: byte-stable, yet not read from the cache');
      expect(pane(kind)).not.toContain('cached prefix, reused');
    }
  });
});

describe('indent classes', () => {
  it('site.css defines every indent class the markup can write', () => {
    const css = readFileSync(join(import.meta.dirname, '../styles/site.css'), 'utf8');
    for (let n = 1; n <= INDENT_CLASSES; n++) expect(css).toContain(`.i${n}{--ind:${n}ch}`);
    const wide = paneMarkup({ offset: 1, kind: 'state', idPrefix: 'p', typeOf: () => '', lines: [line({ indent: INDENT_CLASSES + 1 })], removedAtEnd: [] });
    expect(wide).toContain(`style="--ind:${INDENT_CLASSES + 1}ch"`);
  });
});

describe('markedText', () => {
  it('marks ranges and escapes inside and outside them', () => {
    expect(markedText('a<b>c', [{ start: 1, end: 4, attrs: { class: 'anchor', 'data-notes': '"x' } }])).toBe('a<mark class="anchor" data-notes="&quot;x">&lt;b&gt;</mark>c');
  });
});
