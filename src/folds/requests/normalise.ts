/**
 * A provider request body → the messages the model reads, provider-neutral: `{role, text}` in
 * order, the tool list first (as a `tools` message, see tools.ts). Text parts are joined with a
 * newline; anything else (a tool call, a tool result, an image, a reasoning item) becomes one line
 * `[<type>] <its other fields as compact JSON>`, a tool result followed by its text.
 *
 * Cache markers say where to cache, not what is read: they are not printed, they become the
 * message's `marks` — the character position in `text` where the marked block ends (spec
 * cache-economics §2: a request's breakpoints are the trace's own). Anthropic `cache_control` on a
 * tool (→ the end of that tool's entry in the `tools` message), a system block, a message's content
 * block or a block inside a tool result, with its `ttl`; Anthropic's top-level automatic
 * `cache_control` (the API puts it on the last cacheable block: the end of the last message); and
 * OpenAI GPT-5.6 `prompt_cache_breakpoint` on a content part (its `ttl`, 30 min or 12 h, is not
 * one the breakpoint contract carries: it is left out). Every marker is kept, even past
 * Anthropic's 4 (the economics report that error). Bodies are already validated (schema.ts).
 */
import type { AnthropicMessage, ChatMessage, OtelMessage, RequestFormat, ResponsesItem } from './schema.ts';
import { toolEntryEnds, toolsContent, TOOLS_ROLE } from '../tools.ts';

/** A cache marker: the characters of the message's text the cached prefix covers, and its retention. */
export interface Mark {
  end: number;
  ttl?: '5m' | '1h';
}

export interface NormalMessage {
  role: string;
  text: string;
  /** Cache markers in this message, in order (absent: none). */
  marks?: Mark[];
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys that mark where to cache, never printed. */
const MARKER_KEYS = ['cache_control', 'prompt_cache_breakpoint'];

/** The object without the given keys (and never a cache marker). */
function without(o: Obj, ...keys: string[]): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) if (!MARKER_KEYS.includes(k) && !keys.includes(k)) out[k] = v;
  return out;
}

/** The marker a block carries (Anthropic `cache_control` or OpenAI `prompt_cache_breakpoint`), or undefined. */
function markerOf(o: unknown): Omit<Mark, 'end'> | undefined {
  if (!isObject(o)) return undefined;
  const cc = o.cache_control ?? o.prompt_cache_breakpoint;
  if (!isObject(cc)) return undefined;
  return cc.ttl === '5m' || cc.ttl === '1h' ? { ttl: cc.ttl } : {};
}

/** Text with the cache markers inside it. */
interface Piece {
  text: string;
  marks: Mark[];
}

const plain = (text: string): Piece => ({ text, marks: [] });

/** Pieces joined with `sep`, their markers moved to where each piece lands. */
function join(pieces: readonly Piece[], sep: string): Piece {
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
function marked(piece: Piece, block: unknown): Piece {
  const m = markerOf(block);
  return m ? { text: piece.text, marks: [...piece.marks, { end: piece.text.length, ...m }] } : piece;
}

const message = (role: string, p: Piece): NormalMessage => ({ role, text: p.text, ...(p.marks.length > 0 && { marks: p.marks }) });

/** `[type] {"field":…}` — a part that is not text, on one line. */
function tagged(type: string, rest: Obj): string {
  return Object.keys(rest).length ? `[${type}] ${JSON.stringify(rest)}` : `[${type}]`;
}

/** A tool result's own text: a string as is, text parts joined (with their markers), anything else as JSON. */
function resultText(v: unknown, textKey: string): Piece {
  if (v === undefined || v === null) return plain('');
  if (typeof v === 'string') return plain(v);
  if (Array.isArray(v))
    return join(
      v.map((p) => marked(plain(isObject(p) && p.type === 'text' && typeof p[textKey] === 'string' ? (p[textKey] as string) : JSON.stringify(isObject(p) ? without(p) : p)), p)),
      '\n',
    );
  return plain(JSON.stringify(v));
}

function withResult(head: string, result: Piece): Piece {
  return result.text === '' ? plain(head) : join([plain(head), result], '\n');
}

/** Text of a list of parts whose text parts are `{type: <textTypes>, <textKey>: string}`; each part's marker at its end. */
function partsText(parts: readonly Obj[], textTypes: readonly string[], textKey: string, resultTypes: Record<string, string>): Piece {
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
function toolsMessage(tools: unknown, fn: (t: Obj) => Obj | undefined): NormalMessage[] {
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
function fnTool(name: unknown, description: unknown, parameters: unknown): Obj {
  return { name, ...(description !== undefined && { description }), ...(parameters !== undefined && { parameters }) };
}

function chat(body: Obj): NormalMessage[] {
  const out = toolsMessage(body.tools, (t) => (t.type === 'function' && isObject(t.function) ? fnTool(t.function.name, t.function.description, t.function.parameters) : undefined));
  for (const m of body.messages as ChatMessage[]) {
    const lines: Piece[] = [];
    if (m.tool_call_id !== undefined) lines.push(plain(tagged('tool_result', { tool_call_id: m.tool_call_id })));
    if (typeof m.content === 'string') lines.push(plain(m.content));
    else if (Array.isArray(m.content)) lines.push(partsText(m.content, ['text'], 'text', {}));
    for (const c of m.tool_calls ?? []) lines.push(plain(tagged('tool_call', without(c as Obj, 'type'))));
    out.push(message(m.role, join(lines, '\n')));
  }
  return out;
}

function responses(body: Obj): NormalMessage[] {
  const out = toolsMessage(body.tools, (t) => (t.type === 'function' ? fnTool(t.name, t.description, t.parameters) : undefined));
  if (typeof body.instructions === 'string') out.push({ role: 'system', text: body.instructions });
  if (typeof body.input === 'string') {
    out.push({ role: 'user', text: body.input });
    return out;
  }
  for (const item of body.input as ResponsesItem[]) {
    if (item.role !== undefined && (item.type === undefined || item.type === 'message')) {
      const text = typeof item.content === 'string' ? plain(item.content) : partsText(item.content ?? [], ['input_text', 'output_text'], 'text', {});
      out.push(message(item.role, text));
    } else if (item.type === 'function_call_output') {
      out.push(message('tool', withResult(tagged(item.type, without(item, 'type', 'output')), resultText((item as Obj).output, 'text'))));
    } else {
      out.push({ role: item.role ?? 'assistant', text: tagged(item.type!, without(item, 'type', 'role')) });
    }
  }
  return out;
}

function anthropic(body: Obj): NormalMessage[] {
  const out = toolsMessage(body.tools, (t) => (t.type === undefined || t.type === 'custom' ? fnTool(t.name, t.description, t.input_schema) : undefined));
  if (typeof body.system === 'string') out.push({ role: 'system', text: body.system });
  else if (Array.isArray(body.system)) for (const b of body.system as { text: string }[]) out.push(message('system', marked(plain(b.text), b)));
  for (const m of body.messages as AnthropicMessage[]) {
    const text = typeof m.content === 'string' ? plain(m.content) : partsText(m.content, ['text'], 'text', { tool_result: 'content' });
    out.push(message(m.role, text));
  }
  // Automatic caching: one top-level `cache_control`, applied by the API to the last cacheable block.
  const auto = markerOf(body);
  const last = out.at(-1);
  if (auto && last) last.marks = [...(last.marks ?? []), { end: last.text.length, ...auto }];
  return out;
}

function otel(body: Obj): NormalMessage[] {
  const out = toolsMessage(body.tool_definitions, (t) => (t.type === 'function' ? fnTool(t.name, t.description, t.parameters) : undefined));
  for (const p of (body.system_instructions as Obj[] | undefined) ?? []) out.push(message('system', partsText([p], ['text'], 'content', {})));
  for (const m of body.input_messages as OtelMessage[]) {
    out.push(message(m.role, partsText(m.parts, ['text'], 'content', { tool_call_response: 'response' })));
  }
  return out;
}

const BY_FORMAT: Record<RequestFormat, (body: Obj) => NormalMessage[]> = { 'openai-chat': chat, 'openai-responses': responses, anthropic, 'otel-genai': otel };

export function normalise(format: RequestFormat, body: Record<string, unknown>): NormalMessage[] {
  return BY_FORMAT[format](body);
}
