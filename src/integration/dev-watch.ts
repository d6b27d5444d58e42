/**
 * `astro dev` follows the scenario files: the integration watches scenarios/ through the dev
 * server's own watcher (`astro:server:setup`), re-renders the corpus when a file changes, and
 * tells the open tabs (dev-reload.ts): the project's own error in their overlay when the corpus is
 * broken, a reload once it renders. The pages read the corpus from the files (site.ts), so Vite's
 * module graph knows nothing of them and would reload nothing by itself.
 *
 * Why not a content collection: Astro runs every collection's loader through a temporary Vite
 * server on every `astro build` and `astro sync` — about a second of each build, for a loader that
 * only matters while the dev server runs — and a host had to add it to its content config by hand.
 *
 * Every error of every file is printed in the terminal, as `npm run check` prints it; anything
 * that is not a scenario error (a bug) is printed with its stack, and the server keeps running. A
 * burst of saves is handled one sync at a time, in order, so the last state of the files is what
 * the tabs show; a file read while it was still being written is looked at once more shortly after.
 */
import { join, sep } from 'node:path';
import { UserError } from '../errors.ts';
import { CorpusError } from '../scenarios/errors.ts';
import { missingScenariosNotice } from '../scenarios/files.ts';
import type { CorpusConfig } from '../scenarios/load.ts';
import { blockingErrors } from '../review/expectations.ts';
import { corpusAstroError } from './astro-error.ts';
import { corpusFixed, showInOpenTabs } from './dev-reload.ts';
import { readSnapshot, sharedRender } from './shared-render.ts';

/** How long after a sync the watcher looks again for a file that was still being written. */
const RECHECK_MS = 300;

interface Watcher {
  add(path: string): unknown;
  on(event: 'change' | 'add' | 'unlink', listener: (path: string) => void): unknown;
}

interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * Renders the corpus now and after every change under the scenarios folder; returns a promise of
 * the first render's outcome (true: no error), for tests and for callers that want to wait.
 */
export function watchScenarios(c: CorpusConfig, watcher: Watcher, logger: Logger): Promise<boolean> {
  const dir = join(c.root, c.scenariosDir);
  let broken = false;
  /** The digest of the files the last sync rendered. */
  let synced: string | undefined;

  /** Renders the files as they are now: whether they render without a blocking error, and whether they differ from the last sync's. */
  const sync = async (): Promise<{ ok: boolean; changed: boolean }> => {
    try {
      const files = readSnapshot(c);
      const changed = files.digest !== synced;
      synced = files.digest;
      const blocking = blockingErrors(await sharedRender(c, files));
      if (blocking.length) {
        const err = corpusAstroError(c.root, new CorpusError(blocking));
        logger.error(err.report);
        // The open tabs get the error at once; it is kept for the tabs that connect while it lasts.
        showInOpenTabs(c.root, err);
        return { ok: false, changed };
      }
      return { ok: true, changed };
    } catch (err) {
      if (UserError.is(err)) logger.error(err.message);
      else logger.error(`unexpected error while loading the scenarios (a bug, not your scenario):\n${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return { ok: false, changed: false };
    }
  };

  // No folder yet: said once, as a build says it (pages come once a scenario file is added).
  const notice = missingScenariosNotice(c);
  if (notice) logger.warn(notice);
  let queue = sync().then(({ ok }) => {
    broken = !ok;
    return ok;
  });
  const first = queue;

  const filesChanged = (): boolean => {
    try {
      return readSnapshot(c).digest !== synced;
    } catch {
      return false; // unreadable now (e.g. a link out of the project): the next sync reports it
    }
  };
  /** Syncs after the ones queued; `recheck`: look once more when a write may still have been under way. */
  const enqueue = (recheck: boolean): void => {
    queue = queue.then(async () => {
      const { ok, changed } = await sync();
      if (ok && broken) logger.info('scenarios ok again');
      // Fixed, or changed and fine: the tabs reload (dropping the overlay) and show the files as they are.
      if (ok && (broken || changed)) corpusFixed(c.root, { reload: true });
      broken = !ok;
      if (recheck) setTimeout(() => (filesChanged() ? enqueue(false) : undefined), RECHECK_MS);
      return ok;
    });
  };
  const onChange = (path: string): void => {
    if (path === dir || path.startsWith(dir + sep)) enqueue(true);
  };
  watcher.add(dir);
  watcher.on('change', onChange);
  watcher.on('add', onChange);
  watcher.on('unlink', onChange);
  return first;
}
