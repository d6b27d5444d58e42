/**
 * The wire sources of a page's requests, packed for the browser: the wire views are written by the
 * page when one is opened (src/components/WireViews/pf-wire-view.ts), from the model, messages
 * and cache breakpoints of each request. Requests of one scenario share most of their messages (a prompt
 * grows by appending), so each distinct message is sent once and a request is its model, a list of
 * message ids and its breakpoints — the page carries about one copy of the prompt text instead of
 * three JSON renderings per request. Pure and browser-safe.
 */
import type { Breakpoint, RenderedMessage } from '../folds/types.ts';
import type { WireSource } from './types.ts';

/** What a message carries besides its role and text: its tool turn (see RenderedMessage). */
type Turn = Pick<RenderedMessage, 'toolCalls' | 'toolCallId'>;

export interface PackedWire {
  /** Distinct messages as [role, content] or [role, content, tool turn]. */
  messages: ([string, string] | [string, string, Turn])[];
  /** By request offset: [model, message ids] or [model, message ids, breakpoints]. */
  requests: Record<string, [string, number[]] | [string, number[], Breakpoint[]]>;
}

const turnOf = (m: RenderedMessage): Turn | undefined =>
  m.toolCalls?.length || m.toolCallId !== undefined
    ? { ...(m.toolCalls?.length && { toolCalls: m.toolCalls }), ...(m.toolCallId !== undefined && { toolCallId: m.toolCallId }) }
    : undefined;

export function packWire(sources: ReadonlyMap<number, WireSource>): PackedWire {
  const messages: PackedWire['messages'] = [];
  const ids = new Map<string, number>();
  const requests: PackedWire['requests'] = {};
  for (const [offset, src] of [...sources].sort((a, b) => a[0] - b[0])) {
    const list = src.messages.map((m) => {
      const turn = turnOf(m);
      const packed: PackedWire['messages'][number] = turn ? [m.role, m.content, turn] : [m.role, m.content];
      const key = JSON.stringify(packed);
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = messages.push(packed) - 1));
      return id;
    });
    requests[offset] = src.breakpoints?.length ? [src.model, list, [...src.breakpoints]] : [src.model, list];
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
      const [role, content, turn] = packed.messages[id] ?? ['user', ''];
      return { role, content, parts: [], ...turn };
    }),
    ...(r[2] && { breakpoints: r[2] }),
  };
}
