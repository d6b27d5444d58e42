/**
 * Provider wire formats: a fold's rendered request (model + messages) as the JSON body each
 * provider API receives, and as a cURL command — each format written by its provider's wire face
 * (src/providers/wire-faces.ts: the adapter's writer, without the adapter), in registry order. Pure and browser-safe. The mapping
 * rules are on the "Wire formats" reference page (src/routes/reference/wire-formats.mdx); each
 * writer's module says them in its header.
 */
import { WIRE_FACES, wireFaceOf } from '../providers/wire-faces.ts';
import type { JsonObject, WireFormat, WireSource } from './types.ts';

export { curlCommand, ENDPOINTS } from './curl.ts';
export { WIRE_FORMATS, providerModel, type WireFormat, type WireSource } from './types.ts';

/** Display names, by format (the adapters' titles). */
export const FORMAT_TITLES: Readonly<Record<WireFormat, string>> = Object.fromEntries(WIRE_FACES.map((p) => [p.id, p.title]));

/** The request body `format` receives. */
export function toWire(format: WireFormat, src: WireSource): JsonObject {
  // WIRE_FORMATS lists only adapters that write a body: a format outside it is a programming error.
  return wireFaceOf(format)!.write(src);
}

/** The body as pretty-printed JSON (2 spaces) — what "Copy as JSON" copies. */
export function wireJson(format: WireFormat, src: WireSource): string {
  return JSON.stringify(toWire(format, src), null, 2);
}
