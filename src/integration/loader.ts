/**
 * The content-layer loader over scenarios/: one entry per scenario with what listings need (title,
 * fold, counts, cache reuse), re-run when a scenario file changes in `astro dev` so its page
 * re-renders. Heavy rendering stays in site.ts; errors are logged here and thrown by the pages.
 */
import type { Loader } from 'astro/loaders';
import { join } from 'node:path';
import { CorpusError } from '../scenarios/errors.ts';
import { siteConfig, siteCorpus } from './site.ts';

export function scenarioLoader(): Loader {
  return {
    name: 'prompt-fold-explainer/scenarios',
    load: async ({ store, logger, watcher, generateDigest }) => {
      const c = await siteConfig();
      const sync = async (): Promise<void> => {
        try {
          const site = await siteCorpus();
          store.clear();
          for (const v of site.summaries) {
            const data = { title: v.title, fold: v.fold, file: v.file, base: v.base ?? null, events: v.events, requests: v.requests, cachedShare: v.cachedShare, inputTokens: v.inputTokens, cachedTokenShare: v.cachedTokenShare, exactTokens: v.exactTokens };
            store.set({ id: v.id, data, digest: generateDigest(data) });
          }
        } catch (err) {
          if (!(err instanceof CorpusError)) throw err;
          logger.error(err.message);
          if (!watcher) throw err;
        }
      };
      await sync();
      if (watcher) {
        const dir = join(c.root, c.scenariosDir);
        watcher.add(dir);
        const onChange = (path: string): void => {
          if (path.startsWith(dir)) void sync();
        };
        watcher.on('change', onChange);
        watcher.on('add', onChange);
        watcher.on('unlink', onChange);
      }
    },
  };
}
