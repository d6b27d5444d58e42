/**
 * One render of the corpus per process and per scenario content. A build checks the corpus when it
 * starts (the integration) and its pages render the same corpus later, from another copy of these
 * modules (Vite bundles the pages); both go through here, so the corpus is loaded, folded and
 * printed once per build. Keyed by project root and a digest of the scenario files.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderCorpus, type RenderedCorpus } from '../prompt/corpus.ts';
import { listScenarioFiles } from '../scenarios/files.ts';
import type { CorpusConfig } from '../scenarios/load.ts';

const KEY = Symbol.for('prompt-fold-explainer/rendered-corpus');
const renders = ((globalThis as Record<symbol, unknown>)[KEY] ??= new Map()) as Map<string, { digest: string; corpus: RenderedCorpus }>;

/** A digest of every scenario file's name and content. */
export function corpusDigest(c: CorpusConfig): string {
  const h = createHash('sha256');
  for (const f of listScenarioFiles(c))
    h.update(f)
      .update('\0')
      .update(readFileSync(join(c.root, f)))
      .update('\0');
  return h.digest('hex');
}

/** The corpus rendered with every event's pane (errors included, not thrown). */
export function sharedRender(c: CorpusConfig, digest = corpusDigest(c)): RenderedCorpus {
  const hit = renders.get(c.root);
  if (hit?.digest === digest) return hit.corpus;
  const corpus = renderCorpus(c, { everyEvent: true });
  renders.set(c.root, { digest, corpus });
  return corpus;
}
