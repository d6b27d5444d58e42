/**
 * Fold request → Anthropic Messages request body (POST /v1/messages).
 * - The leading system messages become top-level `system` text blocks, one block per message.
 * - Every other message becomes a text block of a `user` or `assistant` message; consecutive
 *   messages of the same provider role merge into one message (one block each), because the
 *   Messages API alternates user and assistant turns.
 * - Roles Anthropic lacks: `developer`, a `system` message after the conversation started, and
 *   any other role (e.g. `tool`) are sent as `user` text.
 * - Empty messages are left out (Anthropic rejects empty text blocks).
 * - `cache_control: {type: "ephemeral"}` on the blocks of the messages cacheBreakpoints() names.
 * - `max_tokens` is required by the API and not chosen by a fold: ANTHROPIC_MAX_TOKENS.
 * - The tool list becomes `tools`, each function tool as `{name, description, input_schema}`.
 * Reference: src/pages/reference/wire-formats.mdx.
 */
import { asFunctionTool, TOOLS_ROLE } from '../folds/requests/tools.ts';
import { cacheBreakpoints } from './breakpoints.ts';
import { splitTools } from './split.ts';
import { providerModel, type Json, type JsonObject, type WireSource } from './types.ts';

/** The `max_tokens` the Anthropic view sends: the API requires one and a fold does not choose it. */
export const ANTHROPIC_MAX_TOKENS = 4096;

/** JSON Schema for a function tool that declares no parameters (Anthropic requires `input_schema`). */
const NO_PARAMETERS: JsonObject = { type: 'object', properties: {} };

export function toAnthropic(src: WireSource): JsonObject {
  const { tools, messages } = splitTools(src.messages);
  // Positions in the split list: a `tools` message that stayed in it is plain user text.
  const marked = new Set(cacheBreakpoints(messages.map((m) => ({ role: m.role === TOOLS_ROLE ? 'user' : m.role }))));
  const system: JsonObject[] = [];
  const turns: { role: 'user' | 'assistant'; content: JsonObject[] }[] = [];
  let last: JsonObject | undefined;
  let pending = false; // a breakpoint fell on an empty message: it moves to the last block before it
  let leading = true;
  for (const [position, m] of messages.entries()) {
    const isSystem = leading && m.role === 'system';
    if (m.role !== 'system') leading = false;
    if (m.content !== '') {
      const block: JsonObject = { type: 'text', text: m.content };
      if (isSystem) system.push(block);
      else {
        const role = m.role === 'assistant' ? 'assistant' : 'user';
        const turn = turns.at(-1);
        if (turn && turn.role === role) turn.content.push(block);
        else turns.push({ role, content: [block] });
      }
      last = block;
    }
    if (marked.has(position) || pending) {
      if (m.content === '' && !last) pending = true;
      else {
        last!.cache_control = { type: 'ephemeral' };
        pending = false;
      }
    }
  }
  const body: JsonObject = { model: providerModel(src.model), max_tokens: ANTHROPIC_MAX_TOKENS };
  if (tools) {
    body.tools = tools.map((t): Json => {
      const f = asFunctionTool(t);
      if (!f) return t as Json;
      return { name: f.name, ...(f.description !== undefined && { description: f.description }), input_schema: (f.parameters ?? NO_PARAMETERS) as Json };
    });
  }
  if (system.length) body.system = system;
  body.messages = turns;
  return body;
}
