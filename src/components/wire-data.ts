/**
 * Build-time data of the wire views: the model and messages of every accepted request of a
 * scenario (one more reduce pass of its fold — the page model keeps printed lines, and the wire
 * formats need the messages themselves), and each format's JSON highlighted with the site's shiki
 * highlighter (JSON escaped by shiki's serialiser, like every prompt line).
 */
import type { RenderedScenario } from '../prompt/render.ts';
import { WIRE_FORMATS, wireJson, type WireFormat, type WireSource } from '../wire/index.ts';
import { highlighter, THEMES } from './highlight.ts';

/** The request each accepted request event sent, by offset. */
export function wireSources(r: RenderedScenario): Map<number, WireSource> {
  const offsets = new Set(r.requests.map((q) => q.offset));
  const out = new Map<number, WireSource>();
  for (const s of r.fold.snapshots(r.scenario.chain, r.options, offsets)) {
    if (s.request && offsets.has(s.offset)) out.set(s.offset, { model: s.request.model, messages: s.messages });
  }
  return out;
}

export interface WireView {
  format: WireFormat;
  json: string;
  /** Highlighted inner HTML of the <code> element. */
  html: string;
}

/** Each format's body: JSON text and its highlighted HTML. */
export async function wireViews(src: WireSource): Promise<WireView[]> {
  const hl = await highlighter();
  if (!hl.getLoadedLanguages().includes('json')) await hl.loadLanguage('json');
  return WIRE_FORMATS.map((format) => {
    const json = wireJson(format, src);
    const html = hl.codeToHtml(json, { lang: 'json', themes: THEMES, defaultColor: false, tokenizeTimeLimit: 0 });
    // Keep the <code> content: the component supplies its own <pre>.
    const inner = /<code>([\s\S]*)<\/code>/.exec(html)?.[1] ?? '';
    return { format, json, html: inner };
  });
}
