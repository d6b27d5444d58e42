/**
 * `<pf-request-column>`: the scenario page's sticky column of request panes (RequestColumn.astro,
 * beside it, writes it around the panes and imports this file in its `<script>`). It shows one pane at a
 * time (building a pane the page does not carry from the page's data, page-data.ts), keeps the
 * reader's choices while moving between events (the Before / After / Diff tab, old text shown),
 * scrolls the column to the ✂ line or the first change, fits the column to what is left of the grid
 * in the viewport, and says in place when the data cannot be fetched. Its state is its private
 * fields: the panes by offset, the one shown, the reader's choices, the fit queued, the error shown.
 * It knows nothing of the data's format: the page script passes what builds a missing pane.
 */

export class RequestColumn extends HTMLElement {
  #panes = new Map<string, HTMLElement>();
  #current: string | undefined;
  /** The reader's choices, kept while moving between events. */
  #chosenView = 'after';
  #showOld = false;
  #fitQueued = false;
  #loadError: HTMLElement | undefined;

  connectedCallback(): void {
    this.#panes = new Map([...this.querySelectorAll<HTMLElement>('.pane[data-offset]')].map((p) => [p.dataset.offset!, p]));
    this.#current = [...this.#panes].find(([, p]) => p.classList.contains('selected'))?.[0];
    for (const tabs of this.querySelectorAll<HTMLElement>('.review-tabs')) tabs.hidden = false;
    this.addEventListener('click', (e) => this.onClick(e));
    window.addEventListener('scroll', () => this.queueFit(), { passive: true });
    window.addEventListener('resize', () => this.queueFit());
    this.queueFit(); // with the first frame: it measures the laid-out page
  }

  /** The event whose pane is shown. */
  get current(): string | undefined {
    return this.#current;
  }

  /** The pane of `off` in the column (in the page, or built already). */
  pane(off: string): HTMLElement | undefined {
    return this.#panes.get(off);
  }

  /** The pane of `off`, made by `build` the first time (undefined: not in the page, and `build` has nothing yet). */
  paneOf(off: string, build: () => HTMLElement | undefined): HTMLElement | undefined {
    let pane = this.#panes.get(off);
    if (!pane) {
      pane = build();
      if (pane) {
        this.append(pane);
        this.#panes.set(off, pane);
      }
    }
    return pane;
  }

  /** Shows `pane` as the selected one, with the reader's choices, scrolled to its change. */
  show(off: string, pane: HTMLElement): void {
    this.#loadError?.remove();
    this.#current = off;
    for (const p of this.#panes.values()) p.classList.toggle('selected', p === pane);
    this.applyChoices(pane);
    this.revealChange(pane);
    this.queueFit(); // this pane's header height
  }

  busy(on: boolean): void {
    if (on) this.setAttribute('aria-busy', 'true');
    else this.removeAttribute('aria-busy');
  }

  /** Says in the column that the request as of `off` could not be loaded. */
  failed(off: string, err: unknown): void {
    this.#loadError ??= Object.assign(document.createElement('p'), { className: 'load-error' });
    this.#loadError.setAttribute('role', 'alert');
    this.#loadError.textContent = `Could not load the request as of @${off}: ${err instanceof Error ? err.message : String(err)}. Select the event again to retry, or reload the page.`;
    this.prepend(this.#loadError);
  }

  /** Whether the column sits beside the timeline (sticky), not below it (a phone). */
  get sticky(): boolean {
    return getComputedStyle(this).position === 'sticky';
  }

  private applyChoices(pane: HTMLElement): void {
    if (pane.querySelector(`.review-tabs button[data-view="${this.#chosenView}"]`)) this.setView(pane, this.#chosenView);
    pane.classList.toggle('show-old', this.#showOld);
    for (const b of pane.querySelectorAll<HTMLButtonElement>('.show-old')) {
      b.hidden = false;
      b.setAttribute('aria-pressed', String(this.#showOld));
    }
  }

  private setView(pane: HTMLElement, view: string): void {
    pane.dataset.active = view;
    for (const b of pane.querySelectorAll('.review-tabs button')) b.setAttribute('aria-pressed', String((b as HTMLElement).dataset.view === view));
  }

  /** Before / After / Diff switches of reviewed requests; "show old text" of changed lines. */
  private onClick(e: Event): void {
    const target = e.target as HTMLElement;
    const button = target.closest<HTMLButtonElement>('.review-tabs button[data-view]');
    if (button) {
      this.#chosenView = button.dataset.view!;
      this.setView(button.closest<HTMLElement>('.pane')!, this.#chosenView);
      return;
    }
    // A folded run of a long request (pane-markup.ts foldRuns): shown in place, for good.
    const fold = target.closest<HTMLButtonElement>('.fold-row > button[data-fold]');
    if (fold) {
      for (const line of fold.closest('.code')?.querySelectorAll<HTMLElement>(`[data-folded="${fold.dataset.fold}"]`) ?? []) line.removeAttribute('data-folded');
      fold.setAttribute('aria-expanded', 'true');
      fold.parentElement!.hidden = true;
      return;
    }
    const old = target.closest<HTMLButtonElement>('button.show-old');
    if (old) {
      this.#showOld = old.getAttribute('aria-pressed') !== 'true';
      this.applyChoices(old.closest<HTMLElement>('.pane')!);
    }
  }

  /** In the sticky column, scroll to the ✂ line or the first change of the pane. */
  private revealChange(pane: HTMLElement): void {
    if (this.scrollHeight <= this.clientHeight || !this.sticky) return;
    const target = ['.cut', '.code > .s-changed, .code > .s-added, .code > .s-removed'].map((sel) => pane.querySelector<HTMLElement>(sel)).find(Boolean);
    const head = pane.querySelector<HTMLElement>('.pane-head')?.offsetHeight ?? 0;
    this.scrollTop = target ? Math.max(0, target.offsetTop - head - (this.clientHeight - head) / 3) : 0;
  }

  queueFit(): void {
    if (!this.#fitQueued) requestAnimationFrame(() => this.fit());
    this.#fitQueued = true;
  }

  /**
   * Two columns: the sticky column never outgrows what is left of the grid in the viewport, so near
   * the end of the timeline it shrinks instead of being pushed above the viewport.
   */
  private fit(): void {
    this.#fitQueued = false;
    const grid = this.closest<HTMLElement>('.scenario-grid');
    if (!grid) return;
    const top = parseFloat(getComputedStyle(this).top) || 0;
    const room = Math.min(window.innerHeight - 2 * top, grid.getBoundingClientRect().bottom - top);
    this.style.setProperty('--pfe-pane-max', `${Math.max(160, Math.floor(room))}px`);
    // The selected pane's sticky header covers the top of the column: what the browser scrolls
    // into view there (a focused link, find in page) lands below it, not under it.
    this.style.scrollPaddingTop = `${this.#panes.get(this.#current!)?.querySelector<HTMLElement>('.pane-head')?.offsetHeight ?? 0}px`;
  }
}

if (!customElements.get('pf-request-column')) customElements.define('pf-request-column', RequestColumn);
