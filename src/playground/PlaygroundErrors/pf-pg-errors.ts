/**
 * `<pf-pg-errors>`: the playground's errors (PlaygroundErrors.astro, beside it, writes the empty
 * element and imports this file in its `<script>`), each exactly as `npm run check` prints it; an error in
 * the edited file has a "Go to line" button, which asks the page (`pf-goto`, detail: line and
 * column) to put the editor's cursor there. No state beyond what it shows.
 */
import type { PlaygroundError } from '../engine.ts';

export interface GotoDetail {
  line: number;
  col: number;
}

export class PlaygroundErrors extends HTMLElement {
  /** Shows `errors`; those of `file` (the edited text) get their "Go to line" button. */
  show(errors: readonly PlaygroundError[], file: string): void {
    this.replaceChildren();
    if (!errors.length) return;
    const h = this.appendChild(document.createElement('h3'));
    h.textContent = `${errors.length} error${errors.length === 1 ? '' : 's'}`;
    const list = this.appendChild(document.createElement('ul'));
    for (const e of errors) {
      const li = list.appendChild(document.createElement('li'));
      if (e.file === file) {
        const go = li.appendChild(document.createElement('button'));
        go.type = 'button';
        go.className = 'pg-goto';
        go.textContent = `Go to line ${e.line}`;
        go.addEventListener('click', () => this.dispatchEvent(new CustomEvent<GotoDetail>('pf-goto', { detail: { line: e.line, col: e.col }, bubbles: true })));
      }
      const pre = li.appendChild(document.createElement('pre'));
      pre.textContent = e.formatted; // exactly what `npm run check` prints
    }
  }
}

if (!customElements.get('pf-pg-errors')) customElements.define('pf-pg-errors', PlaygroundErrors);
