/**
 * The scenario page's script: one event selected at a time — its card in the timeline
 * (`<pf-timeline>`, components/Timeline/pf-timeline.ts) and its pane in the request column
 * (`<pf-request-column>`, components/RequestColumn/pf-request-column.ts) — from clicks, from the
 * URL hash `#@<offset>` (deep links), from j/k and arrow keys, and from provenance links in the
 * pane; hovering a prompt line highlights the card of the event that produced it. Panes not in the page are built from the
 * page's data file (page-data.ts: fetched once, the first time the reader reaches for another event
 * or opens a wire view). The page's state is the fields of ScenarioPage: the event selected, the
 * one waiting for the data.
 */
import { announcement } from '../render/pane-text.ts';
import { lazyChunk } from './lazy-chunk.ts';
import { PageData } from './page-data.ts';
import { linkOffset, paneLineOf, provenanceOf, titleProvenanceLink } from './pane-lines.ts';
import { RequestColumn } from '../components/RequestColumn/pf-request-column.ts';
import { ScenarioTimeline } from '../components/Timeline/pf-timeline.ts';
import { ToRequest } from './to-request.ts';

/** Chunks loaded when a view first opens; after a failed fetch, opening it again fetches again (lazy-chunk.ts). */
const wireViewChunk = lazyChunk(() => import('../components/WireViews/pf-wire-view.ts'));
const yamlSourceChunk = lazyChunk(() => import('../render/yaml-source.ts'));

interface SelectOptions {
  hash?: boolean;
  scroll?: boolean;
  focus?: boolean;
  announce?: boolean;
}

export class ScenarioPage {
  readonly article: HTMLElement;
  readonly timeline: ScenarioTimeline;
  readonly column: RequestColumn;
  readonly data: PageData;
  readonly toRequest: ToRequest | undefined;
  readonly status: HTMLElement | null;
  current: string | undefined;
  /** The event whose pane waits for the data (the latest choice wins). */
  waiting: string | undefined;

  constructor(article: HTMLElement, timeline: ScenarioTimeline, column: RequestColumn) {
    this.article = article;
    this.timeline = timeline;
    this.column = column;
    this.data = new PageData(article.dataset.src, article.dataset.parts, timeline.order);
    this.status = document.getElementById('pane-status');
    const button = article.querySelector<HTMLButtonElement>('.to-request');
    this.toRequest = button ? new ToRequest(button, column, timeline) : undefined;
    this.current = article.dataset.default ?? timeline.order[0];
  }

  private typeOf = (off: string): string => this.timeline.typeOf(off);

  select(off: string, opts: SelectOptions = {}): void {
    if (!this.timeline.card(off)) return;
    const pane = this.column.paneOf(off, () => (this.data.loaded(off) ? this.data.buildPane(off, this.typeOf) : undefined));
    if (!pane) {
      if (!this.data.loaded(off)) this.whenLoaded(off, opts);
      return;
    }
    this.waiting = undefined;
    this.current = off;
    if (opts.announce || opts.scroll) this.toRequest?.choose();
    this.timeline.mark(off);
    this.column.show(off, pane);
    if (opts.hash) history.replaceState(null, '', `#@${off}`);
    this.timeline.reveal(off, opts);
    if (opts.announce && this.status) {
      const cached = pane.querySelector('.pane-head .badge.cached')?.textContent?.match(/\d+/)?.[0];
      this.status.textContent = announcement(pane.dataset.kind as 'request' | 'state' | 'rejected', off, cached === undefined ? undefined : Number(cached), this.typeOf(off));
    }
    this.toRequest?.update();
  }

  /** Selects `off` once the data is there; says so in the pane column when it cannot be fetched. */
  private whenLoaded(off: string, opts: SelectOptions): void {
    this.waiting = off;
    this.column.busy(true);
    this.data.ready(off).then(
      () => {
        if (this.waiting !== off) return;
        this.column.busy(false);
        this.select(off, opts);
      },
      (err: unknown) => {
        if (this.waiting !== off) return;
        this.waiting = undefined;
        this.column.busy(false);
        this.column.failed(off, err);
      },
    );
  }

  /**
   * Deep links: `#@N` selects event N. Search results and older links may point at a pane's own
   * ids (`#pane-N`, `#pane-N-h`) or a card's (`#@N` is the card's id): all select event N.
   */
  fromHash(): void {
    const m = /^#(?:@(\d+)|pane-(\d+)(?:-h)?)$/.exec(decodeURIComponent(location.hash));
    const off = m?.[1] ?? m?.[2];
    if (off === undefined || !this.timeline.card(off)) return;
    if (m![2] !== undefined) history.replaceState(null, '', `#@${off}`);
    this.select(off, { scroll: true });
  }

  /** A card link or a provenance link (in a pane, the economics, a ✂ note) selects its event. */
  private onClick(e: MouseEvent): void {
    const a = (e.target as HTMLElement).closest<HTMLAnchorElement>('a.card-link, a.prov, .gutter > a');
    if (!a) return;
    const off = linkOffset(a);
    if (off === undefined || !this.timeline.card(off)) return;
    e.preventDefault();
    const prov = !a.classList.contains('card-link');
    this.select(off, { hash: true, scroll: prov, focus: prov, announce: true });
  }

  /** j/k move between events anywhere on the page; ↓/↑ only while the timeline has focus (elsewhere they scroll the page). */
  private onKey(e: KeyboardEvent): void {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target as HTMLElement;
    if (t.closest('input, textarea, select, [contenteditable="true"], summary')) return;
    const arrow = e.key === 'ArrowDown' || e.key === 'ArrowUp';
    const step = e.key === 'j' || e.key === 'ArrowDown' ? 1 : e.key === 'k' || e.key === 'ArrowUp' ? -1 : 0;
    if (!step || (arrow && !t.closest('.timeline'))) return;
    // Keys pressed while the data loads move on from the event waiting for it.
    const next = this.timeline.step(this.waiting ?? this.current!, step);
    if (next === undefined || next === this.current) return;
    e.preventDefault();
    this.select(next, { hash: true, scroll: true, focus: true, announce: true });
  }

  /** Hovering (or focusing) a prompt line highlights the cards of the events it came from. */
  private onHover(e: Event, on: boolean): void {
    if (on) titleProvenanceLink(e.target, this.typeOf);
    const line = paneLineOf(e.target as Element);
    const from = line && provenanceOf(line);
    if (!from) return;
    this.timeline.highlight(from.split(' '), on);
    line.classList.toggle('prov-hover', on);
  }

  /** "Skip to the request": focus the selected pane's prompt text. */
  private skipToRequest(e: Event): void {
    const code = [...(this.column.pane(this.current!)?.querySelectorAll<HTMLElement>('.code') ?? [])].find((c) => c.offsetParent !== null);
    if (!code) return;
    e.preventDefault();
    code.focus();
    code.scrollIntoView({ block: 'start' });
  }

  /** Provider wire views (and an event's YAML, showEventYaml): written by their own chunk, loaded when a view first opens. */
  private onToggle(e: Event): void {
    const d = e.target as HTMLDetailsElement;
    if (d.matches('details.event-yaml') && d.open) {
      this.showEventYaml(d);
      return;
    }
    if (!d.matches('details.wire') || !d.open) return;
    const off = d.closest<HTMLElement>('.pane')?.dataset.offset ?? this.current!;
    void Promise.all([
      wireViewChunk(),
      this.data.ready(off).then(
        (x) => x.wire,
        (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
      ),
    ]).then(([m, wire]) => {
      const view = d.querySelector('pf-wire-view');
      if (view instanceof m.WireView) view.show(wire);
    });
  }

  /**
   * A card's event YAML, written the first time it is opened: the source from the page's data file,
   * coloured by its own chunk (render/yaml-source.ts, with the yaml parser); what went wrong, as
   * text, when the data cannot be fetched (opening it again tries again). Its `<pre>` is added here,
   * not written into every card of the page (Timeline.astro).
   */
  private showEventYaml(d: HTMLDetailsElement): void {
    const off = d.closest<HTMLElement>('.card')?.dataset.offset;
    if (off === undefined) return;
    const code =
      d.querySelector('pre > code') ??
      (() => {
        const pre = d.appendChild(document.createElement('pre'));
        pre.tabIndex = 0;
        pre.setAttribute('aria-label', `Event @${off} as YAML`);
        return pre.appendChild(document.createElement('code'));
      })();
    if (code.hasChildNodes()) return;
    d.setAttribute('aria-busy', 'true');
    void Promise.all([yamlSourceChunk(), this.data.ready(off)])
      .then(
        ([m, data]) => {
          const source = data.events.sources[Number(off)];
          if (source === undefined) code.textContent = `event @${off} is not in this page's data file`;
          else code.innerHTML = m.yamlSourceHtml(source, data.events.tags); // escaped by yamlSourceHtml: event text never becomes markup
        },
        (err: unknown) => {
          code.textContent = `The event's YAML could not be loaded: ${err instanceof Error ? err.message : String(err)}`;
          d.addEventListener('toggle', () => code.replaceChildren(), { once: true });
        },
      )
      .finally(() => d.removeAttribute('aria-busy'));
  }

  /** Listens, then applies the deep link (or, without one, scrolls the opening pane to its ✂ line with the first frame). */
  start(): void {
    const a = this.article;
    a.addEventListener('click', (e) => this.onClick(e));
    document.addEventListener('keydown', (e) => this.onKey(e));
    for (const type of ['mouseover', 'focusin'] as const) a.addEventListener(type, (e) => this.onHover(e, true));
    for (const type of ['mouseout', 'focusout'] as const) a.addEventListener(type, (e) => this.onHover(e, false));
    document.querySelector('.skip-request')?.addEventListener('click', (e) => this.skipToRequest(e));
    a.addEventListener('toggle', (e) => this.onToggle(e), true);
    a.addEventListener('pf-intent', () => this.data.prefetch());
    window.addEventListener('hashchange', () => this.fromHash());
    const initial = this.current;
    this.fromHash();
    // Opened without a deep link: the page starts at its title with the opening request (`opens:`)
    // selected — the build already marked its card and pane; scrolling the pane column to the ✂
    // line measures the laid-out page, so it waits for the first frame.
    if (this.current === initial && initial !== undefined && this.waiting === undefined) {
      requestAnimationFrame(() => {
        if (this.current === initial) this.select(initial);
      });
    }
  }
}

export function initScenarioPage(): void {
  const article = document.querySelector<HTMLElement>('article.scenario');
  const timeline = article?.querySelector('pf-timeline');
  const column = article?.querySelector('pf-request-column');
  if (!article || !(timeline instanceof ScenarioTimeline) || !(column instanceof RequestColumn)) return;
  new ScenarioPage(article, timeline, column).start();
}
