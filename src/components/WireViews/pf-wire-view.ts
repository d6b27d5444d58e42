/**
 * The wire views in the browser (WireViews.astro, beside it, writes their markup), loaded by the
 * scenario page only when a view is first opened (a chunk of its own: pages pay nothing for it
 * until then — so, unlike the other elements, no `<script>` of its component imports it). It writes each provider's JSON body for
 * the pane's request — from the packed messages of the page's data file (scenario-data.ts, see wire-data.ts) through the
 * same mappings as everything else (src/wire) — as DOM text nodes in the token classes of the
 * site's shiki themes, so prompt text never becomes markup. "Copy as JSON" copies the body exactly
 * as shown; "Copy as cURL" builds the command with src/wire/curl.ts, whose API key is always an
 * environment-variable reference — never a value. Below the JSON, the body's tool calls by name
 * with their input readable (render/wire-tools.ts: a call's input is JSON inside a JSON string, or
 * an imported request's `[tool_call] {…}` line inside a text string), as text nodes too; the JSON
 * above stays the exact body, and is what the copy buttons copy.
 */
import { curlCommand } from '../../wire/curl.ts';
import { toWire } from '../../wire/index.ts';
import { jsonTokens } from '../../wire/json-tokens.ts';
import { unpackWire } from '../../wire/pack.ts';
import { WIRE_FORMATS, type WireFormat } from '../../wire/types.ts';
import type { WireData } from '../../render/wire-data.ts';
import { wireToolCalls, wireToolHeading } from '../../render/wire-tools.ts';

const isFormat = (f: string | undefined): f is WireFormat => (WIRE_FORMATS as readonly string[]).includes(f ?? '');

/** Fills every empty format view of one request's wire <details> with its highlighted JSON (`wire`: the page's, or why it could not be fetched). */
export function renderWire(details: HTMLElement, wire: WireData | null | Error): void {
  const offset = Number(details.closest<HTMLElement>('.pane')?.dataset.offset);
  const source = wire && !(wire instanceof Error) && Number.isInteger(offset) ? unpackWire(wire, offset) : undefined;
  for (const box of details.querySelectorAll<HTMLElement>('.wire-format')) {
    const code = box.querySelector('pre.wire-json > code');
    const format = box.dataset.format;
    if (!code || code.childNodes.length > 0 || !isFormat(format)) continue;
    if (wire instanceof Error) {
      code.textContent = `Could not load the provider JSON: ${wire.message}. Close and open the view again to retry, or reload the page.`;
      continue;
    }
    if (!wire || !source) {
      code.textContent = 'This request has no provider JSON on this page.';
      continue;
    }
    const out = document.createDocumentFragment();
    const body = toWire(format, source);
    for (const t of jsonTokens(body)) {
      const cls = wire.classes[t.kind];
      if (!cls) {
        out.append(t.text);
        continue;
      }
      const span = document.createElement('span');
      span.className = cls;
      span.textContent = t.text;
      out.append(span);
    }
    code.append(out);
    box.querySelector('.wire-tools')?.remove();
    const tools = toolsReadable(body);
    if (tools) box.append(tools);
  }
}

/** The body's tool calls and results, readable (a closed <details> of text nodes), or null when it has none. */
function toolsReadable(body: unknown): HTMLElement | null {
  const tools = wireToolCalls(body);
  if (!tools.length) return null;
  const calls = tools.filter((t) => t.kind === 'call').length;
  const details = document.createElement('details');
  details.className = 'wire-tools';
  const summary = document.createElement('summary');
  summary.textContent = `${calls} tool call${calls === 1 ? '' : 's'} and ${tools.length - calls} result${tools.length - calls === 1 ? '' : 's'}, readable (the JSON above is the exact body)`;
  details.append(summary);
  for (const t of tools) {
    const head = document.createElement('p');
    head.className = 'wire-tool';
    head.textContent = wireToolHeading(t);
    details.append(head);
    if (t.kind !== 'call') continue;
    // Not a <pre>: the view's one <pre> is the exact body.
    const input = document.createElement('div');
    input.className = 'wire-tool-input';
    input.textContent = t.input;
    details.append(input);
  }
  return details;
}

/** The text a copy button puts on the clipboard. */
export function copyText(button: HTMLElement): string | undefined {
  const box = button.closest<HTMLElement>('.wire-format');
  const format = box?.dataset.format;
  const json = box?.querySelector('pre.wire-json')?.textContent ?? undefined;
  if (!isFormat(format) || !json) return undefined;
  return button.dataset.copy === 'curl' ? curlCommand(format, json) : json;
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * `<pf-wire-view>`: the views inside one request's wire <details> (WireViews.astro). Defined by this
 * chunk, so the elements in the page upgrade when it first loads; the page hands it the wire data
 * (`show`). Its state is its private fields: whether the views are written, whether the last try
 * failed.
 */
export class WireView extends HTMLElement {
  #written = false;
  #failed = false;

  connectedCallback(): void {
    this.addEventListener('click', (e) => this.onCopy(e));
  }

  /** Writes the views (once) and shows the copy buttons; after a failed fetch, says so and tries again next time. */
  show(wire: WireData | null | Error): void {
    if (this.#written) return;
    const details = this.closest<HTMLElement>('details.wire') ?? this;
    if (wire instanceof Error) {
      renderWire(details, wire); // written again on the next open
      this.#failed = true;
      return;
    }
    this.#written = true;
    if (this.#failed) {
      for (const code of this.querySelectorAll('pre.wire-json > code')) code.replaceChildren();
      this.#failed = false;
    }
    renderWire(details, wire);
    for (const actions of this.querySelectorAll<HTMLElement>('.wire-actions')) actions.hidden = false;
  }

  private onCopy(e: Event): void {
    const button = (e.target as HTMLElement).closest<HTMLButtonElement>('button[data-copy]');
    if (!button || !this.#written) return;
    const text = copyText(button);
    if (text === undefined) return;
    const status = this.querySelector<HTMLElement>('.wire-status');
    void copy(text).then((ok) => {
      if (status) status.textContent = ok ? `Copied ${button.dataset.copy === 'curl' ? 'the cURL command' : 'the JSON'}.` : 'Copying is blocked here: select the JSON and copy it.';
    });
  }
}

if (!customElements.get('pf-wire-view')) customElements.define('pf-wire-view', WireView);
