/**
 * The dev server's line to the open browser tabs. When a scenario edit breaks the corpus, the
 * content store does not change, so Astro neither reloads the page nor shows anything: the open tab
 * would keep the old page (and before this module, the loader's rejected promise reached Astro as an
 * "Unhandled rejection" with a frame in Vite's code). So the dev watcher (dev-watch.ts) sends the project's own
 * error straight to the open tabs' overlay — Astro renders it exactly as when the page is loaded:
 * title, location, the file's code, the hint — and, once the corpus is fine again, reloads them.
 *
 * Sending the error (not reloading into the error page) matters: a reload racing the next save could
 * lose Astro's error message, which it sends over the socket of the page that is just unloading.
 * For the same reason the error is kept while the corpus is broken and sent again whenever a tab
 * connects: Astro sends a page's error once, to the tabs connected a moment after the page is
 * served, and keeps it for a later tab only while none is connected — a tab opened or reloaded
 * beside another, or on a busy machine, would show a blank error page (Vite replays its own build
 * errors the same way).
 * The integration registers the Vite dev server's client channel here (`astro:server:setup`);
 * shared through globalThis: the integration and the loader are different module instances.
 */
import type { ScenarioError } from './astro-error.ts';
import { sharedState } from './shared-state.ts';

type Payload = { type: 'full-reload'; path: string } | { type: 'error'; err: ScenarioError };

interface HotChannel {
  send(payload: Payload): void;
  on(event: 'vite:client:connect', listener: () => void): void;
}

interface Project {
  hot?: HotChannel;
  /** The corpus's error while it is broken: sent to every tab that connects. */
  error?: ScenarioError;
}

const projects = sharedState('dev-reload', () => new Map<string, Project>());
const project = (root: string): Project => projects.get(root) ?? projects.set(root, {}).get(root)!;

/** Called by the integration with the dev server's client hot channel for the project at `root`. */
export function registerDevServer(root: string, hot: HotChannel): void {
  const p = project(root);
  p.hot = hot;
  // Sent to every tab (Astro renders the overlay only from a broadcast): the tabs that already
  // show this error show it again, the one that just connected shows it for the first time.
  hot.on('vite:client:connect', () => {
    if (p.error && p.hot === hot) hot.send({ type: 'error', err: p.error });
  });
}

/**
 * Shows `err` in the overlay of every open tab of the project, and of every tab that connects
 * until corpusFixed(); false when no dev server is registered (the error is kept for when it is).
 */
export function showInOpenTabs(root: string, err: ScenarioError): boolean {
  const p = project(root);
  p.error = err;
  if (!p.hot) return false;
  // Astro's dev server wraps this channel: an error payload gets the same treatment as its own
  // (markdown rendered and escaped, the file's code with the error line marked).
  p.hot.send({ type: 'error', err });
  return true;
}

/**
 * The corpus is fine again: tabs that connect get no error, and with `reload` every open tab is
 * reloaded (to drop the overlay; the loader asks when nothing else would reload them). False when no
 * dev server is registered.
 */
export function corpusFixed(root: string, { reload }: { reload: boolean }): boolean {
  const p = project(root);
  delete p.error;
  if (!p.hot) return false;
  if (reload) p.hot.send({ type: 'full-reload', path: '*' });
  return true;
}
