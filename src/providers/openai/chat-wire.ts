/**
 * Fold request → OpenAI Chat Completions request body (POST /v1/chat/completions).
 * Every message keeps its place and its text as a string `content`. Roles: system, developer,
 * user and assistant are Chat roles and pass through; a `tool` message with a `toolCallId` is a
 * Chat `tool` message answering that call (the assistant message's `toolCalls` become its
 * `tool_calls`, arguments as a JSON string); any other role (e.g. a `tool` message that answers
 * no call) is sent as `user`. The tool list becomes `tools` with each function tool as
 * `{type: "function", function: {name, description, parameters}}`. A request's own cache
 * breakpoints go out as GPT-5.6 `prompt_cache_breakpoint`s on text parts (parts.ts); a
 * request without any is sent without markers (OpenAI caches implicitly).
 * Reference: src/routes/reference/wire-formats.mdx.
 */
import { asFunctionTool } from '../../folds/tools.ts';
import { markedParts, markEnd } from './parts.ts';
import { splitTools } from '../shared/split.ts';
import { providerModel } from '../shared/model.ts';
import { OPENAI_CREDENTIAL_HEADERS, OPENAI_ENDPOINT_HEADERS } from './endpoint.ts';
import type { Json, JsonObject, WireFace, WireSource } from '../types.ts';

const CHAT_ROLES = new Set(['system', 'developer', 'user', 'assistant']);

export function toOpenAIChat(src: WireSource): JsonObject {
  const { tools, messages, cuts } = splitTools(src);
  const out: JsonObject[] = [];
  messages.forEach((m, i) => {
    const isResult = m.role === 'tool' && m.toolCallId !== undefined;
    const role = isResult ? 'tool' : CHAT_ROLES.has(m.role) ? m.role : 'user';
    const calls = role === 'assistant' ? (m.toolCalls ?? []) : [];
    const marked = role === 'assistant' ? { atStart: false } : markedParts(m.content, cuts[i]!, 'text');
    // A breakpoint at the start of this message ends with the message before it (when that one can carry one).
    const prev = out.at(-1);
    if (marked.atStart && prev && prev.role !== 'assistant') prev.content = markEnd(prev.content!, 'text');
    const message: JsonObject = {
      role,
      ...(isResult && { tool_call_id: m.toolCallId! }),
      content: marked.parts ?? (calls.length && m.content === '' ? null : m.content),
    };
    if (calls.length) message.tool_calls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input) } }));
    out.push(message);
  });
  const body: JsonObject = { model: providerModel(src.model), messages: out };
  if (tools) {
    body.tools = tools.map((t): Json => {
      const f = asFunctionTool(t);
      return f ? { type: 'function', function: f as unknown as JsonObject } : (t as Json);
    });
  }
  return body;
}

/** OpenAI Chat Completions' wire face (the adapter, ../openai-chat.ts, takes it whole). */
export const OPENAI_CHAT_WIRE: WireFace<'openai-chat'> = {
  id: 'openai-chat',
  title: 'OpenAI Chat Completions',
  write: toOpenAIChat,
  endpoint: { url: 'https://api.openai.com/v1/chat/completions', keyVar: 'OPENAI_API_KEY', headers: OPENAI_ENDPOINT_HEADERS, credentialHeaders: OPENAI_CREDENTIAL_HEADERS },
};
