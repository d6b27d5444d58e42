/**
 * The one writer of a prompt pane's markup: the printed request (or the state) as of one event —
 * its head (heading, model, share of input tokens cached, change counts), each line marked
 * added/changed since the previous event (a changed line shows its changed words), removed lines
 * struck through, the ✂ cache line, the request's cache breakpoints (a row under the line each ends
 * on), a tool call's readable input and the call a tool result answers (under its line, display only:
 * tool-readable.ts), the request linter's findings on it (one compact line each, src/request-lint/request-lint.ts),
 * annotations (the comment above its line), and a provenance gutter linking each run of lines
 * to the event that produced it.
 *
 * A line's markup is most of a page, so it carries only what a reader gets from it: a `<div>` child
 * of the lines box (no class to say it is a line: the stylesheet and scripts select it by where it
 * is), a class only for what is particular to it (its status `s-added`/`s-changed`/`s-removed`/
 * `s-was`, its hanging indent `i4` unless it is the usual one), the gutter link on a run's first line, and its text. The change
 * sign (+, ~, −) and its spoken word ("added", …) are the stylesheet's generated content, not
 * elements. A run's provenance is its link's offset; a run of several events also lists them all
 * (`data-from="10 11"`), and a run of none that follows another run says so (`data-from` with no
 * value) — the hover walks back from a line to its run's first line (pane-lines.ts). A blank line
 * of no event inside a run (between two paragraphs of one event) is written bare and the run goes
 * on after it; an empty line, bare, is therefore of no event (one of an event says `data-from`). The link's
 * title ("from @10 <its event type>") is written in the browser when it is pointed at or
 * focused (pane-lines.ts), from the timeline's cards, instead of into every page.
 *
 * Used at build time by Pane.astro (lines highlighted by shiki), in the browser by the scenario
 * page for panes sent as compact data (lines highlighted at build time), and by the playground
 * (lines highlighted in the browser). It is a pure function of plain data returning an HTML string,
 * so the three cannot drift apart. Every piece of text is escaped here; the one exception is each
 * line's `html`, which must come from a highlighter that escapes (shiki's serialiser, or
 * `escapeHtml` (escape.ts) or `markedText` below) — prompt text can never become markup.
 */
import type { Card, Pane } from '../prompt/view.ts';
import { BLOCK_INDENT } from '../prompt/print.ts';
import { CUT_COMMENT } from '../prompt/weave.ts';
import type { CutNote, PaneTokens } from '../economics/view.ts';
import type { CacheBadge } from './cache-badge.ts';
import { wordDiffHtml } from './word-diff-html.ts';
import { CUT_ABOVE, CUT_ABOVE_UNCACHED, CUT_BELOW, CUT_LABEL, noBaseStory, paneHeading, plural, storyLabel, type DiffBase, type PaneKind } from './pane-text.ts';
import { escapeHtml } from './escape.ts';

export type PaneLineStatus = 'same' | 'added' | 'changed';

export interface PaneMarkupLine {
  /** Inner HTML of the line's text: highlighted AND escaped (see the header). */
  html: string;
  /** Leading whitespace of the line's text, for the hanging indent of wrapped lines. */
  indent: number;
  status: PaneLineStatus;
  /** Event offsets the line came from, space-separated ('' when none). */
  from: string;
  /** Lines of the previous pane removed right before this line (plain text). */
  removedBefore: readonly string[];
  cutAbove: boolean;
  /** Annotations on this line: DOM id and comment (plain text; `html`, when given, is its safe markup). */
  notes: readonly { id: string; comment: string; html?: string }[];
  /**
   * A changed line's changed words (safe markup from word-diff-html.ts: its old text, the removed
   * words struck, the added ones marked, long unchanged runs shortened), shown above it when the
   * reader asks for it.
   */
  was?: string;
  /** The line is an abridgement's stand-in: the full text it replaces (plain text). */
  abridges?: string;
  /** Labels of the cache breakpoints right under this line (plain text, e.g. "cache breakpoint (5 min)"). */
  breakpoints?: readonly string[];
  /**
   * The line holds a tool call or result (an imported request): its readable companion, safe
   * markup from tool-readable.ts, shown under it. Display only: the line's text stays as sent.
   */
  tool?: string;
}

export interface PaneMarkup {
  offset: number;
  kind: PaneKind;
  /** DOM id prefix, unique per page. */
  idPrefix: string;
  /** Overrides the default heading ("Request @N", "As of @N", …). */
  heading?: string;
  selected?: boolean;
  /** The event belongs to a base scenario. */
  shared?: boolean;
  /** The request's model (requests only). */
  model?: string;
  /** The event's type, shown in the head of non-request panes. */
  eventType?: string;
  rejected?: string;
  lines: readonly PaneMarkupLine[];
  removedAtEnd: readonly string[];
  /** Prefix of provenance links: '' on the scenario's own page, its URL elsewhere. */
  linkBase?: string;
  /** Markup of a before/after review of this request (already escaped by its own renderer). */
  reviewHtml?: string;
  /** Markup of the request's provider wire views (WireViews.astro; escaped by its own renderer). */
  wireHtml?: string;
  /**
   * The request's cache economics (economics/view.ts): token figures for the header, the note
   * under the ✂ line, and the header's one percentage — cached tokens (cache-badge.ts).
   */
  econ?: PaneTokens & { note?: CutNote; cached?: CacheBadge };
  /**
   * The economics are on their way (the playground's tokenizer tables, a megabyte, load after the
   * first pane): the header and each ✂ line keep a "counting tokens…" in their place, so the pane
   * does not move when the figures arrive.
   */
  econPending?: true;
  /** What the line marks compare with: the previous request (requests) or event (states); none: the first. */
  diffBase?: DiffBase | null;
  /** The review's one-line summary for the header, when there is a review. */
  review?: { beforeLabel: string; status: string; added: number; removed: number; tokens?: string };
  /** The request linter's findings on this request (plain text; `url`: the provider's documented rule). */
  lint?: readonly PaneFinding[];
  /** What the provider billed for this request (economics/billed.ts): shown beside the model's figures, which are then labelled modelled. */
  billed?: { text: string; title: string };
}

/** A lint finding as the pane shows it. */
export interface PaneFinding {
  severity: 'error' | 'warning';
  rule: string;
  message: string;
  url: string;
}

/**
 * The findings, one compact line each: severity, rule, message, and a link to the provider's rule
 * (only an https page is a link: a project's own figure cites its config file, shown as text).
 */
function lintMarkup(findings: readonly PaneFinding[]): string {
  const e = escapeHtml;
  const rows = findings.map((f) => {
    const rule = /^https:\/\//.test(f.url) ? `<a href="${e(f.url)}" rel="noreferrer">the provider’s rule</a>` : `the rule: ${e(f.url)}`;
    return `<li class="lint-${f.severity}"><strong>${f.severity}</strong> <code>${e(f.rule)}</code> ${e(f.message)} (${rule})</li>`;
  });
  return `<ul class="lint" aria-label="Request lint">${rows.join('')}</ul>`;
}

/** Plain text as line HTML, with `<mark>` around the given ranges (annotations' anchored text). */
export function markedText(text: string, marks: readonly { start: number; end: number; attrs: Record<string, string> }[] = []): string {
  let out = '';
  let at = 0;
  for (const m of [...marks].filter((m) => m.end > m.start).sort((a, b) => a.start - b.start)) {
    if (m.start < at) continue; // overlapping: the first wins (shiki's path merges them instead)
    const attrs = Object.entries(m.attrs)
      .map(([k, v]) => ` ${k}="${escapeHtml(v)}"`)
      .join('');
    out += `${escapeHtml(text.slice(at, m.start))}<mark${attrs}>${escapeHtml(text.slice(m.start, m.end))}</mark>`;
    at = m.end;
  }
  return out + escapeHtml(text.slice(at));
}

/** The leading-whitespace width of a line of text. */
export const indentOf = (text: string): number => text.length - text.trimStart().length;

export const defaultHeading = (kind: PaneKind, offset: number): string => paneHeading(kind, offset);

const CUT_TEXT = escapeHtml(CUT_COMMENT.replace(/^✂ /, ''));
const cutRow = (above: string): string =>
  `<div class="cut" role="separator" aria-label="${escapeHtml(`${CUT_LABEL}: ${above}; ${CUT_BELOW}`)}"><strong>${escapeHtml(CUT_LABEL)}</strong> <span class="cut-above">↑ ${escapeHtml(above)}</span> <span class="cut-below">↓ ${escapeHtml(CUT_BELOW)}</span><span class="visually-hidden"> (${CUT_TEXT})</span></div>`;
/** The economics' places while they load (PaneMarkup.econPending). */
const ECON_PENDING_BADGE = '<span class="badge econ-pending" aria-busy="true">counting tokens…</span>';
const CUT_NOTE_PENDING = '<div class="cut-econ pending" role="note" aria-busy="true"><span>counting tokens…</span></div>';

const CUT_ROW = cutRow(CUT_ABOVE);
/** When the provider read nothing above the line although it is byte-stable (expired, below the minimum, or too short after a break). */
const CUT_ROW_UNCACHED = cutRow(CUT_ABOVE_UNCACHED);

/**
 * Hanging indents up to this width are a class (`i4`: the rules are in src/styles/site.css), wider
 * ones an inline style: most prompt lines are indented, and a class is a sixth of the bytes.
 */
export const INDENT_CLASSES = 32;
/**
 * The hanging indent a line of the lines box has without a class (site.css sets it on the box): the
 * printed indent of a message's content block (print.ts BLOCK_INDENT), which most lines of a prompt
 * have. A line at another indent says so (`i0` … `i32`); an empty line, which cannot wrap, never.
 */
export const DEFAULT_INDENT = BLOCK_INDENT.length;
/** A line's class attribute (its status class, '' for none, and its indent) and indent style. */
function lineAttrs(n: number, status: string, empty = false): string {
  const cls = n !== DEFAULT_INDENT && n <= INDENT_CLASSES && !(empty && n === 0) ? `${status}${status && ' '}i${n}` : status;
  return `${cls ? ` class="${cls}"` : ''}${n > INDENT_CLASSES ? ` style="--pfe-ind:${n}ch"` : ''}`;
}

/**
 * A very long pane folds its long quiet runs (a long session's request printed 85,000 px):
 * a pane of more than FOLD_MIN_LINES lines hides, in every run of lines with nothing on them but
 * text (no ✂, note, old text, removed line, abridgement or breakpoint), all but FOLD_CONTEXT lines at
 * each end when that hides at least FOLD_MIN_HIDDEN. The hidden lines stay in the page, in place
 * (the lines box keeps one element per line, which pane-lines.ts reads), marked `data-folded="<k>"`;
 * a button row before them says how many and what kind, and shows them
 * (components/RequestColumn/pf-request-column.ts).
 * Only a scenario page's column hides them (site.css), and only with scripting: without it, or
 * elsewhere (the playground), every line shows.
 */
export const FOLD_MIN_LINES = 500;
const FOLD_CONTEXT = 5;
const FOLD_MIN_HIDDEN = 100;

/** The folded runs: first hidden line index → one past the last. */
export function foldRuns(lines: readonly PaneMarkupLine[]): Map<number, number> {
  const out = new Map<number, number>();
  if (lines.length <= FOLD_MIN_LINES) return out;
  const quiet = (l: PaneMarkupLine): boolean =>
    !l.cutAbove && !l.notes.length && l.was === undefined && !l.removedBefore.length && l.abridges === undefined && l.tool === undefined && !l.breakpoints?.length;
  for (let i = 0; i < lines.length; ) {
    if (!quiet(lines[i]!)) {
      i++;
      continue;
    }
    let end = i;
    // A run ends before a line that is not quiet; the ✂ and removed rows sit before their line, so that line starts the next run.
    while (end < lines.length && quiet(lines[end]!)) end++;
    if (end - i - 2 * FOLD_CONTEXT >= FOLD_MIN_HIDDEN) out.set(i + FOLD_CONTEXT, end - FOLD_CONTEXT);
    i = end;
  }
  return out;
}

/**
 * The blank lines a run passes through: lines with no text and no event (a paragraph break inside
 * one event's content) between two lines of the same events. Writing them bare, rather than ending
 * the run there and starting it again with a second gutter link, keeps a long prompt's markup near
 * its text: most paragraphs of a prompt are followed by a blank line.
 */
export function passThrough(lines: readonly PaneMarkupLine[]): Set<number> {
  const out = new Set<number>();
  const blank = (l: PaneMarkupLine): boolean => l.html === '' && l.from === '';
  for (let i = 1; i < lines.length; i++) {
    if (!blank(lines[i]!) || !lines[i - 1]!.from) continue;
    let j = i;
    while (j < lines.length && blank(lines[j]!)) j++;
    if (j < lines.length && lines[j]!.from === lines[i - 1]!.from) for (let k = i; k < j; k++) out.add(k);
    i = j - 1;
  }
  return out;
}

/** The row before a folded run: its button says how many lines it shows, and of which kind. */
function foldRow(k: number, lines: readonly PaneMarkupLine[]): string {
  const added = lines.filter((l) => l.status === 'added').length;
  const kinds = [added && `${added.toLocaleString('en')} added`, lines.length - added && `${(lines.length - added).toLocaleString('en')} sent before`].filter(Boolean).join(', ');
  return `<div role="group" class="fold-row" aria-label="Folded lines"><button type="button" data-fold="${k}" aria-expanded="false">⋯ ${lines.length.toLocaleString('en')} lines folded (${kinds}) — show them</button></div>`;
}

/** A removed line hangs at the start of its text's line (its own indent is not measured). */
const removedRow = (text: string): string => `<div${lineAttrs(0, 's-removed', text === '')}>${escapeHtml(text)}</div>`;
/**
 * A cache breakpoint under the line it ends on: where the request asks the provider to write a
 * cache entry (not the ✂ line, which is where the bytes stopped matching the previous request).
 * Its text is what is read aloud; the flag before it is the stylesheet's.
 */
const breakpointRow = (label: string): string => `<div class="bp" role="note">${escapeHtml(label)}</div>`;

/** The pane's `<section>`, as HTML. */
/** The note under the ✂ line: tokens above it; when the cache broke, the cause, the event that did it (a link selecting its card) and the tokens lost. */
function cutNoteMarkup(n: CutNote, base: string): string {
  const e = escapeHtml;
  const events = n.events.map((x) => `<a class="prov" href="${base}#@${x.offset}">${e(x.label)}</a>`).join(', ');
  return `<div class="cut-econ cause-${e(n.kind)}" role="note"><span>${e(n.above)}</span>${n.cause ? `<span> — ${e(n.cause)}</span>` : ''}${events ? `<span>, by ${events}</span>` : ''}${n.lost ? `<span> (${e(n.lost)})</span>` : ''}</div>`;
}

export function paneMarkup(p: PaneMarkup): string {
  const id = `${p.idPrefix}-${p.offset}`;
  const heading = p.heading ?? defaultHeading(p.kind, p.offset);
  const e = escapeHtml;
  let added = 0;
  let changed = 0;
  let removed = p.removedAtEnd.length;
  for (const l of p.lines) {
    if (l.status === 'added') added++;
    else if (l.status === 'changed') changed++;
    removed += l.removedBefore.length;
  }
  const out: string[] = [];
  out.push(
    `<section class="pane${p.selected ? ' selected' : ''}" id="${e(id)}" data-offset="${p.offset}" data-kind="${p.kind}"${p.shared ? ' data-shared' : ''} data-active="after" aria-labelledby="${e(id)}-h">`,
    `<div class="pane-head"><div class="pane-title"><h2 id="${e(id)}-h">${e(heading)}</h2>`,
  );
  if (p.model) out.push(`<code>${e(p.model)}</code>`);
  // With a bill, the model's figures are labelled as such and the bill's line sits beside them.
  const modelled = p.billed ? 'modelled: ' : '';
  if (p.econ?.cached) out.push(`<span class="badge cached" title="${e(p.econ.cached.title)}">${e(modelled + p.econ.cached.text)}</span>`);
  if (p.econ) out.push(`<span class="badge econ-tokens" title="${e(p.econ.title)}"><span class="visually-hidden">Input tokens: </span>${e(modelled + p.econ.text)}</span>`);
  else if (p.econPending) out.push(ECON_PENDING_BADGE);
  if (p.billed) out.push(`<span class="badge billed" title="${e(p.billed.title)}">${e(p.billed.text)}</span>`);
  if (p.kind !== 'request' && p.eventType) out.push(`<span class="muted">${e(p.eventType)}</span>`);
  out.push('</div>');
  const label = storyLabel(p.diffBase ?? null);
  if (label === null) out.push(`<p class="story" data-story="after">${e(p.econ?.firstStory ?? noBaseStory(p.kind))}</p>`);
  else {
    out.push(
      `<p class="story" data-story="after"><span class="story-label">${e(label)}</span> <span class="count c-add">+${added} added</span> <span class="count c-chg">~${changed} changed</span> <span class="count c-rem">−${removed} removed</span>`,
      changed ? ' <button type="button" class="show-old" aria-pressed="false" hidden>show the changed words</button>' : '',
      '</p>',
    );
  }
  if (p.review) {
    const r = p.review;
    out.push(
      `<p class="story" data-story="review"><span class="story-label">Compared with ${e(r.beforeLabel)}:</span> <span class="badge changed status-${e(r.status)}">${r.status === 'unchanged' ? 'same in both' : e(r.status)}</span> <span class="count c-add">+${plural(r.added, 'line')}</span> <span class="count c-rem">−${plural(r.removed, 'line')}</span>${r.tokens ? ` <span class="review-tokens">Tokens: ${e(r.tokens)}</span>` : ''}</p>`,
      '<div class="review-tabs" role="group" aria-label="Before and after views" hidden><button type="button" data-view="before" aria-pressed="false">Before</button><button type="button" data-view="after" aria-pressed="true">After</button><button type="button" data-view="unified" aria-pressed="false">Diff</button><button type="button" data-view="split" aria-pressed="false">Side by side</button></div>',
    );
  }
  out.push('</div>');
  if (p.rejected) out.push(`<p class="rejected">Not sent: ${e(p.rejected)}</p>`);
  if (p.lint?.length) out.push(lintMarkup(p.lint));
  if (p.kind === 'state') out.push('<p class="muted visually-hidden">The messages the model would read if a request were sent right after this event.</p>');
  if (p.wireHtml) out.push(p.wireHtml);
  // The gutter band — which side of the ✂ line a request's line is on (requests after the first
  // only) — is drawn by the stylesheet from where the ✂ row is (`.banded`), not written per line.
  const banded = p.kind === 'request' && !!p.diffBase;
  out.push(
    `<div class="reviewable${p.reviewHtml ? ' has-review' : ''}">`,
    `<div class="code yaml${banded ? ' banded' : ''} review-view" data-view="after" role="region" aria-label="${e(heading)} — prompt text" tabindex="0">`,
  );
  const base = e(p.linkBase ?? '');
  const folds = foldRuns(p.lines);
  const through = passThrough(p.lines);
  /** The provenance of the run the lines are in (a pass-through blank line leaves it as it is). */
  let run: string | undefined;
  let foldEnd = -1;
  let fold = -1;
  p.lines.forEach((l, i) => {
    if (folds.has(i)) {
      foldEnd = folds.get(i)!;
      fold++;
      out.push(foldRow(fold, p.lines.slice(i, foldEnd)));
    }
    const folded = i < foldEnd ? ` data-folded="${fold}"` : '';
    for (const r of l.removedBefore) out.push(removedRow(r));
    if (l.cutAbove) out.push(p.econ?.note?.uncached ? CUT_ROW_UNCACHED : CUT_ROW);
    if (l.cutAbove && p.econ?.note) out.push(cutNoteMarkup(p.econ.note, base));
    else if (l.cutAbove && !p.econ && p.econPending) out.push(CUT_NOTE_PENDING);
    for (const n of l.notes) out.push(`<div class="note" role="note" id="${e(n.id)}"><span class="visually-hidden">Annotation: </span>${n.html ?? e(n.comment)}</div>`);
    if (l.was !== undefined) out.push(`<div${lineAttrs(l.indent, 's-was', l.was === '')}>${l.was}</div>`);
    // A run of lines from the same events: its first line carries the provenance — the gutter link
    // to its first event, `data-from` listing all of them when there are several, a bare
    // `data-from` when there are none after a run that had some — and the rest of the run inherits
    // it (pane-lines.ts reads it back). The status sign is the stylesheet's (see the header).
    // A blank line of no event between two lines of the same run neither ends nor restarts it: it
    // is written bare (pane-lines.ts reads an empty line with no provenance of its own as none).
    const runStart = !through.has(i) && l.from !== run;
    const offs = runStart && l.from ? l.from.split(' ') : [];
    // An empty line of some event must say so itself: a bare empty line reads as a blank of none.
    const own = l.from && !runStart && l.html === '' ? ` data-from="${e(l.from)}"` : '';
    const from = offs.length > 1 ? ` data-from="${e(l.from)}"` : runStart && i > 0 && !l.from ? ' data-from' : own;
    if (!through.has(i)) run = l.from;
    const gutter = offs.length ? `<span class="gutter"><a href="${base}#@${e(offs[0]!)}">@${e(offs[0]!)}</a></span>` : '';
    out.push(`<div${lineAttrs(l.indent, l.status === 'same' ? '' : `s-${l.status}`, l.html === '')}${from}${folded}>`, `${gutter}${l.html}</div>`);
    if (l.abridges !== undefined) {
      out.push(
        `<details class="abridged"><summary>Abridged above — show the full text (${l.abridges.length.toLocaleString('en')} characters)</summary><pre>${e(l.abridges)}</pre></details>`,
      );
    }
    if (l.tool !== undefined) out.push(l.tool);
    for (const b of l.breakpoints ?? []) out.push(breakpointRow(b));
  });
  for (const r of p.removedAtEnd) out.push(removedRow(r));
  out.push('</div>', p.reviewHtml ?? '', '</div></section>');
  return out.join('');
}

/**
 * The markup input for a page-model pane whose lines are already highlighted (`html[i]` for line
 * i; annotation marks carry `data-notes="<idPrefix>-n<line>-<k>"`, matching the notes' ids).
 */
export function fromPane(
  pane: Pane,
  cards: readonly Card[],
  html: readonly string[],
  opts: {
    idPrefix: string;
    selected?: boolean;
    shared?: boolean;
    heading?: string;
    linkBase?: string;
    reviewHtml?: string;
    wireHtml?: string;
    review?: PaneMarkup['review'];
    econ?: PaneMarkup['econ'];
    econPending?: true;
    lint?: PaneMarkup['lint'];
    billed?: PaneMarkup['billed'];
    /** Safe markup of an annotation comment (e.g. inline Markdown); default: the escaped text. */
    commentHtml?: (comment: string) => string;
    /**
     * The readable companions of its tool call and result lines, by line index (safe markup,
     * tool-readable.ts). Given by the caller: that module uses the `yaml` package, which the
     * scenario page's script (this module's other user) must not carry.
     */
    tools?: ReadonlyMap<number, string>;
  },
): PaneMarkup {
  const { commentHtml, tools, ...rest } = opts;
  const typeByOffset = new Map(cards.map((c) => [String(c.offset), c.type]));
  return {
    ...rest,
    offset: pane.offset,
    kind: pane.kind,
    diffBase: pane.diffBase ?? null,
    ...(pane.kind === 'request' && { model: pane.lines[0]?.text.replace(/^model: /, '') ?? '' }),
    ...(pane.kind !== 'request' && { eventType: typeByOffset.get(String(pane.offset)) ?? '' }),
    ...(pane.rejected && { rejected: pane.rejected }),
    lines: pane.lines.map((l, i) => ({
      html: html[i]!,
      indent: indentOf(l.text),
      status: l.status,
      from: l.from.join(' '),
      removedBefore: l.removedBefore,
      cutAbove: l.cutAbove,
      notes: l.notes.map((n, k) => ({ id: `${opts.idPrefix}-n${i}-${k}`, comment: n.comment, ...(commentHtml && { html: commentHtml(n.comment) }) })),
      ...(l.old !== undefined && { was: wordDiffHtml(l.words ?? [{ op: '-', text: l.old }]) }),
      ...(l.abridges !== undefined && { abridges: l.abridges }),
      ...(l.breakpoints && { breakpoints: l.breakpoints }),
      ...(tools?.has(i) && { tool: tools.get(i)! }),
    })),
    removedAtEnd: pane.removedAtEnd,
  };
}

/** Where a pane's annotations are marked in its lines (the highlighter turns them into <mark>s). */
export function noteMarks(pane: Pane, idPrefix: string): { line: number; start: number; end: number; attrs: Record<string, string> }[] {
  return pane.lines.flatMap((l, i) => l.notes.map((n, k) => ({ line: i, start: n.start, end: n.end, attrs: { class: 'anchor', 'data-notes': `${idPrefix}-n${i}-${k}` } })));
}
