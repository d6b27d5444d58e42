/**
 * The dev server's line to the open browser tabs. When a scenario edit breaks the corpus, the
 * content store does not change, so Astro neither reloads the page nor shows anything: the open tab
 * would keep the old page (and before this module, the loader's rejected promise reached Astro as an
 * "Unhandled rejection" with a frame in Vite's code). So the content loader sends the project's own
 * error straight to the open tabs' overlay — Astro renders it exactly as when the page is loaded:
 * title, location, the file's code, the hint — and, once the corpus is fine again, reloads them.
 *
 * Sending the error (not reloading into the error page) matters: a reload racing the next save could
 * lose Astro's error message, which it sends over the socket of the page that is just unloading.
 * The integration registers the Vite dev server's client channel here (`astro:server:setup`);
 * shared through globalThis: the integration and the loader are different module instances.
 */
import type { ScenarioError } from './astro-error.ts';

const KEY = Symbol.for('prompt-fold-explainer/dev-reload');

type Payload = { type: 'full-reload'; path: string } | { type: 'error'; err: ScenarioError };

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

/** Shows `err` in the overlay of every open tab of the project; false when no dev server is registered. */
export function showInOpenTabs(root: string, err: ScenarioError): boolean {
  const hot = channels.get(root);
  if (!hot) return false;
  // Astro's dev server wraps this channel: an error payload gets the same treatment as its own
  // (markdown rendered and escaped, the file's code with the error line marked).
  hot.send({ type: 'error', err });
  return true;
}
