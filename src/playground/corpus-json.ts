/**
 * The playground's `corpus.json`, written once: its type, how the route writes it
 * (src/routes/playground/corpus.json.ts) and how the page reads it (main.ts) — so the writer and
 * the reader cannot drift apart. Browser-safe: types and JSON only.
 */
import type { EconomicsConfig } from '../economics/profiles.ts';
import type { CorpusFile } from './engine.ts';
import type { TokenTags } from './source-view.ts';

export interface PlaygroundCorpus {
  /** The site's scenario files as written, with their titles (plain text). */
  scenarios: (CorpusFile & { title: string })[];
  defaultFold: string;
  timeZero: string;
  /** The element each kind of YAML token is written as (highlight.ts yamlTokenTags). */
  yamlTags: TokenTags;
  /** The site's provider profiles: the pane's tokens, cost and cache break (economics.ts). */
  economics?: EconomicsConfig;
}

/** The file's text (the route's response body). */
export const writeCorpusJson = (c: PlaygroundCorpus): string => JSON.stringify(c);

/** The file, fetched; a failed fetch or a body that is not the corpus is an error naming what went wrong. */
export async function readCorpusJson(url: string): Promise<PlaygroundCorpus> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const c = (await res.json()) as Partial<PlaygroundCorpus> | null;
  if (!c || !Array.isArray(c.scenarios) || typeof c.defaultFold !== 'string' || typeof c.timeZero !== 'string' || !c.yamlTags)
    throw new Error(`${url} is not the playground's corpus (scenarios, defaultFold, timeZero, yamlTags)`);
  return c as PlaygroundCorpus;
}
