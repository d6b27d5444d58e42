/**
 * `/playground/corpus.json`: the site's scenario files as written (file, id, title, text) with the
 * loader's settings, for the playground — it opens a scenario from here and finds bases here by id.
 * Built once with the site (a static file; nothing is fetched from elsewhere). `yamlTags`: the
 * element each kind of YAML token is written as (highlight.ts yamlTokenTags, coloured by tokens.css
 * as on the scenario pages), for the source view and the pane (src/playground/source-view.ts,
 * highlight.ts) — shiki itself never reaches the browser. `economics`: the provider profiles, so
 * the playground's pane shows the same tokens, cost and cache break as a scenario page. The type
 * is written once, in src/playground/corpus-json.ts, and read back by the page with it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { yamlTokenTags } from '../../render/highlight.ts';
import { markdownText } from '../../render/markdown.ts';
import { siteCorpus } from '../../integration/site.ts';
import { writeCorpusJson } from '../../playground/corpus-json.ts';

export async function GET(): Promise<Response> {
  const site = await siteCorpus();
  const c = site.config;
  const scenarios = site.corpus.scenarios.map(({ scenario: s }) => ({ file: s.file, id: s.id, title: markdownText(s.title), text: readFileSync(join(c.root, s.file), 'utf8') }));
  return new Response(writeCorpusJson({ scenarios, defaultFold: c.defaultFold, timeZero: c.timeZero, yamlTags: await yamlTokenTags(), economics: c.economics }), {
    headers: { 'content-type': 'application/json' },
  });
}
