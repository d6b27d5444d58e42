/**
 * The dev server's line to the open browser tabs. When a scenario edit breaks the corpus, the
 * content store does not change, so Astro neither reloads the page nor shows anything: the open tab
 * would keep the old page (and before this module, the loader's rejected promise reached Astro as an
 * "Unhandled rejection" with a frame in Vite's code). So the content loader sends the project's own
 * error straight to the open tabs' overlay — the same title, location, code and hint the page shows
 * when it is loaded — and, once the corpus is fine again, reloads them.
 *
 * Sending the error (not reloading into the error page) matters: a reload racing the next save could
 * lose Astro's error message, which it sends over the socket of the page that is just unloading.
 * The integration registers the Vite dev server's client channel here (`astro:server:setup`);
 * shared through globalThis: the integration and the loader are different module instances.
 */
import { readFileSync } from 'node:fs';
import type { ScenarioError } from './astro-error.ts';

const KEY = Symbol.for('prompt-fold-explainer/dev-reload');

type Payload = { type: 'full-reload'; path: string } | { type: 'error'; err: Record<string, unknown> };

interface HotChannel {
  send(payload: Payload): void;
}

const channels = ((globalThis as Record<symbol, unknown>)[KEY] ??= new Map()) as Map<string, HotChannel>;

/** Called by the integration with the dev server's client hot channel for the project at `root`. */
export function registerDevServer(root: string, hot: HotChannel): void {
  channels.set(root, hot);
}

/** Reloads every open tab of the project at `root`; false when no dev server is registered. */
export function reloadOpenTabs(root: string): boolean {
  const hot = channels.get(root);
  if (!hot) return false;
  hot.send({ type: 'full-reload', path: '*' });
  return true;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Markdown-ish text as the overlay shows it (it sets innerHTML): escaped, `code` spans marked. */
export function overlayHtml(text: string): string {
  return escapeHtml(text).replace(/`([^`\n]+)`/g, '<code>$1</code>');
}

/** The scenario file's text as the overlay's code panel (escaped; the error line marked). */
export function codePanel(source: string, line: number): string {
  const rows = source.replace(/\n$/, '').split('\n').map((l, i) => `<span class="line${i + 1 === line ? ' error-line' : ''}">${escapeHtml(l)}</span>`);
  return `<pre class="shiki" tabindex="0"><code>${rows.join('\n')}</code></pre>`;
}

/** The error payload Astro's overlay reads (the same fields its own dev errors carry). */
export function overlayPayload(err: ScenarioError): Payload {
  let highlightedCode: string | undefined;
  if (err.loc) {
    try {
      highlightedCode = codePanel(readFileSync(err.loc.file, 'utf8'), err.loc.line);
    } catch {
      highlightedCode = undefined; // the file is gone: the message still says where it was
    }
  }
  return {
    type: 'error',
    err: {
      name: err.name, title: 'An error occurred.', message: overlayHtml(err.message), hint: overlayHtml(err.hint ?? ''), stack: '',
      ...(err.loc && { loc: err.loc }), ...(highlightedCode && { highlightedCode }), plugin: 'prompt-fold-explainer',
    },
  };
}

/** Shows `err` in the overlay of every open tab of the project; false when no dev server is registered. */
export function showInOpenTabs(root: string, err: ScenarioError): boolean {
  const hot = channels.get(root);
  if (!hot) return false;
  hot.send(overlayPayload(err));
  return true;
}
