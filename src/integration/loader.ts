/**
 * The content-layer loader over scenarios/: one entry per scenario with a listing's summary (title,
 * fold, counts, cache reuse), re-run when a scenario file changes in `astro dev` — a change of the
 * entries is how Astro learns that content changed and reloads the open tabs. The pages themselves
 * read the rendered corpus (site.ts); errors are thrown by the pages (the overlay).
 *
 * In `astro dev` an edit never ends in an unhandled rejection (Astro would show its generic
 * "Unhandled rejection" overlay with a frame in Vite's code): a scenario error is logged here in
 * full — every error of every file, as `npm run check` prints it — and sent to the open tabs'
 * overlay at once (dev-reload.ts); fixing the file reloads them. Anything else (a bug) is logged with its stack and the previous entries are kept.
 *
 * Who reloads the tabs after a fix: when the fix changes the entries (always so when the server
 * started on a broken corpus: there were none), Astro persists the store and then reloads the
 * tabs itself; when they are as before the break, Astro sees no change, so the loader reloads
 * them. (The pages read the corpus, not the collection, so a reload before Astro has persisted
 * the store already finds every scenario route: src/routes/scenarios/[id].astro.)
 */
import type { Loader } from 'astro/loaders';
import { join } from 'node:path';
import { UserError } from '../errors.ts';
import { isScenarioError } from './astro-error.ts';
import { corpusFixed, showInOpenTabs } from './dev-reload.ts';

/** How long after a sync the loader looks again for a file that was still being written. */
const RECHECK_MS = 300;

export function scenarioLoader(): Loader {
  return {
    name: 'prompt-fold-explainer/scenarios',
    load: async ({ store, logger, watcher, generateDigest }) => {
      // Without a dev server (`astro build`, `astro sync`, `astro check`) there are no tabs to tell,
      // and no page reads the collection (they read the corpus, site.ts) — which a build has already
      // checked (the integration): so nothing is loaded, not even the corpus's modules, which Vite
      // would otherwise run a second time just for this (about a second of every build).
      if (!watcher) return;
      const { siteConfig, siteCorpus } = await import('./site.ts');
      const { readSnapshot } = await import('./shared-render.ts');
      const c = await siteConfig();
      let broken = false;
      /** The digest of the files the last sync loaded. */
      let synced: string | undefined;
      /** The entries' ids and digests: what Astro compares to decide the store changed. */
      const snapshot = (): string => JSON.stringify(store.entries().map(([id, e]) => [id, e.digest]));
      /** Loads the corpus into the store: `ok` when it loaded without errors, `changed` when the entries differ from before. */
      const sync = async (): Promise<{ ok: boolean; changed: boolean }> => {
        const before = snapshot();
        try {
          const files = readSnapshot(c);
          synced = files.digest;
          const site = await siteCorpus(files);
          store.clear();
          for (const v of site.summaries) {
            const data = {
              title: v.title,
              fold: v.fold,
              file: v.file,
              base: v.base ?? null,
              events: v.events,
              requests: v.requests,
              cachedShare: v.cachedShare,
              inputTokens: v.inputTokens,
              cachedTokenShare: v.cachedTokenShare,
              uncachedWhy: v.uncachedWhy,
              exactTokens: v.exactTokens,
            };
            store.set({ id: v.id, data, digest: generateDigest(data) });
          }
          return { ok: true, changed: snapshot() !== before };
        } catch (err) {
          if (isScenarioError(err)) {
            logger.error(err.report);
            // The store is unchanged, so Astro shows nothing: the open tabs get the error directly
            // (at start there are none yet: it is kept for the tabs that connect, dev-reload.ts).
            showInOpenTabs(c.root, err);
          } else if (UserError.is(err)) logger.error(err.message);
          else logger.error(`unexpected error while loading the scenarios (a bug, not your scenario):\n${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
          return { ok: false, changed: false };
        }
      };
      broken = !(await sync()).ok;
      if (watcher) {
        const dir = join(c.root, c.scenariosDir);
        watcher.add(dir);
        let queue = Promise.resolve();
        /** Syncs after the ones queued (one at a time, in order: a burst of saves ends with the last file state shown). */
        const enqueue = (recheck: boolean): void => {
          queue = queue.then(async () => {
            const { ok, changed } = await sync();
            if (ok && broken) {
              logger.info('scenarios ok again');
              // Fixed: the tabs must drop the overlay. Changed entries: Astro reloads them once it
              // has persisted the store (see the header); unchanged: nothing would, so reload here.
              corpusFixed(c.root, { reload: !changed });
            }
            broken = !ok;
            // A file read while it was being written (half of it: "malformed YAML") may get no
            // later change event: look once more when the write is over, and sync if the files
            // are not what this sync loaded.
            if (recheck) setTimeout(() => (filesChanged() ? enqueue(false) : undefined), RECHECK_MS);
          });
        };
        const filesChanged = (): boolean => {
          try {
            return readSnapshot(c).digest !== synced;
          } catch {
            return false; // unreadable now (e.g. a link out of the project): the next sync reports it
          }
        };
        const onChange = (path: string): void => {
          if (path.startsWith(dir)) enqueue(true);
        };
        watcher.on('change', onChange);
        watcher.on('add', onChange);
        watcher.on('unlink', onChange);
      }
    },
  };
}
