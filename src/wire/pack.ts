/**
 * The wire sources of a page's requests, packed for the browser: the wire views are written by the
 * page when one is opened (src/components/wire-view.ts), from the model and messages of each
 * request. Requests of one scenario share most of their messages (a prompt grows by appending), so
 * each distinct message is sent once and a request is its model and a list of message ids — the
 * page carries about one copy of the prompt text instead of three JSON renderings per request.
 * Pure and browser-safe.
 */
import type { WireSource } from './types.ts';

export interface PackedWire {
  /** Distinct messages as [role, content]. */
  messages: [string, string][];
  /** By request offset: [model, message ids]. */
  requests: Record<string, [string, number[]]>;
}

export function packWire(sources: ReadonlyMap<number, WireSource>): PackedWire {
  const messages: [string, string][] = [];
  const ids = new Map<string, number>();
  const requests: PackedWire['requests'] = {};
  for (const [offset, src] of [...sources].sort((a, b) => a[0] - b[0])) {
    requests[offset] = [
      src.model,
      src.messages.map((m) => {
        const key = JSON.stringify([m.role, m.content]);
        let id = ids.get(key);
        if (id === undefined) ids.set(key, (id = messages.push([m.role, m.content]) - 1));
        return id;
      }),
    ];
  }
  return { messages, requests };
}

/** The request at `offset`, as the wire mappings take it (provenance is not needed there). */
export function unpackWire(packed: PackedWire, offset: number): WireSource | undefined {
  const r = packed.requests[offset];
  if (!r) return undefined;
  return {
    model: r[0],
    messages: r[1].map((id) => {
      const [role, content] = packed.messages[id] ?? ['user', ''];
      return { role, content, parts: [] };
    }),
  };
}
