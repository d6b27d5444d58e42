/**
 * The playground pane's cache economics, as a scenario page shows them: the header's tokens and
 * cost (economics/view.ts), its cached-tokens badge with the reason at 0 % (cache-badge.ts) and the
 * note under the ✂ line with the cause and the event that did it. Computed in the worker from the
 * same economics as the build, with the site's provider profiles (corpus.json); loaded as a chunk
 * of its own, which fetches the tokenizers' tables (megabytes) as files of their own.
 */
import { cacheBadge } from '../render/cache-badge.ts';
import type { PaneMarkup } from '../render/pane-markup.ts';
import { scenarioEconomics, type ScenarioEconomics } from '../economics/compute.ts';
import type { EconomicsConfig } from '../economics/profiles.ts';
import { cutNote, paneTokens } from '../economics/view.ts';
import type { EngineResult, Prepared } from './engine.ts';

import { loadEncodings as load } from '../economics/tokens.ts';
import type { Encoding } from '../economics/shipped-profiles.ts';
// The tokenizers' rank tables as files of their own (Vite's `?url`: copied as they are, never parsed
// or minified by the site's build), fetched by the worker when it loads this chunk.
import o200k from 'gpt-tokenizer/bpeRanks/o200k_base?url';
import cl100k from 'gpt-tokenizer/bpeRanks/cl100k_base?url';

const RANKS: Record<Encoding, string> = { o200k_base: o200k, cl100k_base: cl100k };

/** Loads the rank tables the site's profiles count with (before any economics). */
export const loadEncodings = (profiles: Iterable<{ tokenizer: Encoding | 'approx' }>): Promise<void> => load(profiles, RANKS);

/** The economics of every request of the prepared scenario's chain (once per text). */
export const economicsOf = (p: Prepared, config: EconomicsConfig): ScenarioEconomics => scenarioEconomics(p.rendered, config, p.corpus ? { corpus: p.corpus } : {});

/** The pane's figures when it shows a request; none for other events. */
export function paneEconomics(econ: ScenarioEconomics, view: NonNullable<EngineResult['view']>): PaneMarkup['econ'] | undefined {
  if (view.pane.kind !== 'request') return undefined;
  const e = econ.chain.find((x) => x.offset === view.pane.offset);
  if (!e) return undefined;
  const types = new Map(view.cards.map((c) => [c.offset, c.type]));
  const cut = view.pane.lines.some((l) => l.cutAbove);
  return { ...paneTokens(e), cached: cacheBadge(e), ...(cut && { note: cutNote(e, (o) => types.get(o) ?? '') }) };
}
