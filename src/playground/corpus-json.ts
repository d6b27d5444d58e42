/**
 * The playground's `corpus.json`, written once: its type, how the route writes it
 * (src/routes/playground/corpus.json.ts) and how the page reads it (main.ts) — so the writer and
 * the reader cannot drift apart. Browser-safe: types and JSON only. A long scenario (above
 * INLINE_MAX, or beyond the corpus' INLINE_BUDGET: fetchedOnOpen) is a file of its own beside
 * corpus.json, fetched when opened — the corpus stays small however many and long the captures.
 */
import type { EconomicsConfig } from '../economics/profiles.ts';
import type { CorpusFile } from './engine.ts';
import type { TokenTags } from './source-view.ts';

/**
 * A site scenario in the corpus: its file as written (`text`), or — a long one no other scenario
 * links to (an imported conversation) — where to fetch it when the playground opens it (`src`,
 * relative to corpus.json) and its size, so the corpus stays small however long the captures.
 */
export interface SiteScenario extends Omit<CorpusFile, 'text'> {
  title: string;
  /** The file as written (a long one: once fetched). */
  text?: string;
  /** A long one: where it is, relative to corpus.json, and its size in bytes. */
  src?: string;
  bytes?: number;
}

/** Scenario files longer than this (characters) are fetched when opened rather than shipped in the corpus: above every bundled scenario. */
export const INLINE_MAX = 64 * 1024;
/** The corpus ships at most this many characters of scenario text inline (the bundled site: ≈ 0.74 MB): beyond it, the longest are fetched when opened. */
export const INLINE_BUDGET = 1024 * 1024;

/**
 * Which scenarios are fetched when opened: every one longer than INLINE_MAX, then the longest of
 * the rest (ties: by id) until the inline text fits INLINE_BUDGET — never one another scenario links
 * to (its base, the cache it shares: loaded with it). Deterministic: the same corpus, the same set.
 */
export function fetchedOnOpen(files: readonly { id: string; size: number }[], linked: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  let inline = 0;
  for (const f of files) {
    if (!linked.has(f.id) && f.size > INLINE_MAX) out.add(f.id);
    else inline += f.size;
  }
  const rest = files.filter((f) => !out.has(f.id) && !linked.has(f.id)).sort((a, b) => b.size - a.size || (a.id < b.id ? -1 : 1));
  for (const f of rest) {
    if (inline <= INLINE_BUDGET) break;
    out.add(f.id);
    inline -= f.size;
  }
  return out;
}

export interface PlaygroundCorpus {
  /** The site's scenario files as written (or where to fetch the long ones), with their titles (plain text). */
  scenarios: SiteScenario[];
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

/** A scenario's text: as shipped, or fetched from its `src` (relative to the corpus' own URL) and kept. */
export async function scenarioText(s: SiteScenario, corpusUrl: string): Promise<string> {
  if (s.text !== undefined) return s.text;
  const url = new URL(s.src!, new URL(corpusUrl, location.href)).href;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`HTTP ${res.status} for ${s.src}`);
  s.text = await res.text();
  return s.text;
}
