/**
 * The scenario page's only script: selects an event (its card and its pane), from clicks, from the
 * URL hash `#@<offset>` (deep links), from j/k and arrow keys, and from provenance links in the
 * pane; hovering a prompt line highlights the card of the event that produced it. Panes not in the
 * page are built from the page's pane data (components/pane-data.ts) the first time they are shown.
 */
import type { PaneData } from './pane-data.ts';
import { indentOf, paneMarkup } from './pane-markup.ts';

const expand = (rle: number[], consecutive: boolean): number[] => {
  const out: number[] = [];
  for (let i = 0; i < rle.length; i += 2) for (let k = 0; k < rle[i + 1]!; k++) out.push(rle[i]! + (consecutive ? k : 0));
  return out;
};

const NAMED: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };
/** Text of highlighted line HTML: tags dropped, the entities an HTML serialiser writes decoded. */
const textOf = (html: string): string =>
  html.replace(/<[^>]*>/g, '').replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, n: string) =>
    n[0] === '#' ? String.fromCodePoint(n[1] === 'x' || n[1] === 'X' ? parseInt(n.slice(2), 16) : Number(n.slice(1))) : (NAMED[n] ?? m));

/** Builds the pane of one event from the encoded data, with the shared pane markup (pane-markup.ts). */
function buildPane(off: string, data: PaneData, typeOf: (off: string) => string): HTMLElement | undefined {
  const enc = data.panes[Number(off)];
  if (!enc) return undefined;
  const ids = expand(enc.lines, true);
  const froms = expand(enc.from, false).map((f) => data.from[f]!);
  const removedAt = new Map(enc.removed.map((r) => [r[0]!, r.slice(1).map((t) => data.text[t]!)]));
  const abridgedAt = new Map((enc.abridged ?? []).map(([i, t]) => [i!, data.text[t!]!]));
  const html = paneMarkup({
    offset: Number(off), kind: enc.kind, idPrefix: 'pane', typeOf,
    ...(enc.kind === 'request' && { model: textOf(data.html[ids[0]!] ?? '').replace(/^model: /, '') }),
    ...(enc.cached !== undefined && { cachedPercent: enc.cached }),
    ...(enc.kind !== 'request' && { eventType: typeOf(off) }),
    ...(enc.rejected && { rejected: enc.rejected }),
    lines: ids.map((id, i) => ({
      html: data.html[id]!, // highlighted at build time by shiki: prompt text arrives escaped
      indent: indentOf(textOf(data.html[id]!)),
      status: enc.status[i] === '+' ? 'added' : enc.status[i] === '~' ? 'changed' : 'same',
      from: froms[i]!, removedBefore: removedAt.get(i) ?? [], cutAbove: enc.cut === i, notes: [],
      ...(abridgedAt.has(i) && { abridges: abridgedAt.get(i)! }),
    })),
    removedAtEnd: enc.removedAtEnd.map((t) => data.text[t]!),
  });
  const box = document.createElement('div');
  box.innerHTML = html;
  return box.firstElementChild as HTMLElement;
}

export function initScenarioPage(): void {
  const article = document.querySelector<HTMLElement>('article.scenario');
  if (!article) return;
  const cards = [...article.querySelectorAll<HTMLElement>('.card[data-offset]')];
  const panes = new Map([...article.querySelectorAll<HTMLElement>('.pane[data-offset]')].map((p) => [p.dataset.offset!, p]));
  const data = JSON.parse(document.getElementById('pane-data')?.textContent || 'null') as PaneData | null;
  const typeOf = (off: string): string => cardOf(off)?.querySelector('.type')?.textContent ?? '';
  const paneOf = (off: string): HTMLElement | undefined => {
    let pane = panes.get(off);
    if (!pane && data) {
      pane = buildPane(off, data, typeOf);
      if (pane) {
        article.querySelector('.panes')!.appendChild(pane);
        panes.set(off, pane);
      }
    }
    return pane;
  };
  const order = cards.map((c) => c.dataset.offset!);
  let current = article.dataset.default ?? order[0];

  const cardOf = (off: string): HTMLElement | undefined => cards.find((c) => c.dataset.offset === off);

  function select(off: string, opts: { hash?: boolean; scroll?: boolean; focus?: boolean } = {}): void {
    const card = cardOf(off);
    const pane = paneOf(off);
    if (!card || !pane) return;
    current = off;
    for (const c of cards) {
      const on = c === card;
      c.classList.toggle('selected', on);
      const link = c.querySelector('.card-link');
      if (on) link?.setAttribute('aria-current', 'true');
      else link?.removeAttribute('aria-current');
    }
    for (const p of panes.values()) p.classList.toggle('selected', p === pane);
    const shared = card.closest('details');
    if (shared && !shared.open) shared.open = true;
    revealChange(pane);
    if (opts.hash) history.replaceState(null, '', `#@${off}`);
    if (opts.scroll) card.scrollIntoView({ block: 'nearest' });
    if (opts.focus) card.querySelector<HTMLElement>('.card-link')?.focus({ preventScroll: !opts.scroll });
  }

  /** In the sticky pane column, scroll to the ✂ line or the first change of the selected pane. */
  function revealChange(pane: HTMLElement): void {
    const box = pane.parentElement;
    if (!box || box.scrollHeight <= box.clientHeight || getComputedStyle(box).position !== 'sticky') return;
    const target = ['.cut', '.ln.s-changed, .ln.s-added, .ln.s-removed'].map((sel) => pane.querySelector<HTMLElement>(sel)).find(Boolean);
    box.scrollTop = target ? Math.max(0, target.offsetTop - box.clientHeight / 3) : 0;
  }

  function fromHash(): void {
    const m = /^#@(\d+)$/.exec(decodeURIComponent(location.hash));
    if (m && cardOf(m[1]!)) select(m[1]!, { scroll: true });
  }

  article.addEventListener('click', (e) => {
    const a = (e.target as HTMLElement).closest<HTMLAnchorElement>('a.card-link, a.prov');
    if (!a) return;
    const m = /#@(\d+)$/.exec(a.getAttribute('href') ?? '');
    if (!m || !cardOf(m[1]!)) return;
    e.preventDefault();
    select(m[1]!, { hash: true, scroll: a.classList.contains('prov'), focus: a.classList.contains('prov') });
  });

  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target as HTMLElement;
    if (t.closest('input, textarea, select, [contenteditable="true"], summary')) return;
    const step = e.key === 'j' || e.key === 'ArrowDown' ? 1 : e.key === 'k' || e.key === 'ArrowUp' ? -1 : 0;
    if (!step) return;
    if (t.closest('.code') && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) return; // let the pane scroll
    const i = order.indexOf(current!);
    const next = order[Math.min(order.length - 1, Math.max(0, i + step))];
    if (next === undefined || next === current) return;
    e.preventDefault();
    select(next, { hash: true, scroll: true, focus: true });
  });

  const hover = (on: boolean) => (e: Event): void => {
    const line = (e.target as HTMLElement).closest<HTMLElement>('.ln[data-from]');
    if (!line) return;
    for (const off of line.dataset.from!.split(' ')) cardOf(off)?.classList.toggle('prov-hover', on);
    line.classList.toggle('prov-hover', on);
  };
  for (const type of ['mouseover', 'focusin'] as const) article.addEventListener(type, hover(true));
  for (const type of ['mouseout', 'focusout'] as const) article.addEventListener(type, hover(false));

  // Before / After / Diff switches of reviewed requests.
  for (const tabs of article.querySelectorAll<HTMLElement>('.review-tabs')) tabs.hidden = false;
  article.addEventListener('click', (e) => {
    const button = (e.target as HTMLElement).closest<HTMLButtonElement>('.review-tabs button[data-view]');
    if (!button) return;
    const box = button.closest<HTMLElement>('.reviewable')!;
    box.dataset.active = button.dataset.view!;
    for (const b of button.parentElement!.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b === button));
  });

  window.addEventListener('hashchange', fromHash);
  fromHash();
}
