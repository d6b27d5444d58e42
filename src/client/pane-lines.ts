/**
 * Reading a pane's prompt lines back in the browser (the scenario page and the playground): which
 * element is a prompt line, the events a line came from, and its provenance link's title. The
 * markup (pane-markup.ts) writes each of these once per run of lines, or not at all, to keep pages
 * small; this module is the one place that knows how to find them again.
 */
import { provenanceTitle } from '../render/pane-text.ts';

/**
 * A pane's printed lines: the `<div>` children of its lines box (`.code.review-view`, written by
 * pane-markup.ts) that are not a ✂ line, note or cut note (those have a role). Removed lines and a
 * changed line's old text are among them, marked `s-removed` / `s-was`.
 */
export const PANE_LINE = '.code.review-view > div:not([role])';
/** The pane's current lines only (not removed lines nor old text): one per line of the request. */
export const CURRENT_LINE = '.code.review-view > div:not([role], .s-removed, .s-was)';

/** The pane line an element is in, or null. */
export const paneLineOf = (el: Element): HTMLElement | null => el.closest<HTMLElement>(PANE_LINE);

/**
 * The events a prompt line came from, space-separated ('' for none): its run's, from the run's
 * first line — the nearest current line above it (or itself) with a gutter link or `data-from`
 * (which, when present, lists them all; bare, it says none). Removed and old-text rows have none,
 * and so has an empty line without `data-from` (a blank line a run passes through, pane-markup.ts).
 */
export function provenanceOf(line: Element): string {
  if (!line.matches(CURRENT_LINE)) return '';
  if (!line.hasChildNodes() && !line.hasAttribute('data-from')) return '';
  for (let l: Element | null = line; l; l = l.previousElementSibling) {
    if (!l.matches(CURRENT_LINE)) continue;
    const from = l.getAttribute('data-from');
    if (from !== null) return from;
    const link = l.querySelector(':scope > .gutter > a');
    if (link) return linkOffset(link) ?? '';
  }
  return '';
}

/** The event offset a provenance link (or any `#@N` link) points at. */
export const linkOffset = (a: Element): string | undefined => /#@(\d+)$/.exec(a.getAttribute('href') ?? '')?.[1];

/**
 * When a pane line's provenance link is pointed at or focused (`target` of a mouseover/focusin):
 * gives it its title, "from @10 <its event type>; from @11 …" — the run's events and their
 * types (`typeOf`: the timeline's, '' when unknown).
 */
export function titleProvenanceLink(target: EventTarget | null, typeOf: (offset: string) => string): void {
  if (!(target instanceof Element)) return;
  const a = target.closest('.gutter > a');
  const line = a?.parentElement?.parentElement;
  if (!a || !line?.matches(CURRENT_LINE)) return;
  const title = provenanceTitle(provenanceOf(line), typeOf);
  if (a.getAttribute('title') !== title) a.setAttribute('title', title);
}
