/**
 * `/playground/corpus.json`: the site's scenario files as written (file, id, title, text) with the
 * loader's settings, for the playground — it opens a scenario from here and finds bases here by id.
 * Built once with the site (a static file; nothing is fetched from elsewhere). `yamlTags`: the
 * element each kind of YAML token is written as (highlight.ts yamlTokenTags, coloured by tokens.css
 * as on the scenario pages), for the source view and the pane (src/playground/source-view.ts,
 * highlight.ts) — shiki itself never reaches the browser. `economics`: the provider profiles, so
 * the playground's pane shows the same tokens, cost and cache break as a scenario page. The type
 * is written once, in src/playground/corpus-json.ts, and read back by the page with it. A long
 * scenario (an imported conversation; fetchedOnOpen says which) is written beside it
 * as `playground/scenarios/<id>.yaml` and fetched when opened, so the corpus does not grow with
 * the captures' length.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { yamlTokenTags } from '../../render/highlight.ts';
import { markdownText } from '../../render/markdown.ts';
import { siteCorpus } from '../../integration/site.ts';
import { fetchedOnOpen, type SiteScenario, writeCorpusJson } from '../../playground/corpus-json.ts';
import { addPageFile } from '../../integration/page-files.ts';

export async function GET(): Promise<Response> {
  const site = await siteCorpus();
  const c = site.config;
  const all = site.corpus.scenarios.map(({ scenario: s }) => s);
  // A scenario another one links to (its base, the cache it shares) is loaded with that one: always shipped.
  const linked = new Set(all.flatMap((s) => [s.base, s.sharesCache?.scenario].filter((x): x is string => x !== undefined)));
  const texts = all.map((s) => readFileSync(join(c.root, s.file), 'utf8'));
  // In a build, the long ones are files of their own, fetched when the playground opens one (dev serves them all inline).
  const fetched = import.meta.env.PROD
    ? fetchedOnOpen(
        all.map((s, i) => ({ id: s.id, size: texts[i]!.length })),
        linked,
      )
    : new Set<string>();
  const scenarios = all.map((s, i): SiteScenario => {
    const text = texts[i]!;
    const head = { file: s.file, id: s.id, title: markdownText(s.title) };
    if (!fetched.has(s.id)) return { ...head, text };
    const src = `scenarios/${s.id}.yaml`;
    addPageFile(`playground/${src}`, text);
    return { ...head, src, bytes: Buffer.byteLength(text) };
  });
  return new Response(writeCorpusJson({ scenarios, defaultFold: c.defaultFold, timeZero: c.timeZero, yamlTags: await yamlTokenTags(), economics: c.economics }), {
    headers: { 'content-type': 'application/json' },
  });
}
