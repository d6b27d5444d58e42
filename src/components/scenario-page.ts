/**
 * The scenario page's only script: selects an event (its card and its pane), from clicks, from the
 * URL hash `#@<offset>` (deep links), from j/k and arrow keys, and from provenance links in the
 * pane; hovering a prompt line highlights the card of the event that produced it. Panes not in the
 * page are built from the page's pane data (components/pane-data.ts) the first time they are shown.
 */
import type { EncodedPane, PaneData } from './pane-data.ts';
import { CUT_COMMENT } from '../prompt/weave.ts';

function el(tag: string, attrs: Record<string, string> = {}, text?: string): HTMLElement {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

const expand = (rle: number[], consecutive: boolean): number[] => {
  const out: number[] = [];
  for (let i = 0; i < rle.length; i += 2) for (let k = 0; k < rle[i + 1]!; k++) out.push(rle[i]! + (consecutive ? k : 0));
  return out;
};

/** The pane header's token badge (same markup as PaneTokens.astro). */
function tokensBadge(t: NonNullable<EncodedPane['econ']>): HTMLElement {
  const b = el('span', { class: 'badge econ-tokens', title: t.title });
  b.append(el('span', { class: 'visually-hidden' }, 'Input tokens: '), t.text);
  return b;
}

/** The note under the ✂ line (same markup as CutNote.astro). */
function cutNoteEl(n: NonNullable<NonNullable<EncodedPane['econ']>['note']>): HTMLElement {
  const d = el('div', { class: `cut-econ cause-${n.kind}`, role: 'note' });
  d.appendChild(el('span', {}, n.above));
  if (n.cause) d.appendChild(el('span', {}, ` — ${n.cause}`));
  if (n.events.length) {
    const s = d.appendChild(el('span', {}, ', by '));
    n.events.forEach((e, i) => {
      if (i) s.append(', ');
      s.appendChild(el('a', { class: 'prov', href: `#@${e.offset}`, 'data-off': String(e.offset) }, e.label));
    });
  }
  if (n.lost) d.appendChild(el('span', {}, ` (${n.lost})`));
  return d;
}

/** Builds the pane of one event from the encoded data, with the same markup as Pane.astro. */
function buildPane(off: string, data: PaneData, typeOf: (off: string) => string): HTMLElement | undefined {
  const enc = data.panes[Number(off)];
  if (!enc) return undefined;
  const ids = expand(enc.lines, true);
  const froms = expand(enc.from, false).map((f) => data.from[f]!);
  const section = el('section', { class: 'pane', id: `pane-${off}`, 'data-offset': off, 'data-kind': enc.kind, 'aria-labelledby': `pane-${off}-h` });
  const heading = enc.kind === 'request' ? `Request @${off}` : enc.kind === 'rejected' ? `@${off}: request not accepted` : `As of @${off}`;
  const head = section.appendChild(el('div', { class: 'pane-head' }));
  head.appendChild(el('h2', { id: `pane-${off}-h` }, heading));
  if (enc.kind === 'request') head.appendChild(el('code', {}, (data.html[ids[0]!] ?? '').replace(/<[^>]*>/g, '').replace(/^model: /, '')));
  if (enc.cached !== undefined) head.appendChild(el('span', { class: 'badge', title: "Share of this request's characters above the ✂ line, i.e. a byte-stable prefix the provider can reuse" }, `${enc.cached}% byte-stable prefix`));
  if (enc.econ) head.appendChild(tokensBadge(enc.econ));
  if (enc.kind !== 'request') head.appendChild(el('span', { class: 'muted' }, typeOf(off)));
  const removedCount = enc.removed.reduce((n, r) => n + r.length - 1, enc.removedAtEnd.length);
  const legend = head.appendChild(el('span', { class: 'legend' }));
  legend.appendChild(el('span', { class: 'visually-hidden' }, 'Changes since the previous event:'));
  for (const t of [`+${[...enc.status].filter((c) => c === '+').length} added`, `~${[...enc.status].filter((c) => c === '~').length} changed`, `−${removedCount} removed`]) legend.appendChild(el('span', {}, t));
  if (enc.rejected) section.appendChild(el('p', { class: 'rejected' }, `Not sent: ${enc.rejected}`));
  const box = section.appendChild(el('div', { class: 'reviewable', 'data-active': 'after' }));
  const code = box.appendChild(el('div', { class: 'code review-view', 'data-view': 'after', role: 'region', 'aria-label': `${heading} — prompt text`, tabindex: '0' }));
  const sign = (ch: string, label: string): HTMLElement => {
    const s = el('span', { class: 'sign' });
    s.appendChild(el('span', { 'aria-hidden': 'true' }, ch));
    if (label) s.appendChild(el('span', { class: 'visually-hidden' }, label));
    return s;
  };
  const removedRow = (t: number): void => {
    const row = code.appendChild(el('div', { class: 'ln s-removed' }));
    row.append(el('span', { class: 'gutter' }), sign('−', 'removed'), el('span', { class: 'src' }, data.text[t]));
  };
  const removedAt = new Map(enc.removed.map((r) => [r[0]!, r.slice(1)]));
  ids.forEach((id, i) => {
    for (const t of removedAt.get(i) ?? []) removedRow(t);
    if (enc.cut === i) {
      const cut = code.appendChild(el('div', { class: 'cut', role: 'separator' }));
      cut.append(el('strong', {}, '✂'), ` ${CUT_COMMENT.replace(/^✂ /, '')}`);
      if (enc.econ?.note) code.appendChild(cutNoteEl(enc.econ.note));
    }
    const status = enc.status[i] === '+' ? 'added' : enc.status[i] === '~' ? 'changed' : 'same';
    const row = code.appendChild(el('div', { class: `ln s-${status}` }));
    const from = froms[i]!;
    if (from) row.dataset.from = from;
    const gutter = row.appendChild(el('span', { class: 'gutter' }));
    if (from && (i === 0 || froms[i - 1] !== from)) {
      const first = from.split(' ')[0]!;
      const title = from.split(' ').map((o) => `from @${o} ${typeOf(o)}`.trim()).join('; ');
      gutter.appendChild(el('a', { class: 'prov', href: `#@${first}`, title, 'data-off': first }, `@${first}`));
    }
    row.appendChild(sign(status === 'added' ? '+' : status === 'changed' ? '~' : ' ', status === 'same' ? '' : status));
    const src = row.appendChild(el('span', { class: 'src' }));
    src.innerHTML = data.html[id]!; // highlighted at build time by shiki: prompt text arrives escaped
    const indent = (src.textContent ?? '').length - (src.textContent ?? '').trimStart().length;
    if (indent) row.style.setProperty('--ind', `${indent}ch`);
  });
  for (const t of enc.removedAtEnd) removedRow(t);
  return section;
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
