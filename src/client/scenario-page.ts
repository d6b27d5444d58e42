/**
 * The scenario page's only script: selects an event (its card and its pane), from clicks, from the
 * URL hash `#@<offset>` (deep links), from j/k and arrow keys, and from provenance links in the
 * pane; hovering a prompt line highlights the card of the event that produced it. Panes not in the
 * page are built from the page's data file (render/scenario-data.ts: fetched once, the first
 * time the reader reaches for another event or opens a wire view) when they are first shown.
 */
import { paneDecoder, type PaneData } from '../render/pane-codec.ts';
import { CURRENT_LINE, linkOffset, paneLineOf, provenanceOf, titleProvenanceLink } from './pane-lines.ts';
import type { ScenarioData } from '../render/scenario-data.ts';
import { indentOf, paneMarkup } from '../render/pane-markup.ts';
import { announcement, paneHeading } from '../render/pane-text.ts';

const NAMED: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };
/** Text of highlighted line HTML: tags dropped, the entities an HTML serialiser writes decoded. */
const textOf = (html: string): string =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, n: string) =>
      n[0] === '#' ? String.fromCodePoint(n[1] === 'x' || n[1] === 'X' ? parseInt(n.slice(2), 16) : Number(n.slice(1))) : (NAMED[n] ?? m),
    );

/**
 * A highlighted line of the data: its HTML, or a reference [pane, line] to a line a full pane in the
 * page already shows (the data does not repeat what the page carries).
 */
function lineHtml(data: PaneData, id: number, shownLines: Map<number, Element[]>): string {
  const h = data.html[id];
  if (typeof h === 'string') return h;
  if (!h) return '';
  let lines = shownLines.get(h[0]);
  if (!lines) {
    lines = [...document.querySelectorAll(`#pane-${h[0]} ${CURRENT_LINE}`)];
    shownLines.set(h[0], lines);
  }
  const line = lines[h[1]];
  return line ? textHtml(line) : '';
}

/** A prompt line's text as HTML: the line without its gutter (pane-markup.ts writes it first). */
function textHtml(line: Element): string {
  const first = line.firstElementChild;
  return first?.matches('.gutter') ? line.innerHTML.slice(first.outerHTML.length) : line.innerHTML;
}

/** Builds the pane of one event from the encoded data, with the shared pane markup (pane-markup.ts). */
function buildPane(
  off: string,
  data: PaneData,
  decode: ReturnType<typeof paneDecoder>,
  typeOf: (off: string) => string,
  shownLines: Map<number, Element[]>,
): HTMLElement | undefined {
  const htmlOf = (id: number): string => lineHtml(data, id, shownLines);
  const enc = data.panes[Number(off)];
  const lists = decode(Number(off));
  if (!enc || !lists) return undefined;
  const { ids, marks } = lists;
  const froms = lists.from.map((f) => data.from[f]!);
  const removedAt = new Map(enc.removed.map((r) => [r[0]!, r.slice(1).map((t) => data.text[t]!)]));
  const abridgedAt = new Map((enc.abridged ?? []).map(([i, t]) => [i!, data.text[t!]!]));
  const oldAt = new Map<number, string>();
  for (let k = 0; k < enc.old.length; k += 2) oldAt.set(enc.old[k]!, htmlOf(enc.old[k + 1]!));
  const bpAt = new Map<number, string[]>();
  for (let k = 0; k < (enc.bp?.length ?? 0); k += 2) bpAt.set(enc.bp![k]!, [...(bpAt.get(enc.bp![k]!) ?? []), data.text[enc.bp![k + 1]!]!]);
  const html = paneMarkup({
    offset: Number(off),
    kind: enc.kind,
    idPrefix: 'pane',
    diffBase: enc.base ?? null,
    ...(enc.econ && { econ: enc.econ }),
    ...(enc.kind === 'request' && { model: textOf(htmlOf(ids[0]!)).replace(/^model: /, '') }),
    ...(enc.kind !== 'request' && { eventType: typeOf(off) }),
    ...(enc.rejected && { rejected: enc.rejected }),
    lines: ids.map((id, i) => ({
      html: htmlOf(id), // highlighted at build time by shiki: prompt text arrives escaped
      indent: indentOf(textOf(htmlOf(id))),
      status: marks[i] === '+' ? 'added' : marks[i] === '~' ? 'changed' : 'same',
      from: froms[i]!,
      removedBefore: removedAt.get(i) ?? [],
      cutAbove: enc.cut === i,
      notes: [],
      ...(abridgedAt.has(i) && { abridges: abridgedAt.get(i)! }),
      ...(oldAt.has(i) && { was: oldAt.get(i)! }),
      ...(bpAt.has(i) && { breakpoints: bpAt.get(i)! }),
    })),
    removedAtEnd: enc.removedAtEnd.map((t) => data.text[t]!),
  });
  const box = document.createElement('div');
  box.innerHTML = html;
  return box.firstElementChild as HTMLElement;
}

/** Fetches the page's data file once (`url`: the article's data-src); a failed fetch is tried again on the next call. */
function dataLoader(url: string | undefined): () => Promise<ScenarioData> {
  let loading: Promise<ScenarioData> | undefined;
  const fetchData = async (): Promise<ScenarioData> => {
    if (!url) throw new Error('this page names no data file');
    const r = await fetch(url);
    if (!r.ok) throw new Error(`${url} answered ${r.status}${r.statusText ? ` ${r.statusText}` : ''}`);
    return (await r.json()) as ScenarioData;
  };
  return () =>
    (loading ??= fetchData().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
}

export function initScenarioPage(): void {
  const article = document.querySelector<HTMLElement>('article.scenario');
  if (!article) return;
  const cards = [...article.querySelectorAll<HTMLElement>('.card[data-offset]')];
  const panesBox = article.querySelector<HTMLElement>('.panes')!;
  const panes = new Map([...article.querySelectorAll<HTMLElement>('.pane[data-offset]')].map((p) => [p.dataset.offset!, p]));
  const loadData = dataLoader(article.dataset.src);
  let data: PaneData | undefined;
  let decode: ReturnType<typeof paneDecoder> | undefined;
  /** Fetches the data (once) and gets its panes ready to decode. */
  const ready = (): Promise<ScenarioData> =>
    loadData().then((d) => {
      data ??= d.panes;
      decode ??= paneDecoder(d.panes);
      return d;
    });
  /** The reader is reaching for another event: fetch the data now, so it is there by the click. */
  const prefetch = (): void => void ready().catch(() => undefined); // reported when a pane needs it
  /** The event whose pane waits for the data (the latest choice wins). */
  let waiting: string | undefined;
  const shownLines = new Map<number, Element[]>();
  const status = document.getElementById('pane-status');
  const toRequest = article.querySelector<HTMLButtonElement>('.to-request');
  const typeOf = (off: string): string => cardOf(off)?.querySelector('.type')?.textContent ?? '';
  /** The reader's choices, kept while moving between events: the review tab, old text shown. */
  let chosenView = 'after';
  let showOld = false;
  const applyChoices = (pane: HTMLElement): void => {
    if (pane.querySelector(`.review-tabs button[data-view="${chosenView}"]`)) setView(pane, chosenView);
    pane.classList.toggle('show-old', showOld);
    for (const b of pane.querySelectorAll<HTMLButtonElement>('.show-old')) {
      b.hidden = false;
      b.setAttribute('aria-pressed', String(showOld));
    }
  };
  const paneOf = (off: string): HTMLElement | undefined => {
    let pane = panes.get(off);
    if (!pane && data && decode) {
      pane = buildPane(off, data, decode, typeOf, shownLines);
      if (pane) {
        panesBox.appendChild(pane);
        panes.set(off, pane);
      }
    }
    return pane;
  };
  const order = cards.map((c) => c.dataset.offset!);
  let current = article.dataset.default ?? order[0];

  const cardOf = (off: string): HTMLElement | undefined => cards.find((c) => c.dataset.offset === off);

  function select(off: string, opts: { hash?: boolean; scroll?: boolean; focus?: boolean; announce?: boolean } = {}): void {
    const card = cardOf(off);
    if (!card) return;
    const pane = paneOf(off);
    if (!pane) {
      if (!data) whenLoaded(off, opts);
      return;
    }
    waiting = undefined;
    loadError?.remove();
    current = off;
    if (opts.announce || opts.scroll) {
      chosen = true;
      watch();
    }
    for (const c of cards) {
      const on = c === card;
      c.classList.toggle('selected', on);
      const link = c.querySelector('.card-link');
      if (on) link?.setAttribute('aria-current', 'true');
      else link?.removeAttribute('aria-current');
    }
    for (const p of panes.values()) p.classList.toggle('selected', p === pane);
    applyChoices(pane);
    const shared = card.closest('details');
    if (shared && !shared.open) shared.open = true;
    revealChange(pane);
    queueFit(); // this pane's header height
    if (opts.hash) history.replaceState(null, '', `#@${off}`);
    if (opts.scroll) card.scrollIntoView({ block: 'nearest' });
    if (opts.focus) card.querySelector<HTMLElement>('.card-link')?.focus({ preventScroll: !opts.scroll });
    if (opts.announce && status) {
      const cached = pane.querySelector('.pane-head .badge.cached')?.textContent?.match(/\d+/)?.[0];
      status.textContent = announcement(pane.dataset.kind as 'request' | 'state' | 'rejected', off, cached === undefined ? undefined : Number(cached), typeOf(off));
    }
    updateToRequest();
  }

  /** Selects `off` once the data is there; says so in the pane column when it cannot be fetched. */
  let loadError: HTMLElement | undefined;
  function whenLoaded(off: string, opts: Parameters<typeof select>[1]): void {
    waiting = off;
    panesBox.setAttribute('aria-busy', 'true');
    ready().then(
      () => {
        if (waiting !== off) return;
        panesBox.removeAttribute('aria-busy');
        select(off, opts);
      },
      (err: unknown) => {
        if (waiting !== off) return;
        waiting = undefined;
        panesBox.removeAttribute('aria-busy');
        loadError ??= Object.assign(document.createElement('p'), { className: 'load-error' });
        loadError.setAttribute('role', 'alert');
        loadError.textContent = `Could not load the request as of @${off}: ${err instanceof Error ? err.message : String(err)}. Select the event again to retry, or reload the page.`;
        panesBox.prepend(loadError);
      },
    );
  }

  /** In the sticky pane column, scroll to the ✂ line or the first change of the selected pane. */
  function revealChange(pane: HTMLElement): void {
    const box = pane.parentElement;
    if (!box || box.scrollHeight <= box.clientHeight || getComputedStyle(box).position !== 'sticky') return;
    const target = ['.cut', '.code > .s-changed, .code > .s-added, .code > .s-removed'].map((sel) => pane.querySelector<HTMLElement>(sel)).find(Boolean);
    const head = pane.querySelector<HTMLElement>('.pane-head')?.offsetHeight ?? 0;
    box.scrollTop = target ? Math.max(0, target.offsetTop - head - (box.clientHeight - head) / 3) : 0;
  }

  /**
   * Deep links: `#@N` selects event N. Search results and older links may point at a pane's own
   * ids (`#pane-N`, `#pane-N-h`) or a card's (`#@N` is the card's id): all select event N.
   */
  function fromHash(): void {
    const m = /^#(?:@(\d+)|pane-(\d+)(?:-h)?)$/.exec(decodeURIComponent(location.hash));
    const off = m?.[1] ?? m?.[2];
    if (off === undefined || !cardOf(off)) return;
    if (m![2] !== undefined) history.replaceState(null, '', `#@${off}`);
    select(off, { scroll: true });
  }

  article.addEventListener('click', (e) => {
    const a = (e.target as HTMLElement).closest<HTMLAnchorElement>('a.card-link, a.prov, .gutter > a');
    if (!a) return;
    const off = linkOffset(a);
    if (off === undefined || !cardOf(off)) return;
    e.preventDefault();
    const prov = !a.classList.contains('card-link');
    select(off, { hash: true, scroll: prov, focus: prov, announce: true });
  });

  // j/k move between events anywhere on the page; ↓/↑ only while the timeline has focus (elsewhere
  // they scroll the page, as a reader expects).
  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target as HTMLElement;
    if (t.closest('input, textarea, select, [contenteditable="true"], summary')) return;
    const arrow = e.key === 'ArrowDown' || e.key === 'ArrowUp';
    const step = e.key === 'j' || e.key === 'ArrowDown' ? 1 : e.key === 'k' || e.key === 'ArrowUp' ? -1 : 0;
    if (!step) return;
    if (arrow && !t.closest('.timeline')) return;
    const i = order.indexOf(waiting ?? current!); // keys pressed while the data loads move on from the event waiting for it
    const next = order[Math.min(order.length - 1, Math.max(0, i + step))];
    if (next === undefined || next === current) return;
    e.preventDefault();
    select(next, { hash: true, scroll: true, focus: true, announce: true });
  });

  const hover =
    (on: boolean) =>
    (e: Event): void => {
      if (on) titleProvenanceLink(e.target, typeOf);
      const line = paneLineOf(e.target as Element);
      const from = line && provenanceOf(line);
      if (!from) return;
      for (const off of from.split(' ')) cardOf(off)?.classList.toggle('prov-hover', on);
      line.classList.toggle('prov-hover', on);
    };
  for (const type of ['mouseover', 'focusin'] as const) article.addEventListener(type, hover(true));
  for (const type of ['mouseout', 'focusout'] as const) article.addEventListener(type, hover(false));

  // Before / After / Diff switches of reviewed requests; "show old text" of changed lines.
  function setView(pane: HTMLElement, view: string): void {
    pane.dataset.active = view;
    for (const b of pane.querySelectorAll('.review-tabs button')) b.setAttribute('aria-pressed', String((b as HTMLElement).dataset.view === view));
  }
  for (const tabs of article.querySelectorAll<HTMLElement>('.review-tabs')) tabs.hidden = false;
  article.addEventListener('click', (e) => {
    const target = e.target as HTMLElement;
    const button = target.closest<HTMLButtonElement>('.review-tabs button[data-view]');
    if (button) {
      chosenView = button.dataset.view!;
      setView(button.closest<HTMLElement>('.pane')!, chosenView);
      return;
    }
    const old = target.closest<HTMLButtonElement>('button.show-old');
    if (old) {
      showOld = old.getAttribute('aria-pressed') !== 'true';
      applyChoices(old.closest<HTMLElement>('.pane')!);
    }
  });

  // "Skip to the request": focus the selected pane's prompt text.
  document.querySelector('.skip-request')?.addEventListener('click', (e) => {
    const code = [...(panes.get(current!)?.querySelectorAll<HTMLElement>('.code') ?? [])].find((c) => c.offsetParent !== null);
    if (!code) return;
    e.preventDefault();
    code.focus();
    code.scrollIntoView({ block: 'start' });
  });

  // One column (a phone): the pane sits below the whole timeline, so a control brings it to the
  // reader after a card is chosen, and back to the card after reading. It sits in the flow — at the
  // end of the chosen card, or in the pane's (sticky) header on the way back — never floating
  // over the text.
  let paneInView = false;
  let cardInView = true;
  let chosen = false;
  function updateToRequest(): void {
    if (!toRequest) return;
    const oneColumn = getComputedStyle(panesBox).position !== 'sticky';
    const pane = panes.get(current!);
    const down = !paneInView;
    // Not before the reader has chosen an event (or followed a link to one): on a plain load the
    // control would push the timeline down under the reader's eyes.
    toRequest.hidden = !chosen || !oneColumn || !pane || (!down && cardInView);
    if (toRequest.hidden) return;
    const home = down ? cardOf(current!) : pane?.querySelector('.pane-title');
    if (home && toRequest.parentElement !== home) home.append(toRequest);
    toRequest.dataset.dir = down ? 'down' : 'up';
    toRequest.textContent = down ? `${paneHeading(pane?.dataset.kind as 'request', current!)} ↓` : `↑ event @${current}`;
  }
  /** Where the pane and the cards are, watched from the reader's first choice on (not on load: work nobody asked for yet). */
  let watching = false;
  function watch(): void {
    if (watching || !toRequest || !('IntersectionObserver' in window)) return;
    watching = true;
    new IntersectionObserver((entries) => {
      for (const en of entries) paneInView = en.isIntersecting;
      updateToRequest();
    }).observe(panesBox);
    const cardWatch = new IntersectionObserver((entries) => {
      for (const en of entries) if ((en.target as HTMLElement).dataset.offset === current) cardInView = en.isIntersecting;
      updateToRequest();
    });
    for (const c of cards) cardWatch.observe(c);
  }
  if (toRequest && 'IntersectionObserver' in window) {
    toRequest.addEventListener('click', () => {
      if (toRequest.dataset.dir === 'down') panesBox.scrollIntoView({ block: 'start' });
      else cardOf(current!)?.scrollIntoView({ block: 'center' });
    });
    window.addEventListener('resize', updateToRequest);
  }

  // Two columns: the sticky pane column never outgrows what is left of the grid in the viewport,
  // so near the end of the timeline it shrinks instead of being pushed above the viewport.
  const grid = article.querySelector<HTMLElement>('.scenario-grid');
  let queued = false;
  const fitColumn = (): void => {
    queued = false;
    if (!grid) return;
    const top = parseFloat(getComputedStyle(panesBox).top) || 0;
    const room = Math.min(window.innerHeight - 2 * top, grid.getBoundingClientRect().bottom - top);
    panesBox.style.setProperty('--pane-max', `${Math.max(160, Math.floor(room))}px`);
    // The selected pane's sticky header covers the top of the column: what the browser scrolls
    // into view there (a focused link, find in page) lands below it, not under it.
    panesBox.style.scrollPaddingTop = `${panes.get(current!)?.querySelector<HTMLElement>('.pane-head')?.offsetHeight ?? 0}px`;
  };
  const queueFit = (): void => {
    if (!queued) requestAnimationFrame(fitColumn);
    queued = true;
  };
  window.addEventListener('scroll', queueFit, { passive: true });
  window.addEventListener('resize', queueFit);
  queueFit(); // with the first frame, not in the script's own task (it measures the laid-out page)
  // Provider wire views: written by their own chunk, loaded when a view first opens.
  article.addEventListener(
    'toggle',
    (e) => {
      const d = e.target as HTMLDetailsElement;
      if (!d.matches('details.wire') || !d.open) return;
      void Promise.all([
        import('./wire-view.ts'),
        ready().then(
          (x) => x.wire,
          (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
        ),
      ]).then(([m, wire]) => m.initWireView(d, wire));
    },
    true,
  );

  // First intent to look at another event: a pointer or focus on the timeline.
  const timeline = article.querySelector('.timeline');
  for (const type of ['pointerover', 'focusin'] as const) timeline?.addEventListener(type, prefetch, { once: true });

  window.addEventListener('hashchange', fromHash);
  const initial = current;
  fromHash();
  // Opened without a deep link: the page starts at its title (the window is not scrolled) with the
  // scenario's opening request (`opens:`) selected — the build already marked its card and pane.
  // Its card and pane are marked in the page already; what is left (the pane column scrolled to the
  // ✂ line) measures the laid-out page, so it waits for the first frame.
  if (current === initial && current !== undefined && waiting === undefined) {
    const first = current;
    requestAnimationFrame(() => {
      if (current === first) select(first);
    });
  }
}
