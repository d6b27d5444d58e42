/**
 * Build-time data of the wire views: the model, messages and breakpoints of every accepted request of a
 * scenario (the messages the pipeline rendered, not the printed lines), packed for the page (src/wire/pack.ts), with the token
 * classes the site's shiki themes give JSON. The page writes a view when it is opened
 * (pf-wire-view.ts): three highlighted JSON bodies per request, built into every page, were most of
 * a scenario page's bytes and a large share of the build's highlighting time.
 */
import type { RenderedScenario } from '../prompt/render.ts';
import type { WireSource } from '../wire/index.ts';
import type { JsonTokenKind } from '../wire/json-tokens.ts';
import { packWire, type PackedWire, type WirePacker } from '../wire/pack.ts';
import { jsonTokenClasses } from './highlight.ts';

/** The request each accepted request event sent, by offset (as the pipeline rendered and checked it: render.ts). */
export function wireSources(r: RenderedScenario): Map<number, WireSource> {
  return new Map(r.requests.map((q) => [q.offset, { model: q.model, messages: q.messages, ...(q.breakpoints && { breakpoints: q.breakpoints }) }] as const));
}

/** What a page embeds (`<script type="application/json" id="wire-data">`) for its wire views. */
export interface WireData extends PackedWire {
  classes: Record<JsonTokenKind, string>;
}

/** `packer`: continue the messages of the part before (see packWire). */
export async function wireData(sources: ReadonlyMap<number, WireSource>, packer?: WirePacker): Promise<WireData> {
  return { classes: await jsonTokenClasses(), ...packWire(sources, packer) };
}
