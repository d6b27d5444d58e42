/**
 * `<pf-pg-pane>`: the playground's request pane (PlaygroundPane.astro, beside it, writes the empty
 * element and imports this file in its `<script>`) — the same markup as a scenario page's pane
 * (../pane.ts), morphed in place so only the rows that changed are laid out again, marked stale
 * while the text has errors. A provenance link in it asks the page to select that event (`pf-select`,
 * detail: the offset); its title ("from @3 user/said") is written when pointed at or focused. Its
 * state is its private field: the last good view.
 */
import { linkOffset, titleProvenanceLink } from '../../client/pane-lines.ts';
import type { EngineResult } from '../engine.ts';
import { morphInto } from '../morph.ts';
import { playgroundPaneHtml } from '../pane.ts';
import type { WorkerResult } from '../protocol.ts';
import type { TokenTags } from '../source-view.ts';

export type View = NonNullable<EngineResult['view']>;

export class PlaygroundPane extends HTMLElement {
  /** The view last shown (kept, marked stale, while the text has errors). */
  #lastGood: View | undefined;

  connectedCallback(): void {
    this.addEventListener('click', (e) => {
      const a = (e.target as HTMLElement).closest<HTMLAnchorElement>('a.prov, .gutter > a');
      const off = a && linkOffset(a);
      if (!off) return;
      e.preventDefault();
      this.dispatchEvent(new CustomEvent<number>('pf-select', { detail: Number(off), bubbles: true }));
    });
    const typeOf = (off: string): string => this.#lastGood?.cards.find((c) => String(c.offset) === off)?.type ?? '';
    for (const type of ['mouseover', 'focusin'] as const) this.addEventListener(type, (e) => titleProvenanceLink(e.target, typeOf));
  }

  /** Shows a view; playground:markup and playground:render measure what the reader waits for. */
  show(view: View, tags: TokenTags): void {
    const t0 = performance.now();
    this.#lastGood = view;
    const sent = view as WorkerResult['view'];
    const html = playgroundPaneHtml(view.pane, view.cards, tags, sent?.econ, sent?.econPending);
    performance.measure('playground:markup', { start: t0, duration: performance.now() - t0 });
    morphInto(this, html); // only the rows that changed are replaced (and laid out again)
    this.removeAttribute('data-stale');
    void this.getBoundingClientRect().height; // style and layout, inside the measure
    performance.measure('playground:render', { start: t0, duration: performance.now() - t0 });
  }

  /** The text has errors: the last good view stays, marked stale. Returns whether there is one. */
  stale(): boolean {
    if (this.#lastGood) this.dataset.stale = '';
    return this.#lastGood !== undefined;
  }

  /** Another scenario was opened: the last view no longer stands for the text. */
  forget(): void {
    this.#lastGood = undefined;
  }
}

if (!customElements.get('pf-pg-pane')) customElements.define('pf-pg-pane', PlaygroundPane);
