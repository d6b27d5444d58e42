/**
 * What every adapter's `normalise` is built from: a body's text parts joined with a newline;
 * anything else (a tool call, a tool result, an image, a reasoning item) one line
 * `[<type>] <its other fields as compact JSON>`, a tool result followed by its text; the tool list
 * first, as a `tools` message (src/folds/tools.ts).
 *
 * Cache markers say where to cache, not what is read: they are not printed, they become the
 * message's `marks` — the character position in `text` where the marked block ends (spec
 * docs/cache-economics.md, "What the provider would cache": a request's breakpoints are the trace's own): Anthropic `cache_control`,
 * OpenAI GPT-5.6 `prompt_cache_breakpoint` (its `ttl`, 30 min or 12 h, is not one the breakpoint
 * contract carries: it is left out). Every marker is kept, even past Anthropic's 4 (the economics
 * report that error). Bodies are already validated (the adapter's schema).
 */
import { toolEntryEnds, toolsContent, TOOLS_ROLE } from '../../folds/tools.ts';
import type { Mark, NormalMessage } from '../types.ts';

export type Obj = Record<string, unknown>;
export const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys that mark where to cache, never printed. */
const MARKER_KEYS = ['cache_control', 'prompt_cache_breakpoint'];

/** The object without the given keys (and never a cache marker). */
export function without(o: Obj, ...keys: string[]): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) if (!MARKER_KEYS.includes(k) && !keys.includes(k)) out[k] = v;
  return out;
}

/** The marker a block carries (Anthropic `cache_control` or OpenAI `prompt_cache_breakpoint`), or undefined. */
export function markerOf(o: unknown): Omit<Mark, 'end'> | undefined {
  if (!isObject(o)) return undefined;
  const cc = o.cache_control ?? o.prompt_cache_breakpoint;
  if (!isObject(cc)) return undefined;
  return cc.ttl === '5m' || cc.ttl === '1h' ? { ttl: cc.ttl } : {};
}

/** Text with the cache markers inside it. */
export interface Piece {
  text: string;
  marks: Mark[];
}

export const plain = (text: string): Piece => ({ text, marks: [] });

/** Pieces joined with `sep`, their markers moved to where each piece lands. */
export function join(pieces: readonly Piece[], sep: string): Piece {
  let text = '';
  const marks: Mark[] = [];
  pieces.forEach((p, i) => {
    if (i > 0) text += sep;
    for (const m of p.marks) marks.push({ ...m, end: m.end + text.length });
    text += p.text;
  });
  return { text, marks };
}

/** A piece with a marker at its end when `block` carries one. */
export function marked(piece: Piece, block: unknown): Piece {
  const m = markerOf(block);
  return m ? { text: piece.text, marks: [...piece.marks, { end: piece.text.length, ...m }] } : piece;
}

export const message = (role: string, p: Piece): NormalMessage => ({ role, text: p.text, ...(p.marks.length > 0 && { marks: p.marks }) });

/** `[type] {"field":…}` — a part that is not text, on one line. */
export function tagged(type: string, rest: Obj): string {
  return Object.keys(rest).length ? `[${type}] ${JSON.stringify(rest)}` : `[${type}]`;
}

/** A tool result's own text: a string as is, text parts joined (with their markers), anything else as JSON. */
export function resultText(v: unknown, textKey: string): Piece {
  if (v === undefined || v === null) return plain('');
  if (typeof v === 'string') return plain(v);
  if (Array.isArray(v))
    return join(
      v.map((p) => marked(plain(isObject(p) && p.type === 'text' && typeof p[textKey] === 'string' ? (p[textKey] as string) : JSON.stringify(isObject(p) ? without(p) : p)), p)),
      '\n',
    );
  return plain(JSON.stringify(v));
}

export function withResult(head: string, result: Piece): Piece {
  return result.text === '' ? plain(head) : join([plain(head), result], '\n');
}

/** Text of a list of parts whose text parts are `{type: <textTypes>, <textKey>: string}`; each part's marker at its end. */
export function partsText(parts: readonly Obj[], textTypes: readonly string[], textKey: string, resultTypes: Record<string, string>): Piece {
  return join(
    parts.map((p) => {
      const type = String(p.type);
      if (textTypes.includes(type) && typeof p[textKey] === 'string') return marked(plain(p[textKey] as string), p);
      const resultKey = resultTypes[type];
      if (resultKey) return marked(withResult(tagged(type, without(p, 'type', resultKey)), resultText(p[resultKey], textKey)), p);
      return marked(plain(tagged(type, without(p, 'type'))), p);
    }),
    '\n',
  );
}

/** The `tools` message; a tool's marker at the end of its entry in the printed list. */
export function toolsMessage(tools: unknown, fn: (t: Obj) => Obj | undefined): NormalMessage[] {
  if (!Array.isArray(tools) || !tools.length) return [];
  const list = tools.map((t) => (isObject(t) ? (fn(t) ?? without(t)) : t));
  const text = toolsContent(list);
  const ends = toolEntryEnds(list);
  const marks: Mark[] = [];
  tools.forEach((t, i) => {
    const m = markerOf(t);
    if (m) marks.push({ end: ends[i]!, ...m });
  });
  return [message(TOOLS_ROLE, { text, marks })];
}

/** A provider-neutral function tool: name, then description and parameters when given. */
export function fnTool(name: unknown, description: unknown, parameters: unknown): Obj {
  return { name, ...(description !== undefined && { description }), ...(parameters !== undefined && { parameters }) };
}
