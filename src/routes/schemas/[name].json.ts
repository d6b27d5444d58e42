/**
 * The editor schemas of scenario files, published with the site at /schemas/scenario.<fold>.json
 * (one per configured fold; the same text as the committed schemas/ folder). Built at build time.
 */
import type { APIRoute } from 'astro';
import { scenarioSchemaFiles } from '../../scenarios/json-schema.ts';
import { siteConfig } from '../../integration/site.ts';

export async function getStaticPaths() {
  const c = await siteConfig();
  return (await scenarioSchemaFiles(c.folds, c.defaultFold)).map((f) => ({ params: { name: f.name.replace(/\.json$/, '') }, props: { text: f.text } }));
}

export const GET: APIRoute = ({ props }) => new Response((props as { text: string }).text, { headers: { 'content-type': 'application/json; charset=utf-8' } });
