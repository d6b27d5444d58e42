/**
 * The shared pane writer escapes every piece of text it is given (prompt text, comments, removed
 * lines, reasons, model, types) — hostile text stays text — and writes the structure the page
 * script and the styles rely on (✂ line, notes, provenance links only where a run starts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from './escape.ts';
import { DEFAULT_INDENT, FOLD_MIN_LINES, foldRuns, INDENT_CLASSES, markedText, paneMarkup, passThrough, type PaneMarkupLine } from './pane-markup.ts';
import { provenanceTitle } from './pane-text.ts';

const EVIL = `<script>alert(1)</script>"' onmouseover="x" </textarea><img src=x onerror=alert(2)>`;
const line = (over: Partial<PaneMarkupLine> = {}): PaneMarkupLine => ({
  html: 'x',
  indent: DEFAULT_INDENT,
  status: 'same',
  from: '',
  removedBefore: [],
  cutAbove: false,
  notes: [],
  ...over,
});

describe('a very long pane folds its long quiet runs', () => {
  it('hides all but 5 lines at each end of a run of 100 or more, never a line with something on it, and says what it hides', () => {
    // 600 lines: a cut before line 300 (the run before it: 0–299), 20 added lines after it, then 280 lines sent before.
    const lines = Array.from({ length: 600 }, (_, i) => line({ html: `l${i}`, status: i >= 300 && i < 320 ? 'added' : 'same', cutAbove: i === 300 }));
    expect(lines.length).toBeGreaterThan(FOLD_MIN_LINES);
    // Runs: 0–299 (hides 5–294) and 301–599 (line 300 carries the ✂: hides 306–594).
    expect([...foldRuns(lines)]).toEqual([
      [5, 295],
      [306, 595],
    ]);
    const html = paneMarkup({ offset: 1, kind: 'request', idPrefix: 'pane', lines, removedAtEnd: [] });
    expect(html).toContain('<button type="button" data-fold="0" aria-expanded="false">⋯ 290 lines folded (290 sent before) — show them</button>');
    expect(html).toContain('⋯ 289 lines folded (14 added, 275 sent before) — show them');
    // Every line is still in the page, in order; the folded ones marked with their run.
    expect(html.match(/>l\d+</g)).toHaveLength(600);
    expect(html.match(/data-folded="0"/g)).toHaveLength(290);
    expect(html).toMatch(/<div data-folded="0">l5<\/div>/);
    expect(html).toMatch(/<div>l4<\/div>/);
    expect(html).toMatch(/<div>l295<\/div>/);
  });

  it('never folds a tool call’s line: its readable companion follows it, unfolded', () => {
    const tool = '<details class="tool-readable"><summary>Tool call <b>Edit</b></summary><pre>  a: 1</pre></details>';
    const lines = Array.from({ length: 600 }, (_, i) => line({ html: `l${i}`, ...(i === 300 && { tool }) }));
    // Runs: 0–299 (hides 5–294) and 301–599 (hides 306–594); line 300 is in neither.
    expect([...foldRuns(lines)]).toEqual([
      [5, 295],
      [306, 595],
    ]);
    expect(paneMarkup({ offset: 1, kind: 'request', idPrefix: 'pane', lines, removedAtEnd: [] })).toContain(`<div>l300</div>${tool}<div>l301</div>`);
  });

  it('leaves a pane of FOLD_MIN_LINES lines or fewer alone', () => {
    expect(foldRuns(Array.from({ length: FOLD_MIN_LINES }, () => line())).size).toBe(0);
  });
});

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
      econ: { text: 'cached 0 · new 9 · 9 tokens · $0.1', title: 't', cached: { text: '0 % cached — below the 1,024-token minimum', title: '0 of 9' } },
      linkBase: '/s/x/',
      lines: [
        line({ from: '3' }),
        line({ from: '3', cutAbove: true, status: 'added', indent: 2 }),
        line({ from: '3 5', status: 'changed', notes: [{ id: 'pane-n2-0', comment: 'why' }] }),
      ],
      removedAtEnd: ['gone'],
      diffBase: { kind: 'request', offset: 4 },
    });
    // only a run's first line has a gutter element (the others paint the column themselves); its
    // link is all it says: the title is written in the browser (pane-lines.ts), the offset is the href's
    expect(html.match(/<span class="gutter"><a href="\/s\/x\/#@3">@3<\/a><\/span>/g)).toHaveLength(2);
    expect(html).not.toMatch(/class="gutter"><a [^>]*(title|data-off|class)=/);
    expect(html.indexOf('class="cut"')).toBeLessThan(html.indexOf('s-added'));
    // a line's classes are its status and indent only (it is a line by where it is)
    expect(html).toContain('<div class="s-added i2">');
    expect(html).not.toMatch(/class="ln/);
    expect(html).toContain(
      '<span class="story-label">Since request @4:</span> <span class="count c-add">+1 added</span> <span class="count c-chg">~1 changed</span> <span class="count c-rem">−1 removed</span>',
    );
    // the gutter band is the stylesheet's, from where the ✂ row is: the pane says it is banded
    expect(html).toContain('<div class="code yaml banded review-view"');
    expect(html).not.toMatch(/c-cached|c-billed/);
    // provenance: a run of one event is its link; a run of several lists them (the hover reads both)
    expect(html.match(/data-from/g)).toEqual(['data-from']);
    expect(html).toContain('<div class="s-changed" data-from="3 5"><span class="gutter"><a href="/s/x/#@3">@3</a></span>x</div>');
    // an unchanged line has no status class; the signs are the stylesheet's (site.css), no element
    expect(html).not.toContain('s-same');
    expect(html).not.toMatch(/class="sign"|visually-hidden">(added|changed|removed)/);
    expect(html).toContain('<div class="s-removed i0">gone</div>');
    expect(html).toContain('<strong>✂ cache cut</strong>');
    expect(html).toContain('<div class="note" role="note" id="pane-n2-0">');
    expect(html).toContain('<span class="badge cached" title="0 of 9">0 % cached — below the 1,024-token minimum</span>');
    expect(html.startsWith('<section class="pane" id="pane-9"')).toBe(true);
    // Out of the search index by class (EXCLUDE_SELECTORS, integration/search-index.ts): gutter links, counts, badges and the ✂ line
    // — not the prompt text.
    expect(html).toContain('<p class="story" data-story="after">');
    expect(html).toContain('<div class="cut" role="separator"');
    expect(html).toContain('<span class="badge cached"');
    expect(html).not.toContain('data-pagefind-ignore');
  });

  it('keeps the figures’ places while they load (the playground), in the header and under each ✂ line; the figures replace them', () => {
    const base = {
      offset: 9,
      kind: 'request' as const,
      idPrefix: 'pg',
      model: 'm',
      lines: [line({ from: '3' }), line({ from: '3', cutAbove: true }), line({ from: '5', cutAbove: true })],
      removedAtEnd: [],
    };
    const pending = paneMarkup({ ...base, econPending: true });
    expect(pending.match(/<span class="badge econ-pending" aria-busy="true">counting tokens…<\/span>/g)).toHaveLength(1);
    // One under each ✂ line, right after it.
    expect(pending.match(/<div class="cut-econ pending" role="note" aria-busy="true"><span>counting tokens…<\/span><\/div>/g)).toHaveLength(2);
    expect(pending.indexOf('cut-econ pending')).toBeGreaterThan(pending.indexOf('class="cut"'));
    const note = { above: '501 tokens above this line', events: [], kind: 'kept' as const };
    const ready = paneMarkup({ ...base, econPending: true, econ: { text: 'cached 0 · 9 tokens', title: 't', note } });
    expect(ready).not.toMatch(/econ-pending|cut-econ pending|counting tokens/);
    expect(ready.match(/class="cut-econ cause-kept"/g)).toHaveLength(2);
    // Without either (no economics configured): neither the places nor the figures.
    expect(paneMarkup(base)).not.toMatch(/econ-pending|cut-econ|econ-tokens/);
  });

  it('marks a run of no events only where one follows a run of some, and writes old text and removed lines as plain rows', () => {
    const html = paneMarkup({
      offset: 5,
      kind: 'request',
      idPrefix: 'pane',
      lines: [
        line({ html: 'a' }),
        line({ html: 'b', from: '2' }),
        line({ html: 'c' }),
        line({ html: 'd' }),
        line({ html: 'e', from: '2', status: 'changed', was: '<del>old</del> e', removedBefore: ['gone'] }),
      ],
      removedAtEnd: [],
      diffBase: { kind: 'request', offset: 4 },
    });
    const rows = html.slice(html.indexOf('prompt text" tabindex="0">') + 26, html.lastIndexOf('</div></div></section>')).split(/(?=<div)/);
    expect(rows).toEqual([
      '<div>a</div>', // the first run has nothing to follow: no mark
      '<div><span class="gutter"><a href="#@2">@2</a></span>b</div>',
      '<div data-from>c</div>',
      '<div>d</div>',
      '<div class="s-removed i0">gone</div>',
      '<div class="s-was"><del>old</del> e</div>',
      '<div class="s-changed"><span class="gutter"><a href="#@2">@2</a></span>e</div>',
    ]);
  });

  it('passes a run through the blank lines between its paragraphs: written bare, no second gutter link', () => {
    const html = paneMarkup({
      offset: 5,
      kind: 'request',
      idPrefix: 'pane',
      lines: [
        line({ html: 'a', from: '2' }),
        line({ html: '' }),
        line({ html: '', status: 'added' }),
        line({ html: 'b', from: '2' }),
        line({ html: '' }),
        line({ html: 'c', from: '3' }),
        line({ html: '', from: '3' }),
        line({ html: 'd', from: '3' }),
        line({ html: '' }),
      ],
      removedAtEnd: [],
      diffBase: { kind: 'request', offset: 4 },
    });
    const rows = html.slice(html.indexOf('prompt text" tabindex="0">') + 26, html.lastIndexOf('</div></div></section>')).split(/(?=<div)/);
    expect(rows).toEqual([
      '<div><span class="gutter"><a href="#@2">@2</a></span>a</div>',
      '<div></div>', // between two lines of @2: bare, of no event, and the run goes on
      '<div class="s-added"></div>',
      '<div>b</div>',
      '<div data-from></div>', // before a line of another event: ends the run, as before
      '<div><span class="gutter"><a href="#@3">@3</a></span>c</div>',
      '<div data-from="3"></div>', // an empty line of an event says so (bare would read as none)
      '<div>d</div>',
      '<div data-from></div>', // a trailing blank: nothing after it to continue
    ]);
    expect([...passThrough([line({ html: '' }), line({ html: 'x', from: '1' })])]).toEqual([]); // nothing before it to pass through
  });

  it('says a first request has nothing cached yet instead of zero counts', () => {
    const html = paneMarkup({ offset: 2, kind: 'request', idPrefix: 'pane', lines: [line({})], removedAtEnd: [] });
    expect(html).toContain('<p class="story" data-story="after">First request: nothing is cached yet.');
    expect(html).not.toContain('banded');
  });

  it('a first request that reads another scenario’s entry says so, escaped, instead', () => {
    const econ = { text: 'cached 5', title: 't', firstStory: 'First request of this conversation, but not of the cache it shares with `<p>`' };
    const html = paneMarkup({ offset: 2, kind: 'request', idPrefix: 'pane', lines: [line({})], removedAtEnd: [], econ });
    expect(html).toContain('<p class="story" data-story="after">First request of this conversation, but not of the cache it shares with `&lt;p&gt;`</p>');
    expect(html).not.toContain('nothing is cached yet');
  });
});

describe('the request lint line', () => {
  const pane = (lint: Parameters<typeof paneMarkup>[0]['lint']) =>
    paneMarkup({ offset: 4, kind: 'request', idPrefix: 'pane', lines: [line()], removedAtEnd: [], ...(lint && { lint }) });

  it('writes one compact line per finding — severity, rule, message, a link to the provider’s rule — escaped', () => {
    const html = pane([
      { severity: 'warning', rule: 'volatile-prefix', message: `request @4: ${EVIL}`, url: 'https://platform.claude.com/docs/en/build-with-claude/prompt-caching' },
      { severity: 'error', rule: 'ttl-order', message: 'request @4: breakpoint 2 asks for a 1-hour entry after a shorter one', url: `https://example.com/?a=1&b="${EVIL}` },
    ]);
    expect(html).not.toMatch(/<script|<img|" onmouseover/);
    const list = html.slice(html.indexOf('<ul class="lint"'), html.indexOf('</ul>') + 5);
    expect(list).toBe(
      `<ul class="lint" aria-label="Request lint"><li class="lint-warning"><strong>warning</strong> <code>volatile-prefix</code> request @4: ${escapeHtml(EVIL)} (<a href="https://platform.claude.com/docs/en/build-with-claude/prompt-caching" rel="noreferrer">the provider’s rule</a>)</li><li class="lint-error"><strong>error</strong> <code>ttl-order</code> request @4: breakpoint 2 asks for a 1-hour entry after a shorter one (<a href="${escapeHtml(`https://example.com/?a=1&b="${EVIL}`)}" rel="noreferrer">the provider’s rule</a>)</li></ul>`,
    );
  });

  it('links only an https page (a project’s own figure cites its config file, as text); no findings, no list', () => {
    const html = pane([{ severity: 'warning', rule: 'unread-write', message: 'm', url: 'javascript:alert(1)' }]);
    expect(html).not.toContain('<a href="javascript');
    expect(html).toContain('(the rule: javascript:alert(1))');
    expect(pane(undefined)).not.toContain('class="lint"');
    expect(pane([])).not.toContain('class="lint"');
  });

  it('site.css styles the list and both severities', () => {
    const css = readFileSync(join(import.meta.dirname, '../styles/site.css'), 'utf8');
    for (const sel of ['.pane .lint {', '.lint-error', '.lint-warning']) expect(css).toContain(sel);
  });
});

describe('the ✂ line', () => {
  const pane = (kind: 'kept' | 'expired' | 'below-minimum') =>
    paneMarkup({
      offset: 9,
      kind: 'request',
      idPrefix: 'pane',
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
  it('site.css defines every indent class the markup can write, and the lines box the usual one', () => {
    const css = readFileSync(join(import.meta.dirname, '../styles/site.css'), 'utf8');
    for (let n = 0; n <= INDENT_CLASSES; n++) expect(css).toContain(`.i${n}{--pfe-ind:${n}ch}`);
    expect(css).toContain(`.code.review-view { --pfe-ind: ${DEFAULT_INDENT}ch; }`);
    const wide = paneMarkup({ offset: 1, kind: 'state', idPrefix: 'p', lines: [line({ indent: INDENT_CLASSES + 1 })], removedAtEnd: [] });
    expect(wide).toContain(`style="--pfe-ind:${INDENT_CLASSES + 1}ch"`);
  });

  it("writes no class for the usual indent (a content block's six spaces) nor for an empty line; indent 0 says so", () => {
    expect(DEFAULT_INDENT).toBe(6);
    const html = paneMarkup({
      offset: 1,
      kind: 'state',
      idPrefix: 'p',
      lines: [
        line({ html: 'model: m', indent: 0 }),
        line({ html: '      text', indent: 6, status: 'added' }),
        line({ html: '', indent: 0 }),
        line({ html: '    content: |-', indent: 4, was: '<del>old</del>' }),
        line({ html: '      more', indent: 6, removedBefore: ['      gone', ''] }),
      ],
      removedAtEnd: [],
    });
    const rows = html.slice(html.indexOf('prompt text" tabindex="0">') + 26, html.lastIndexOf('</div></div></section>')).split(/(?=<div)/);
    expect(rows).toEqual([
      '<div class="i0">model: m</div>',
      '<div class="s-added">      text</div>',
      '<div></div>',
      '<div class="s-was i4"><del>old</del></div>',
      '<div class="i4">    content: |-</div>',
      '<div class="s-removed i0">      gone</div>', // a removed line hangs at 0, as before
      '<div class="s-removed"></div>',
      '<div>      more</div>',
    ]);
  });
});

describe('markedText', () => {
  it('marks ranges and escapes inside and outside them', () => {
    expect(markedText('a<b>c', [{ start: 1, end: 4, attrs: { class: 'anchor', 'data-notes': '"x' } }])).toBe('a<mark class="anchor" data-notes="&quot;x">&lt;b&gt;</mark>c');
  });
});

describe('provenanceTitle', () => {
  it('names each event of a run with its type, and leaves out a type it does not know', () => {
    expect(provenanceTitle('3 5', (o) => (o === '3' ? 'user/said' : ''))).toBe('from @3 user/said; from @5');
    expect(provenanceTitle('', () => 'x')).toBe('');
  });
});
