/**
 * The pane's cache breakpoint rows: the page model puts a request's breakpoints under the lines
 * they end on (the same positions as the fixture's `# ⚑` comments), the shared writer prints one
 * small escaped row each — not a printed line (it has a role), distinct from the ✂ line — and the
 * compact page data carries them to panes built in the browser.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { renderTexts } from '../corpus/check.ts';
import { scenarioView } from '../prompt/view.ts';
import { encodePanes } from './pane-data.ts';
import { escapeHtml } from './escape.ts';
import { fromPane, paneMarkup, type PaneMarkupLine } from './pane-markup.ts';

const EVIL = '<img src=x onerror=alert(1)>';
const line = (over: Partial<PaneMarkupLine> = {}): PaneMarkupLine => ({ html: 'x', indent: 0, status: 'same', from: '', removedBefore: [], cutAbove: false, notes: [], ...over });

describe('breakpoint rows', () => {
  it('one escaped row under its line, after the line (and before the next line’s ✂ row)', () => {
    const html = paneMarkup({
      offset: 3,
      kind: 'request',
      idPrefix: 'p',
      lines: [line({ html: 'a', breakpoints: ['cache breakpoint (1 h)', EVIL] }), line({ html: 'b', cutAbove: true })],
      removedAtEnd: [],
    });
    const body = html.slice(html.indexOf('review-view'));
    expect(body).toContain(`>a</div><div class="bp" role="note">cache breakpoint (1 h)</div><div class="bp" role="note">${escapeHtml(EVIL)}</div><div class="cut"`);
    expect(html).not.toContain('<img');
  });

  it('the layered fold’s request panes carry them, at the fixture’s positions, and the page data keeps them', async () => {
    const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'layered' };
    const text = `id: x
title: X
fold: layered
events:
  - {off: 1, t: 0ms, type: entry/added, payload: {layer: L0, role: SYSTEM, sourceType: systemPrompt, content: "sys\\nmore"}}
  - {off: 2, t: 1s, type: entry/added, payload: {layer: L1, role: USER, sourceType: agentPrompt, content: task}}
  - {off: 3, t: 1s, type: entry/added, payload: {layer: L1, role: USER, sourceType: retryFeedback, content: retry}}
  - {off: 4, t: 2s, type: request, payload: {model: m}}
`;
    const r = await renderTexts([{ file: 'scenarios/x.yaml', text }], config, { everyEvent: true });
    expect(r.errors).toEqual([]);
    const view = await scenarioView(r.scenarios[0]!);
    const pane = view.panes.find((p) => p.offset === 4)!;
    const under = pane.lines.flatMap((l) => (l.breakpoints ?? []).map((b) => `${l.text.trim()} | ${b}`));
    expect(under).toEqual(['more | cache breakpoint', 'content: "task" | cache breakpoint']);
    // State panes (not a send) carry none.
    expect(view.panes.filter((p) => p.kind !== 'request').flatMap((p) => p.lines.filter((l) => l.breakpoints))).toEqual([]);
    const markup = paneMarkup(
      fromPane(
        pane,
        view.cards,
        pane.lines.map((l) => escapeHtml(l.text)),
        { idPrefix: 'pane' },
      ),
    );
    expect(markup.match(/class="bp"/g)).toHaveLength(2);
    const data = await encodePanes([pane]);
    const bp = data.panes[4]!.bp!;
    expect([bp[0], data.text[bp[1]!], bp[2], data.text[bp[3]!]]).toEqual([
      pane.lines.findIndex((l) => l.breakpoints),
      'cache breakpoint',
      pane.lines.findLastIndex((l) => l.breakpoints),
      'cache breakpoint',
    ]);
  });
});
