/**
 * `astro dev` only (the integration injects this route there): a scenario page's data file,
 * `scenarios/<id>/data.json` (render/scenario-data.ts), made from the corpus as it is now. A
 * build writes the same file beside each page instead (integration/page-files.ts), so this file's
 * name starts with `_`: Astro does not route it on its own.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { pageParts, scenarioData } from '../../render/scenario-data.ts';
import { siteCorpus } from '../../integration/site.ts';

export const getStaticPaths: GetStaticPaths = async () => (await siteCorpus()).summaries.map((s) => ({ params: { id: s.id } }));

export const GET: APIRoute = async ({ params }) => {
  const site = await siteCorpus();
  const view = site.byId.get(params.id!);
  if (!view) return new Response(`no scenario with id ${params.id}`, { status: 404 });
  return new Response(await scenarioData(view, pageParts(site, view)), { headers: { 'content-type': 'application/json' } });
};
