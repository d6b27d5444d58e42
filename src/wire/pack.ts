/**
 * The wire sources of a page's requests, packed for the browser: the wire views are written by the
 * page when one is opened (src/components/WireViews/pf-wire-view.ts), from the model, messages
 * and cache breakpoints of each request. Requests of one scenario share most of their messages (a prompt
 * grows by appending), so each distinct message is sent once and a request is its model, a list of
 * message ids and its breakpoints — the page carries about one copy of the prompt text instead of
 * three JSON renderings per request. A long page's data comes in parts, and a part may continue
 * the one before (`WirePacker` passed along; `start`): it then sends only the messages that part
 * has not, and the page reads it on top of that part (`mergeWire`). Pure and browser-safe.
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
  /** In a part that continues the part before: the id its own `messages` start at (the messages of the parts it continues come first). */
  start?: number;
}

/** What packing leaves for the next part to continue: the distinct messages so far (by packed JSON: id), and the characters of those from before the last call that it named. */
export interface WirePacker {
  ids: Map<string, number>;
  reused: number;
}

const turnOf = (m: RenderedMessage): Turn | undefined =>
  m.toolCalls?.length || m.toolCallId !== undefined
    ? { ...(m.toolCalls?.length && { toolCalls: m.toolCalls }), ...(m.toolCallId !== undefined && { toolCallId: m.toolCallId }) }
    : undefined;

/** Packs `sources`; with `packer` (what packing the part before left) only the messages it has not seen are written, from `start`. */
export function packWire(sources: ReadonlyMap<number, WireSource>, packer?: WirePacker): PackedWire {
  const messages: PackedWire['messages'] = [];
  const ids = packer?.ids ?? new Map<string, number>();
  const start = ids.size;
  const reused = new Map<number, number>();
  const requests: PackedWire['requests'] = {};
  for (const [offset, src] of [...sources].sort((a, b) => a[0] - b[0])) {
    const list = src.messages.map((m) => {
      const turn = turnOf(m);
      const packed: PackedWire['messages'][number] = turn ? [m.role, m.content, turn] : [m.role, m.content];
      const key = JSON.stringify(packed);
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = start + messages.push(packed) - 1));
      else if (id < start) reused.set(id, key.length);
      return id;
    });
    requests[offset] = src.breakpoints?.length ? [src.model, list, [...src.breakpoints]] : [src.model, list];
  }
  if (packer) packer.reused = [...reused.values()].reduce((n, l) => n + l + 1, 0);
  return { messages, requests, ...(start > 0 && { start }) };
}

/** A part's packed messages on top of the part it continues (`base`, already merged): its own requests, every message. */
export function mergeWire<W extends PackedWire>(base: PackedWire | null, part: W): W {
  const start = part.start ?? 0;
  const have = base?.messages.length ?? 0;
  if (start !== have) throw new Error(`a data part's wire messages continue from ${start}, but the part before it has ${have}`);
  return start === 0 ? part : { ...part, messages: base!.messages.concat(part.messages) };
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
