/**
 * `astro dev` only (the integration injects this route there): one data part of a windowed scenario
 * page, `scenarios/<id>/part-<first offset>.json` (render/scenario-data.ts, render/page-window.ts),
 * made from the corpus as it is now. A build writes the parts beside the page instead
 * (integration/page-files.ts), so this file's name starts with `_`: Astro does not route it on its own.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { pageParts, partData } from '../../render/scenario-data.ts';
import { siteCorpus } from '../../integration/site.ts';

// Every event of every scenario may start a part; which ones do is known once the page model is made (in GET).
export const getStaticPaths: GetStaticPaths = async () =>
  (await siteCorpus()).corpus.scenarios.flatMap((r) => r.scenario.chain.map((e) => ({ params: { id: r.scenario.id, first: String(e.offset) } })));

export const GET: APIRoute = async ({ params }) => {
  const site = await siteCorpus();
  const view = site.byId.get(params.id!);
  if (!view) return new Response(`no scenario with id ${params.id}`, { status: 404 });
  const parts = pageParts(site, view);
  const offsets = parts.plan.windowed ? parts.plan.parts.find((p) => String(p[0]) === params.first) : undefined;
  if (!offsets) return new Response(`scenario ${params.id} has no data part starting at @${params.first}`, { status: 404 });
  return new Response(await partData(view, parts, offsets), { headers: { 'content-type': 'application/json' } });
};
