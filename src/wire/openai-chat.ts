/**
 * Fold request → OpenAI Chat Completions request body (POST /v1/chat/completions).
 * Every message keeps its place and its text as a string `content`. Roles: system, developer,
 * user and assistant are Chat roles and pass through; any other role (e.g. `tool`, which would
 * need a `tool_call_id` the fold does not have) is sent as `user`. The tool list becomes `tools`
 * with each function tool as `{type: "function", function: {name, description, parameters}}`.
 * Reference: src/pages/reference/wire-formats.mdx.
 */
import { asFunctionTool } from '../folds/requests/tools.ts';
import { splitTools } from './split.ts';
import { providerModel, type Json, type JsonObject, type WireSource } from './types.ts';

const CHAT_ROLES = new Set(['system', 'developer', 'user', 'assistant']);

export function toOpenAIChat(src: WireSource): JsonObject {
  const { tools, messages } = splitTools(src.messages);
  const body: JsonObject = {
    model: providerModel(src.model),
    messages: messages.map((m) => ({ role: CHAT_ROLES.has(m.role) ? m.role : 'user', content: m.content })),
  };
  if (tools) {
    body.tools = tools.map((t): Json => {
      const f = asFunctionTool(t);
      return f ? { type: 'function', function: f as unknown as JsonObject } : (t as Json);
    });
  }
  return body;
}
