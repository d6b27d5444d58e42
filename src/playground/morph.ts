/**
 * Updates the playground's pane in place instead of replacing it: the new markup is parsed off the
 * document, then the live DOM is patched to equal it, keeping every node that is already equal.
 * A request pane of a long scenario has hundreds of line rows and picking another event or typing
 * changes few of them; rows kept in the document keep their style and layout, so the browser lays
 * out only the rows that changed (replacing the whole pane re-laid out all of them, most of the
 * re-render's cost). The result is the same DOM as `innerHTML = html` (the browser tests compare).
 */

/** The markup last written into each target (an edit elsewhere in the text often leaves the pane as it was). */
const written = new WeakMap<Element, string>();

/**
 * Makes `target`'s children equal to those of the markup `html`, reusing equal nodes; nothing is
 * parsed or touched when `html` is what was last written there. (The target's own attributes are
 * the caller's; only its children are patched.)
 */
export function morphInto(target: Element, html: string): void {
  if (written.get(target) === html) return;
  const template = document.createElement('template');
  template.innerHTML = html;
  patchChildren(target, [...template.content.childNodes]);
  written.set(target, html);
}

/** Makes `to`'s attributes those of `from`. */
function syncAttributes(to: Element, from: Element): void {
  for (const { name } of [...to.attributes]) if (!from.hasAttribute(name)) to.removeAttribute(name);
  for (const { name, value } of from.attributes) if (to.getAttribute(name) !== value) to.setAttribute(name, value);
}

/** Whether an old node can be patched into a new one rather than replaced. */
const patchable = (old: Node, next: Node): boolean =>
  old.nodeType === next.nodeType &&
  (old.nodeType !== Node.ELEMENT_NODE || ((old as Element).tagName === (next as Element).tagName && (old as Element).className === (next as Element).className));

function patch(old: Node, next: Node): void {
  if (old.nodeType === Node.ELEMENT_NODE) {
    syncAttributes(old as Element, next as Element);
    patchChildren(old as Element, [...next.childNodes]);
  } else if (old.nodeValue !== next.nodeValue) old.nodeValue = next.nodeValue;
}

/**
 * Keeps the longest run of equal children at the start and at the end; in between, patches
 * children pairwise where they are the same kind of element and replaces the rest.
 */
function patchChildren(parent: Element, next: Node[]): void {
  const old = [...parent.childNodes];
  let start = 0;
  while (start < old.length && start < next.length && old[start]!.isEqualNode(next[start]!)) start++;
  let end = 0;
  while (end < old.length - start && end < next.length - start && old[old.length - 1 - end]!.isEqualNode(next[next.length - 1 - end]!)) end++;
  const oldMid = old.slice(start, old.length - end);
  const nextMid = next.slice(start, next.length - end);
  const anchor = old[old.length - end] ?? null; // the first kept node of the end run
  for (let i = 0; i < nextMid.length; i++) {
    const o = oldMid[i];
    const n = nextMid[i]!;
    if (o && patchable(o, n)) patch(o, n);
    else if (o) parent.replaceChild(n, o);
    else parent.insertBefore(n, anchor);
  }
  for (const o of oldMid.slice(nextMid.length)) o.remove();
}
