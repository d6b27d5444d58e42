/**
 * `<pf-timeline>`: the scenario page's timeline of event cards (Timeline.astro, beside it, writes
 * it around its list and imports this file in its `<script>`). It marks the selected card (class,
 * `aria-current`, its shared-events disclosure opened), steps between events, highlights the cards
 * a hovered prompt line came from, and says when the reader first reaches for another event (a
 * pointer or focus on it: `pf-intent`, so the page fetches its data before the click). Its state
 * is its private fields: the cards and their order, read from the markup once connected.
 */
export class ScenarioTimeline extends HTMLElement {
  #cards: HTMLElement[] = [];
  #order: string[] = [];

  connectedCallback(): void {
    this.#cards = [...this.querySelectorAll<HTMLElement>('.card[data-offset]')];
    this.#order = this.#cards.map((c) => c.dataset.offset!);
    const intent = (): void => void this.dispatchEvent(new Event('pf-intent', { bubbles: true }));
    for (const type of ['pointerover', 'focusin'] as const) this.addEventListener(type, intent, { once: true });
  }

  /** The event cards, in timeline order. */
  get cards(): readonly HTMLElement[] {
    return this.#cards;
  }

  /** The events' offsets, in timeline order. */
  get order(): readonly string[] {
    return this.#order;
  }

  card(off: string): HTMLElement | undefined {
    return this.#cards.find((c) => c.dataset.offset === off);
  }

  /** The event's type, as its card names it. */
  typeOf(off: string): string {
    return this.card(off)?.querySelector('.type')?.textContent ?? '';
  }

  /** Marks `off`'s card as the selected one (and opens the shared events it sits in). */
  mark(off: string): HTMLElement | undefined {
    const card = this.card(off);
    if (!card) return undefined;
    for (const c of this.#cards) {
      const on = c === card;
      c.classList.toggle('selected', on);
      const link = c.querySelector('.card-link');
      if (on) link?.setAttribute('aria-current', 'true');
      else link?.removeAttribute('aria-current');
    }
    const shared = card.closest('details');
    if (shared && !shared.open) shared.open = true;
    return card;
  }

  /** The event `step` places after (or before) `from`, clamped to the ends. */
  step(from: string, step: number): string | undefined {
    const i = this.#order.indexOf(from);
    return this.#order[Math.min(this.#order.length - 1, Math.max(0, i + step))];
  }

  /** Highlights the cards of the events a prompt line came from. */
  highlight(offsets: readonly string[], on: boolean): void {
    for (const off of offsets) this.card(off)?.classList.toggle('prov-hover', on);
  }

  /** Brings the card into view and, if asked, focuses its link. */
  reveal(off: string, opts: { scroll?: boolean; focus?: boolean }): void {
    const card = this.card(off);
    if (opts.scroll) card?.scrollIntoView({ block: 'nearest' });
    if (opts.focus) card?.querySelector<HTMLElement>('.card-link')?.focus({ preventScroll: !opts.scroll });
  }
}

if (!customElements.get('pf-timeline')) customElements.define('pf-timeline', ScenarioTimeline);
