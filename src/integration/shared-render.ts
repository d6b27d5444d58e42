/**
 * One render of the corpus per process and per scenario content. A build checks the corpus when it
 * starts (the integration) and its pages render the same corpus later — in `astro dev` and in a
 * build with an adapter from another copy of these modules (Vite bundles the pages; a build without
 * one shares the integration's, shared-modules.ts); both go through here, so the corpus is loaded,
 * folded and printed once per build. Keyed by project root and a digest of the scenario files.
 *
 * The digest and the render come from one read of the files (a snapshot): in `astro dev` a file
 * can be saved between two reads, and a render of one state cached under the digest of another
 * would be shown until the next save (a half-written file's "malformed YAML" for a file that is fine).
 */
import { createHash } from 'node:crypto';
import { renderTexts, type RenderedCorpus } from '../corpus/check.ts';
import { readScenarioFiles } from '../scenarios/files.ts';
import type { CorpusConfig } from '../scenarios/load.ts';
import { sharedState } from './shared-state.ts';

/** The scenario files as read at one moment, and a digest of their names and texts. */
export interface ScenarioSnapshot {
  files: { file: string; text: string }[];
  digest: string;
}

// The render in progress or done (a Promise: folds may be asynchronous, and two callers asking at once share one render).
const renders = sharedState('rendered-corpus', () => new Map<string, { digest: string; corpus: Promise<RenderedCorpus> }>());

/** Reads every scenario file once. */
export function readSnapshot(c: CorpusConfig): ScenarioSnapshot {
  const files = readScenarioFiles(c);
  const h = createHash('sha256');
  for (const f of files) h.update(f.file).update('\0').update(f.text).update('\0');
  return { files, digest: h.digest('hex') };
}

/** The corpus rendered with every event's pane (errors included, not thrown), from `snapshot`. */
export function sharedRender(c: CorpusConfig, snapshot = readSnapshot(c)): Promise<RenderedCorpus> {
  const hit = renders.get(c.root);
  if (hit?.digest === snapshot.digest) return hit.corpus;
  const corpus = renderTexts(snapshot.files, c, { everyEvent: true });
  renders.set(c.root, { digest: snapshot.digest, corpus });
  // A render that failed (not a corpus with errors: those are its result) is not kept.
  corpus.catch(() => renders.get(c.root)?.corpus === corpus && renders.delete(c.root));
  return corpus;
}
