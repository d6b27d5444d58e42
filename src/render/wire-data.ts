/**
 * Build-time data of the wire views: the model, messages and breakpoints of every accepted request of a
 * scenario (one more reduce pass of its fold — the page model keeps printed lines, and the wire
 * formats need the messages themselves), packed for the page (src/wire/pack.ts), with the token
 * classes the site's shiki themes give JSON. The page writes a view when it is opened
 * (wire-view.ts): three highlighted JSON bodies per request, built into every page, were most of
 * a scenario page's bytes and a large share of the build's highlighting time.
 */
import type { RenderedScenario } from '../prompt/render.ts';
import type { WireSource } from '../wire/index.ts';
import type { JsonTokenKind } from '../wire/json-tokens.ts';
import { packWire, type PackedWire } from '../wire/pack.ts';
import { jsonTokenClasses } from './highlight.ts';

/** The request each accepted request event sent, by offset. */
export function wireSources(r: RenderedScenario): Map<number, WireSource> {
  const offsets = new Set(r.requests.map((q) => q.offset));
  // The breakpoints as the pipeline checked them (render.ts): an invalid set never reaches a view.
  const checked = new Map(r.requests.map((q) => [q.offset, q.breakpoints]));
  const out = new Map<number, WireSource>();
  for (const s of r.fold.snapshots(r.scenario.chain, r.options, offsets)) {
    const breakpoints = checked.get(s.offset);
    if (s.request && offsets.has(s.offset)) out.set(s.offset, { model: s.request.model, messages: s.messages, ...(breakpoints && { breakpoints }) });
  }
  return out;
}

/** What a page embeds (`<script type="application/json" id="wire-data">`) for its wire views. */
export interface WireData extends PackedWire {
  classes: Record<JsonTokenKind, string>;
}

export async function wireData(sources: ReadonlyMap<number, WireSource>): Promise<WireData> {
  return { classes: await jsonTokenClasses(), ...packWire(sources) };
}
