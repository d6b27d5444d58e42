/**
 * The input messages of a GenAI span in the shapes instrumentations have written over the
 * conventions' versions, all read into the current one — `[{role, parts: [{type, …}]}]`
 * (semconv 1.37+, the `otel-genai` adapter's body) — so an export is imported as it was written,
 * never refused for an older shape. Read from github.com/open-telemetry/semantic-conventions
 * `docs/gen-ai/` (v1.26–v1.36, read 2026-12-06) and the instrumentations' sources:
 *
 * - `gen_ai.input.messages` with `{role, content}` messages (content a string or a list of
 *   provider blocks: OpenAI `{type: "text", text}`, Anthropic `tool_use` / `tool_result`, Bedrock /
 *   Strands `{text}`, `{toolUse}`, `{toolResult}`), OpenAI `tool_calls` and `tool_call_id`;
 * - `gen_ai.prompt` (semconv ≤ 1.27, on the span or its `gen_ai.content.prompt` event): a JSON list
 *   of messages "matching OpenAI messages format" (or one message object, as Mirascope writes it:
 *   genai-spans.ts reads it as that message and says the rest is unrecorded);
 * - indexed attributes `gen_ai.prompt.<i>.role` / `.content` / `.tool_calls.<j>.{id,name,arguments}` /
 *   `.tool_call_id` (OpenLLMetry, github.com/traceloop/openllmetry `…/anthropic/span_utils.py`:
 *   `content` is the text, or a JSON list of the blocks when they are not all text);
 * - message events `gen_ai.system.message`, `gen_ai.user.message`, `gen_ai.assistant.message`,
 *   `gen_ai.tool.message` (semconv 1.28–1.36) with `content`, `tool_calls`, `id` — as span events
 *   (Strands writes `content` as JSON `[{"text": …}]`; Azure AI the whole message as JSON in
 *   `gen_ai.event.content`), or as Logfire / pydantic-ai's `events` attribute (a JSON list, each
 *   with `event.name`).
 *
 * Pure: values in, messages out, or a problem naming what is wrong.
 */
type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface GenaiMessage {
  role: string;
  parts: Obj[];
}

/** A JSON text parsed when it is a JSON list or object (instrumentations serialise block lists), else the value as is. */
function maybeJson(v: unknown): unknown {
  if (typeof v !== 'string' || !/^\s*[[{]/.test(v)) return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** Tool-call arguments as the call carried them: the JSON object a string holds, else the value. */
const argumentsOf = (v: unknown): unknown => maybeJson(v);

/** One content block of a provider's shape → a part of the current conventions. */
function blockPart(b: unknown): Obj {
  if (typeof b === 'string') return { type: 'text', content: b };
  if (!isObject(b)) return { type: 'text', content: JSON.stringify(b) };
  if (typeof b.text === 'string' && (b.type === undefined || b.type === 'text' || b.type === 'input_text' || b.type === 'output_text')) return { type: 'text', content: b.text };
  if (b.type === 'text' && typeof b.content === 'string') return { type: 'text', content: b.content };
  if (b.type === 'tool_use') return { type: 'tool_call', id: b.id, name: b.name, arguments: b.input };
  if (b.type === 'tool_result') return { type: 'tool_call_response', id: b.tool_use_id, response: b.content };
  if (isObject(b.toolUse)) return { type: 'tool_call', id: b.toolUse.toolUseId, name: b.toolUse.name, arguments: b.toolUse.input };
  if (isObject(b.toolResult)) return { type: 'tool_call_response', id: b.toolResult.toolUseId, response: b.toolResult.content };
  return typeof b.type === 'string' && b.type !== '' ? b : { type: 'unknown', ...b };
}

/**
 * One message of an older shape → the current one: `{role, content, tool_calls?, tool_call_id?}`;
 * a message that already has `parts` is kept. A problem when it has no role.
 */
export function toCurrent(m: unknown): GenaiMessage | { problem: string } {
  if (!isObject(m)) return { problem: 'a message must be an object' };
  const role = m.role;
  if (typeof role !== 'string' || role === '') return { problem: 'a message has no `role`' };
  if (Array.isArray(m.parts)) return m as unknown as GenaiMessage;
  const parts: Obj[] = [];
  const content = maybeJson(m.content);
  if (role === 'tool' && (typeof content === 'string' || (content !== undefined && content !== null && !Array.isArray(content))))
    parts.push({ type: 'tool_call_response', id: m.tool_call_id ?? m.id, response: content });
  else if (Array.isArray(content)) parts.push(...content.map(blockPart));
  else if (typeof content === 'string') parts.push({ type: 'text', content });
  else if (isObject(content)) parts.push(blockPart(content));
  for (const c of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
    if (!isObject(c)) continue;
    const fn = isObject(c.function) ? c.function : c;
    parts.push({ type: 'tool_call', id: c.id, name: fn.name, arguments: argumentsOf(fn.arguments) });
  }
  return { role, parts };
}

/** A list of messages of any of the shapes → the current shape; problems carry the message's index. */
export function messagesOf(list: unknown): { messages: GenaiMessage[] } | { problem: string; index?: number } {
  if (!Array.isArray(list)) return { problem: 'the messages are not a list' };
  const messages: GenaiMessage[] = [];
  for (const [i, m] of list.entries()) {
    const r = toCurrent(m);
    if ('problem' in r) return { problem: r.problem, index: i };
    messages.push(r);
  }
  return { messages };
}

const PROMPT = /^gen_ai\.prompt\.(\d{1,9})\.(.+)$/;
const CALL = /^tool_calls\.(\d{1,9})\.(id|name|arguments)$/;

/** OpenLLMetry's indexed `gen_ai.prompt.<i>.*` attributes → messages in index order; a problem names the index of a message without its role. */
export function indexedPrompt(attributes: Iterable<[string, unknown]>): { messages: GenaiMessage[] } | { problem: string; index: number } | undefined {
  const by = new Map<number, Obj>();
  for (const [k, v] of attributes) {
    const m = PROMPT.exec(k);
    if (!m) continue;
    const i = Number(m[1]);
    if (!by.has(i)) by.set(i, {});
    const msg = by.get(i)!;
    const call = CALL.exec(m[2]!);
    if (call) {
      const calls = ((msg.tool_calls as Obj[] | undefined) ??= []);
      const j = Number(call[1]);
      calls[j] ??= {};
      calls[j]![call[2]!] = v;
    } else msg[m[2]!] = v;
  }
  if (!by.size) return undefined;
  const messages: GenaiMessage[] = [];
  for (const [i, m] of [...by].sort((a, b) => a[0] - b[0])) {
    if (Array.isArray(m.tool_calls)) m.tool_calls = m.tool_calls.filter(Boolean);
    const r = toCurrent(m);
    if ('problem' in r) return { problem: r.problem, index: i };
    messages.push(r);
  }
  return { messages };
}

/** The role a message event's name says (`gen_ai.user.message` → `user`), or undefined when it is not one. */
export function eventRole(name: unknown): string | undefined {
  const m = typeof name === 'string' ? /^gen_ai\.(system|user|assistant|tool)\.message$/.exec(name) : null;
  return m?.[1];
}

/** Message events (a span's events, or Logfire's `events` list) → messages, in order. */
export function eventMessages(events: readonly { name: unknown; fields: Obj }[]): GenaiMessage[] | undefined {
  const out: GenaiMessage[] = [];
  for (const e of events) {
    const role = eventRole(e.name);
    if (!role) continue;
    // Azure AI's instrumentation puts the message as JSON in `gen_ai.event.content`.
    const inner = maybeJson(e.fields['gen_ai.event.content']);
    const fields = isObject(inner) ? { ...e.fields, ...inner } : e.fields;
    const r = toCurrent({ ...fields, role: typeof fields.role === 'string' ? fields.role : role });
    if (!('problem' in r)) out.push(r);
  }
  return out.length ? out : undefined;
}

/** OpenLLMetry's `llm.request.functions.<i>.{name, description, parameters | input_schema}` → tool definitions. */
export function indexedFunctions(attributes: Iterable<[string, unknown]>): Obj[] | undefined {
  const by = new Map<number, Obj>();
  for (const [k, v] of attributes) {
    const m = /^llm\.request\.functions\.(\d{1,9})\.(name|description|parameters|input_schema)$/.exec(k);
    if (!m) continue;
    const i = Number(m[1]);
    if (!by.has(i)) by.set(i, { type: 'function' });
    by.get(i)![m[2] === 'input_schema' ? 'parameters' : m[2]!] = m[2] === 'parameters' || m[2] === 'input_schema' ? maybeJson(v) : v;
  }
  return by.size ? [...by].sort((a, b) => a[0] - b[0]).map(([, t]) => t) : undefined;
}
