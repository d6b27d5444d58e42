/**
 * The playground's pane: the engine's page-model pane, highlighted in the browser (highlight.ts, in the token elements `tags` of corpus.json),
 * written by the same pane-markup function as the scenario pages, with the same economics (tokens,
 * cost, the cached badge, the ✂ note: src/playground/economics.ts). Pure: data in, HTML string out.
 */
import { fromPane, noteMarks, paneMarkup, type PaneMarkup } from '../render/pane-markup.ts';
import type { Card, Pane } from '../prompt/view.ts';
import { highlightLines } from './highlight.ts';
import type { TokenTags } from './source-view.ts';

/** `econ`: the request's figures; `econPending`: they are still loading (their places are kept). */
export function playgroundPaneHtml(pane: Pane, cards: readonly Card[], tags: TokenTags, econ?: PaneMarkup['econ'], econPending?: boolean): string {
  const html = highlightLines(
    pane.lines.map((l) => l.text),
    tags,
    noteMarks(pane, 'pg'),
  );
  return paneMarkup(fromPane(pane, cards, html, { idPrefix: 'pg', selected: true, ...(econ ? { econ } : econPending && { econPending: true }) }));
}
