/**
 * The copy buttons of the wire views, loaded by the scenario page only when a wire view is first
 * opened (a separate chunk: pages pay nothing for it until then). "Copy as JSON" copies the body
 * exactly as shown; "Copy as cURL" builds the command with src/wire/curl.ts, whose API key is
 * always an environment-variable reference — never a value.
 */
import { curlCommand } from '../wire/curl.ts';
import { WIRE_FORMATS, type WireFormat } from '../wire/types.ts';

/** The text a copy button puts on the clipboard. */
export function copyText(button: HTMLElement): string | undefined {
  const box = button.closest<HTMLElement>('.wire-format');
  const format = box?.dataset.format as WireFormat | undefined;
  const json = box?.querySelector('pre.wire-json')?.textContent ?? undefined;
  if (!format || !(WIRE_FORMATS as readonly string[]).includes(format) || json === undefined) return undefined;
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

export function initWireCopy(details: HTMLElement): void {
  if (details.dataset.copyReady) return;
  details.dataset.copyReady = '1';
  for (const actions of details.querySelectorAll<HTMLElement>('.wire-actions')) actions.hidden = false;
  const status = details.querySelector<HTMLElement>('.wire-status');
  details.addEventListener('click', (e) => {
    const button = (e.target as HTMLElement).closest<HTMLButtonElement>('button[data-copy]');
    if (!button) return;
    const text = copyText(button);
    if (text === undefined) return;
    void copy(text).then((ok) => {
      if (status) status.textContent = ok ? `Copied ${button.dataset.copy === 'curl' ? 'the cURL command' : 'the JSON'}.` : 'Copying is blocked here: select the JSON and copy it.';
    });
  });
}
