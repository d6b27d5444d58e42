/**
 * The "to the request" control of a one-column scenario page (a phone): the pane sits below the
 * whole timeline, so after a card is chosen a control brings the reader to the pane, and back to
 * the card after reading. It sits in the flow — at the end of the chosen card, or in the pane's
 * (sticky) header on the way back — never floating over the text. Its state is its fields: where
 * the pane and the chosen card are, and whether the reader has chosen an event yet.
 */
import { paneHeading } from '../render/pane-text.ts';
import type { RequestColumn } from '../components/RequestColumn/pf-request-column.ts';
import type { ScenarioTimeline } from '../components/Timeline/pf-timeline.ts';

export class ToRequest {
  private readonly button: HTMLButtonElement;
  private readonly column: RequestColumn;
  private readonly timeline: ScenarioTimeline;
  private paneInView = false;
  private cardInView = true;
  /** Not before the reader has chosen an event (on a plain load the control would push the timeline down under the reader's eyes). */
  private chosen = false;
  private watching = false;

  constructor(button: HTMLButtonElement, column: RequestColumn, timeline: ScenarioTimeline) {
    this.button = button;
    this.column = column;
    this.timeline = timeline;
    if (!('IntersectionObserver' in window)) return;
    button.addEventListener('click', () => {
      if (button.dataset.dir === 'down') column.scrollIntoView({ block: 'start' });
      else timeline.card(column.current!)?.scrollIntoView({ block: 'center' });
    });
    window.addEventListener('resize', () => this.update());
  }

  /** The reader chose an event (or followed a link to one): from now on the control may show. */
  choose(): void {
    this.chosen = true;
    this.watch();
  }

  update(): void {
    const off = this.column.current;
    const pane = off === undefined ? undefined : this.column.pane(off);
    const down = !this.paneInView;
    this.button.hidden = !this.chosen || this.column.sticky || !pane || (!down && this.cardInView);
    if (this.button.hidden) return;
    const home = down ? this.timeline.card(off!) : pane?.querySelector('.pane-title');
    if (home && this.button.parentElement !== home) home.append(this.button);
    this.button.dataset.dir = down ? 'down' : 'up';
    this.button.textContent = down ? `${paneHeading(pane?.dataset.kind as 'request', off!)} ↓` : `↑ event @${off}`;
  }

  /** Where the pane and the cards are, watched from the reader's first choice on (not on load: work nobody asked for yet). */
  private watch(): void {
    if (this.watching || !('IntersectionObserver' in window)) return;
    this.watching = true;
    new IntersectionObserver((entries) => {
      for (const en of entries) this.paneInView = en.isIntersecting;
      this.update();
    }).observe(this.column);
    const cardWatch = new IntersectionObserver((entries) => {
      for (const en of entries) if ((en.target as HTMLElement).dataset.offset === this.column.current) this.cardInView = en.isIntersecting;
      this.update();
    });
    for (const c of this.timeline.cards) cardWatch.observe(c);
  }
}
