/**
 * The content-layer loader over scenarios/: one entry per scenario with what listings need (title,
 * fold, counts, cache reuse), re-run when a scenario file changes in `astro dev` so its page
 * re-renders. Heavy rendering stays in site.ts; errors are thrown by the pages (the overlay).
 *
 * In `astro dev` an edit never ends in an unhandled rejection (Astro would show its generic
 * "Unhandled rejection" overlay with a frame in Vite's code): a scenario error is logged here in
 * full — every error of every file, as `npm run check` prints it — and sent to the open tabs'
 * overlay at once (dev-reload.ts); fixing the file reloads them. Anything else (a bug) is logged with its stack and the previous entries are kept.
 */
import type { Loader } from 'astro/loaders';
import { join } from 'node:path';
import { UserError } from '../errors.ts';
import { isScenarioError } from './astro-error.ts';
import { reloadOpenTabs, showInOpenTabs } from './dev-reload.ts';
import { siteConfig, siteCorpus } from './site.ts';

export function scenarioLoader(): Loader {
  return {
    name: 'prompt-fold-explainer/scenarios',
    load: async ({ store, logger, watcher, generateDigest }) => {
      const c = await siteConfig();
      let broken = false;
      /** Loads the corpus into the store; true when it loaded without errors. */
      const sync = async (live = false): Promise<boolean> => {
        try {
          const site = await siteCorpus();
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
              exactTokens: v.exactTokens,
            };
            store.set({ id: v.id, data, digest: generateDigest(data) });
          }
          return true;
        } catch (err) {
          if (!watcher) throw err; // a build: the integration already stopped it with the report
          if (isScenarioError(err)) {
            logger.error(err.report);
            // The store is unchanged, so Astro shows nothing: the open tabs get the error directly.
            if (live) showInOpenTabs(c.root, err);
          } else if (UserError.is(err)) logger.error(err.message);
          else logger.error(`unexpected error while loading the scenarios (a bug, not your scenario):\n${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
          return false;
        }
      };
      broken = !(await sync());
      if (watcher) {
        const dir = join(c.root, c.scenariosDir);
        watcher.add(dir);
        let queue = Promise.resolve();
        const onChange = (path: string): void => {
          if (!path.startsWith(dir)) return;
          // One sync at a time, in order: a burst of saves ends with the last file state shown.
          queue = queue.then(async () => {
            const ok = await sync(true);
            // Fixed: reload the tabs so they drop the overlay (the store may not have changed).
            if (ok && broken) reloadOpenTabs(c.root);
            if (ok && broken) logger.info('scenarios ok again');
            broken = !ok;
          });
        };
        watcher.on('change', onChange);
        watcher.on('add', onChange);
        watcher.on('unlink', onChange);
      }
    },
  };
}
