/**
 * A provider request body → the messages the model reads, provider-neutral: `{role, text}` in
 * order, the tool list first (as a `tools` message, see tools.ts). Text parts are joined with a
 * newline; anything else (a tool call, a tool result, an image, a reasoning item) becomes one line
 * `[<type>] <its other fields as compact JSON>`, a tool result followed by its text. Anthropic
 * `cache_control` markers are dropped everywhere: they say where to cache, not what is read.
 * Bodies are already validated (schema.ts).
 */
import type { AnthropicMessage, ChatMessage, OtelMessage, RequestFormat, ResponsesItem } from './schema.ts';
import { toolsContent, TOOLS_ROLE } from './tools.ts';

export interface NormalMessage {
  role: string;
  text: string;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The object without the given keys (and never `cache_control`). */
function without(o: Obj, ...keys: string[]): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) if (k !== 'cache_control' && !keys.includes(k)) out[k] = v;
  return out;
}

/** `[type] {"field":…}` — a part that is not text, on one line. */
function tagged(type: string, rest: Obj): string {
  return Object.keys(rest).length ? `[${type}] ${JSON.stringify(rest)}` : `[${type}]`;
}

/** A tool result's own text: a string as is, text parts joined, anything else as JSON. */
function resultText(v: unknown, textKey: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((p) => (isObject(p) && p.type === 'text' && typeof p[textKey] === 'string' ? (p[textKey] as string) : JSON.stringify(p))).join('\n');
  return JSON.stringify(v);
}

function withResult(head: string, text: string): string {
  return text === '' ? head : `${head}\n${text}`;
}

/** Text of a list of parts whose text parts are `{type: <textTypes>, <textKey>: string}`. */
function partsText(parts: readonly Obj[], textTypes: readonly string[], textKey: string, resultTypes: Record<string, string>): string {
  return parts
    .map((p) => {
      const type = String(p.type);
      if (textTypes.includes(type) && typeof p[textKey] === 'string') return p[textKey] as string;
      const resultKey = resultTypes[type];
      if (resultKey) return withResult(tagged(type, without(p, 'type', resultKey)), resultText(p[resultKey], textKey));
      return tagged(type, without(p, 'type'));
    })
    .join('\n');
}

function toolsMessage(tools: unknown, fn: (t: Obj) => Obj | undefined): NormalMessage[] {
  if (!Array.isArray(tools) || !tools.length) return [];
  const list = tools.map((t) => (isObject(t) ? (fn(t) ?? without(t)) : t));
  return [{ role: TOOLS_ROLE, text: toolsContent(list) }];
}

/** A provider-neutral function tool: name, then description and parameters when given. */
function fnTool(name: unknown, description: unknown, parameters: unknown): Obj {
  return { name, ...(description !== undefined && { description }), ...(parameters !== undefined && { parameters }) };
}

function chat(body: Obj): NormalMessage[] {
  const out = toolsMessage(body.tools, (t) => (t.type === 'function' && isObject(t.function) ? fnTool(t.function.name, t.function.description, t.function.parameters) : undefined));
  for (const m of body.messages as ChatMessage[]) {
    const lines: string[] = [];
    if (m.tool_call_id !== undefined) lines.push(tagged('tool_result', { tool_call_id: m.tool_call_id }));
    if (typeof m.content === 'string') lines.push(m.content);
    else if (Array.isArray(m.content)) lines.push(partsText(m.content, ['text'], 'text', {}));
    for (const c of m.tool_calls ?? []) lines.push(tagged('tool_call', without(c as Obj, 'type')));
    out.push({ role: m.role, text: lines.join('\n') });
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
      const text = typeof item.content === 'string' ? item.content : partsText(item.content ?? [], ['input_text', 'output_text'], 'text', {});
      out.push({ role: item.role, text });
    } else if (item.type === 'function_call_output') {
      out.push({ role: 'tool', text: withResult(tagged(item.type, without(item, 'type', 'output')), resultText((item as Obj).output, 'text')) });
    } else {
      out.push({ role: item.role ?? 'assistant', text: tagged(item.type!, without(item, 'type', 'role')) });
    }
  }
  return out;
}

function anthropic(body: Obj): NormalMessage[] {
  const out = toolsMessage(body.tools, (t) => (t.type === undefined || t.type === 'custom' ? fnTool(t.name, t.description, t.input_schema) : undefined));
  if (typeof body.system === 'string') out.push({ role: 'system', text: body.system });
  else if (Array.isArray(body.system)) for (const b of body.system as { text: string }[]) out.push({ role: 'system', text: b.text });
  for (const m of body.messages as AnthropicMessage[]) {
    const text = typeof m.content === 'string' ? m.content : partsText(m.content, ['text'], 'text', { tool_result: 'content' });
    out.push({ role: m.role, text });
  }
  return out;
}

function otel(body: Obj): NormalMessage[] {
  const out = toolsMessage(body.tool_definitions, (t) => (t.type === 'function' ? fnTool(t.name, t.description, t.parameters) : undefined));
  for (const p of (body.system_instructions as Obj[] | undefined) ?? []) out.push({ role: 'system', text: partsText([p], ['text'], 'content', {}) });
  for (const m of body.input_messages as OtelMessage[]) {
    out.push({ role: m.role, text: partsText(m.parts, ['text'], 'content', { tool_call_response: 'response' }) });
  }
  return out;
}

const BY_FORMAT: Record<RequestFormat, (body: Obj) => NormalMessage[]> = { 'openai-chat': chat, 'openai-responses': responses, anthropic, 'otel-genai': otel };

export function normalise(format: RequestFormat, body: Record<string, unknown>): NormalMessage[] {
  return BY_FORMAT[format](body);
}
