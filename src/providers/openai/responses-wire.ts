/**
 * Fold request → OpenAI Responses request body (POST /v1/responses).
 * Every message becomes one input message `{role, content}` (the "easy input message" form, text
 * as a string) in `input`, in order; `instructions` is not used, so a system message stays where
 * the fold put it. Roles: system, developer, user and assistant pass through; any other role is
 * sent as `user`. Tool turns: an assistant message's `toolCalls` become `function_call` items
 * after its text, and a `tool` message with a `toolCallId` a `function_call_output` item. The
 * tool list becomes `tools`, each function tool as `{type: "function", name, description,
 * parameters}`. A request's own cache breakpoints go out as GPT-5.6 `prompt_cache_breakpoint`s on
 * `input_text` parts (parts.ts); a request without any is sent without markers.
 * Reference: src/routes/reference/wire-formats.mdx.
 */
import { asFunctionTool } from '../../folds/tools.ts';
import { markedParts, markEnd } from './parts.ts';
import { splitTools } from '../shared/split.ts';
import { providerModel } from '../shared/model.ts';
import { OPENAI_CREDENTIAL_HEADERS, OPENAI_ENDPOINT_HEADERS } from './endpoint.ts';
import type { Json, JsonObject, WireFace, WireSource } from '../types.ts';

const RESPONSES_ROLES = new Set(['system', 'developer', 'user', 'assistant']);

export function toOpenAIResponses(src: WireSource): JsonObject {
  const { tools, messages, cuts } = splitTools(src);
  const input: JsonObject[] = [];
  /** The input item a breakpoint at the start of the next message would end with (none after assistant output). */
  let markable: { item: JsonObject; key: 'content' | 'output' } | undefined;
  messages.forEach((m, i) => {
    const isResult = m.role === 'tool' && m.toolCallId !== undefined;
    const role = RESPONSES_ROLES.has(m.role) ? m.role : 'user';
    const marked = role === 'assistant' && !isResult ? { atStart: false } : markedParts(m.content, cuts[i]!, 'input_text');
    if (marked.atStart && markable) markable.item[markable.key] = markEnd(markable.item[markable.key]!, 'input_text');
    if (isResult) {
      const item: JsonObject = { type: 'function_call_output', call_id: m.toolCallId!, output: marked.parts ?? m.content };
      input.push(item);
      markable = { item, key: 'output' };
      return;
    }
    const calls = role === 'assistant' ? (m.toolCalls ?? []) : [];
    if (!calls.length || m.content !== '') {
      const item: JsonObject = { role, content: marked.parts ?? m.content };
      input.push(item);
      markable = role === 'assistant' ? undefined : { item, key: 'content' };
    }
    for (const c of calls) input.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: JSON.stringify(c.input) });
    if (calls.length) markable = undefined;
  });
  const body: JsonObject = { model: providerModel(src.model), input };
  if (tools) {
    body.tools = tools.map((t): Json => {
      const f = asFunctionTool(t);
      return f ? ({ type: 'function', ...f } as unknown as JsonObject) : (t as Json);
    });
  }
  return body;
}

/** OpenAI Responses' wire face (the adapter, ../openai-responses.ts, takes it whole). */
export const OPENAI_RESPONSES_WIRE: WireFace<'openai-responses'> = {
  id: 'openai-responses',
  title: 'OpenAI Responses',
  write: toOpenAIResponses,
  endpoint: { url: 'https://api.openai.com/v1/responses', keyVar: 'OPENAI_API_KEY', headers: OPENAI_ENDPOINT_HEADERS, credentialHeaders: OPENAI_CREDENTIAL_HEADERS },
};
