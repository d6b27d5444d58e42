/**
 * `/playground/corpus.json`: the site's scenario files as written (file, id, title, text) with the
 * loader's settings, for the playground — it opens a scenario from here and finds bases here by id.
 * Built once with the site (a static file; nothing is fetched from elsewhere). `yamlClasses`: the
 * classes of each kind of YAML token (from the shiki themes, as the scenario pages' event YAML), for
 * the source view (src/playground/source-view.ts) — shiki itself never reaches the browser.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { yamlTokenClasses } from '../../components/highlight.ts';
import { siteCorpus } from '../../integration/site.ts';

export async function GET(): Promise<Response> {
  const site = await siteCorpus();
  const c = site.config;
  const scenarios = site.corpus.scenarios.map(({ scenario: s }) => ({ file: s.file, id: s.id, title: s.title, text: readFileSync(join(c.root, s.file), 'utf8') }));
  return new Response(JSON.stringify({ scenarios, defaultFold: c.defaultFold, timeZero: c.timeZero, yamlClasses: await yamlTokenClasses() }), {
    headers: { 'content-type': 'application/json' },
  });
}
