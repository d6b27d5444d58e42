/**
 * Fold request → OpenAI Responses request body (POST /v1/responses).
 * Every message becomes one input message `{role, content}` (the "easy input message" form, text
 * as a string) in `input`, in order; `instructions` is not used, so a system message stays where
 * the fold put it. Roles: system, developer, user and assistant pass through; any other role is
 * sent as `user`. The tool list becomes `tools`, each function tool as
 * `{type: "function", name, description, parameters}`.
 * Reference: src/pages/reference/wire-formats.mdx.
 */
import { asFunctionTool } from '../folds/requests/tools.ts';
import { splitTools } from './split.ts';
import { providerModel, type Json, type JsonObject, type WireSource } from './types.ts';

const RESPONSES_ROLES = new Set(['system', 'developer', 'user', 'assistant']);

export function toOpenAIResponses(src: WireSource): JsonObject {
  const { tools, messages } = splitTools(src.messages);
  const body: JsonObject = {
    model: providerModel(src.model),
    input: messages.map((m) => ({ role: RESPONSES_ROLES.has(m.role) ? m.role : 'user', content: m.content })),
  };
  if (tools) {
    body.tools = tools.map((t): Json => {
      const f = asFunctionTool(t);
      return f ? ({ type: 'function', ...f } as unknown as JsonObject) : (t as Json);
    });
  }
  return body;
}
