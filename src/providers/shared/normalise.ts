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

/**
 * The parts that carry media — an image, a video, audio, a document, a file — in each format's
 * words (Anthropic `image` / `document`, Converse `image` / `video` / `document`, Chat `image_url` /
 * `input_audio` / `file`, Responses `input_image` / `input_file`, Gemini `inlineData`). Sent inline,
 * their bytes are base64 text that the provider does not bill as text: an image is billed by its
 * pixels, a video by its seconds, a document by its pages. So a tagged media part shows its bytes
 * by their size (`<835,404 characters of base64>`), never as text to count (a published Bedrock
 * cassette's 835 KB video counted as 570,767 tokens against 2,326 billed), and the request is said
 * to lack its media's tokens (holdsUncountedMedia; economics/measured.ts).
 */
const MEDIA_PARTS = new Set(['image', 'video', 'audio', 'document', 'file', 'image_url', 'input_image', 'input_file', 'input_audio', 'inlineData']);
/** Fields that hold a media part's bytes as base64; a `data:` URL anywhere in one. */
const MEDIA_BYTES = new Set(['bytes', 'data', 'file_data']);
const DATA_URL = /^data:[^,]{0,200};base64,/;
/** A value shorter than this is kept as written (a placeholder, a tiny icon): only real payloads are replaced. */
const MEDIA_MIN = 256;
const BYTES_NOTE = (n: number): string => `<${n.toLocaleString('en-US')} characters of base64>`;

function mediaBytes(key: string, value: unknown): unknown {
  if (typeof value !== 'string' || value.length < MEDIA_MIN) return value;
  const url = DATA_URL.exec(value);
  if (url) return `${url[0]}${BYTES_NOTE(value.length - url[0].length)}`;
  return MEDIA_BYTES.has(key) && /^[A-Za-z0-9+/=_-]+$/.test(value.slice(0, MEDIA_MIN)) ? BYTES_NOTE(value.length) : value;
}

/** A request text holds a media part's bytes, sent inline (see MEDIA_PARTS). */
export const holdsInlineMedia = (text: string): boolean => text.includes(' characters of base64>');

/**
 * A media part that names where its bytes are rather than holding them — a URL, a `gs://` or
 * `s3://` URI, a Files API id (Gemini's `fileData.fileUri`, an Anthropic image's `url` source, Chat's
 * `image_url`, Responses' `file_id`): the provider fetches the media and bills it as input tokens
 * the request's text does not show (a published Gemini cassette: a YouTube URL, 17,713 billed against
 * 56 tokens of text).
 */
const MEDIA_BY_REFERENCE = /^\[(?:image|video|audio|document|file|image_url|input_image|input_file|input_audio|fileData)\] \{.*(?:"(?:https?|gs|s3):\/\/|"file_?[iI]d":)/m;

/** A request text sends media whose tokens it does not show: inline bytes, or a reference the provider fetches. */
export const holdsUncountedMedia = (text: string): boolean => holdsInlineMedia(text) || (text.includes('] {') && MEDIA_BY_REFERENCE.test(text));

/** `[type] {"field":…}` — a part that is not text, on one line; a media part's bytes by their size (MEDIA_PARTS). */
export function tagged(type: string, rest: Obj): string {
  if (!Object.keys(rest).length) return `[${type}]`;
  return `[${type}] ${MEDIA_PARTS.has(type) ? JSON.stringify(rest, mediaBytes) : JSON.stringify(rest)}`;
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
