/**
 * The words of a pane, shared by the build-time pane (Pane.astro) and the panes the page script
 * builds in the browser (scenario-page.ts), so both say exactly the same: the heading, the one-line
 * story of what the line marks compare with, the cut's label, a provenance link's title and the
 * sentence announced to screen readers on selection. Browser-safe: plain strings, no markup.
 */

export type PaneKind = 'request' | 'state' | 'rejected';

/** What a pane's line marks compare with (see view.ts Pane.diffBase). */
export interface DiffBase {
  kind: 'request' | 'event';
  offset: number;
}

export function paneHeading(kind: PaneKind, offset: number | string): string {
  return kind === 'request' ? `Request @${offset}` : kind === 'rejected' ? `@${offset}: request not accepted` : `As of @${offset}`;
}

/** "1 line", "2 lines". */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The label before the counts: what the +/~/− marks are relative to (null: nothing to compare with). */
export function storyLabel(base: DiffBase | null): string | null {
  if (!base) return null;
  return base.kind === 'request' ? `Since request @${base.offset}:` : `Since @${base.offset}:`;
}

/** What a pane with nothing to compare with says instead of zero counts. */
export const noBaseStory = (kind: PaneKind): string => (kind === 'request' ? FIRST_REQUEST : 'The first event: nothing before it to compare with.');

/** The first request of a chain has no diff and no cut: say so instead of showing zero counts. */
export const FIRST_REQUEST =
  'First request: nothing is cached yet. When the prompt reaches the provider’s minimum, the provider writes it to its cache at its breakpoints, and a later request reads an entry whose bytes it repeats exactly.';

export const CUT_LABEL = '✂ cache cut';
export const CUT_ABOVE = 'above: cached prefix, reused';
export const CUT_BELOW = 'below: sent again and billed in full';
/** The text above the ✂ line is byte-stable, but the provider did not read it from its cache (expired, or below its minimum): the note under the line says which. */
export const CUT_ABOVE_UNCACHED = 'above: byte-stable, yet not read from the cache';

/** The one line a screen reader hears when an event is selected (not the whole prompt). */
export function announcement(kind: PaneKind, offset: number | string, cachedPercent: number | undefined, type: string): string {
  if (kind === 'request') return `Request @${offset}, ${cachedPercent === undefined ? 'first request, nothing cached yet' : `${cachedPercent} % cached`}`;
  if (kind === 'rejected') return `@${offset}: request not accepted`;
  return `As of @${offset}${type ? `, ${type}` : ''}`;
}

/** A provenance link's title: the events a run of lines came from ("10 11"), each with its type ('' when unknown). */
export const provenanceTitle = (from: string, typeOf: (offset: string) => string): string =>
  from
    .split(' ')
    .filter(Boolean)
    .map((o) => `from @${o} ${typeOf(o)}`.trimEnd())
    .join('; ');
