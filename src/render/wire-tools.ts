/**
 * The tool calls of a provider JSON body, found for a reader: the wire views show the body exactly
 * as the provider receives it, where a call's input is a JSON string inside JSON (OpenAI's
 * `arguments`) or, for an imported request, a normalised `[tool_call] {…}` line inside a text
 * content string — escaped two or three times over. This module finds each call and result in
 * the body and gives its name, id, where it sits (a JSON path) and its input as readable YAML lines
 * (tool-readable.ts `readableInput`), so the view can show them beside the exact bytes, which stay
 * as they are.
 *
 * What counts as a call is read from the shapes the wire writers and the adapters use, not from a
 * provider's name: an object with a string `name` and an `input`, `arguments` or `args` (Anthropic
 * `tool_use`, OpenAI Chat `function`, Responses `function_call`, Converse `toolUse`, Gemini
 * `functionCall`; a tool definition has `input_schema` / `parameters` instead, and is not one); an
 * object without a name that answers an id (`tool_use_id`, `tool_call_id`, `toolUseId`, `call_id`)
 * is a result; and inside a string, each line tool-readable.ts reads as a call or a result. Plain
 * data: the caller writes it as text nodes (untrusted text is never markup).
 */
import { readableInput, toolPartOf } from './tool-readable.ts';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export interface WireToolCall {
  kind: 'call';
  name: string;
  id?: string;
  /** Where it sits in the body: `messages[1].tool_calls[0].function`, `messages[1].content (line 1)`. */
  at: string;
  /** Its input as indented YAML lines (a string that is not JSON is shown as that string). */
  input: string;
}

export interface WireToolResult {
  kind: 'result';
  id: string;
  /** The call it answers, when that call is in the same body. */
  name?: string;
  at: string;
}

export type WireTool = WireToolCall | WireToolResult;

const INPUT_KEYS = ['input', 'arguments', 'args'] as const;
const RESULT_KEYS = ['tool_use_id', 'tool_call_id', 'toolUseId', 'call_id'] as const;

const pathText = (path: readonly (string | number)[]): string =>
  path.map((k, i) => (typeof k === 'number' ? `[${k}]` : /^[A-Za-z_]\w*$/.test(k) ? `${i ? '.' : ''}${k}` : `[${JSON.stringify(k)}]`)).join('');

function parsed(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v; // arguments that are not JSON are shown as the string they are
  }
}

/** Every tool call and result in `body`, in document order. */
export function wireToolCalls(body: unknown): WireTool[] {
  const out: WireTool[] = [];
  const visit = (v: unknown, path: (string | number)[], parent: Obj | undefined): void => {
    if (typeof v === 'string') {
      if (!v.includes('[')) return;
      v.split('\n').forEach((line, i) => {
        const p = toolPartOf(line);
        if (!p) return;
        const at = `${pathText(path)} (line ${i + 1})`;
        if (p.kind === 'call') out.push({ kind: 'call', name: p.name, ...(p.id !== undefined && { id: p.id }), at, input: readableInput(p.input) });
        else out.push({ kind: 'result', id: p.id, at });
      });
      return;
    }
    if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) visit(x, [...path, i], parent);
      return;
    }
    if (!isObject(v)) return;
    const name = str(v.name);
    const key = INPUT_KEYS.find((k) => k in v);
    if (name !== undefined && key !== undefined) {
      // OpenAI Chat keeps the call's id on the object around `function`.
      const id = str(v.id) ?? str(v.call_id) ?? str(v.toolUseId) ?? (path.at(-1) === 'function' ? str(parent?.id) : undefined);
      out.push({ kind: 'call', name, ...(id !== undefined && { id }), at: pathText(path), input: readableInput(parsed(v[key]) ?? {}) });
      return;
    }
    const answered = name === undefined ? RESULT_KEYS.map((k) => str(v[k])).find((x) => x !== undefined) : undefined;
    if (answered !== undefined) out.push({ kind: 'result', id: answered, at: pathText(path) });
    for (const [k, x] of Object.entries(v)) visit(x, [...path, k], v);
  };
  visit(body, [], undefined);
  const names = new Map<string, string>();
  for (const t of out) if (t.kind === 'call' && t.id !== undefined) names.set(t.id, t.name);
  for (const t of out) if (t.kind === 'result' && names.has(t.id)) t.name = names.get(t.id)!;
  return out;
}

/** The one-line heading of a call or result: `Tool call edit (call_1) at messages[1].tool_calls[0].function`. */
export function wireToolHeading(t: WireTool): string {
  if (t.kind === 'call') return `Tool call ${t.name}${t.id === undefined ? '' : ` (${t.id})`} at ${t.at}`;
  return `Tool result ← ${t.name === undefined ? t.id : `${t.name} (${t.id})`} at ${t.at}`;
}
