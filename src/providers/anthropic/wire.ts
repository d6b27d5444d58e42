/**
 * Fold request → Anthropic Messages request body (POST /v1/messages).
 * - The leading system messages become top-level `system` text blocks, one block per message.
 * - Every other message becomes a text block of a `user` or `assistant` message; consecutive
 *   messages of the same provider role merge into one message (one block each), because the
 *   Messages API alternates user and assistant turns.
 * - Tool turns: an assistant message's `toolCalls` become `tool_use` blocks after its text, and a
 *   `tool` message with a `toolCallId` becomes a `tool_result` block of the next user message
 *   (results first, as the API requires; the user text that follows joins that message after them).
 * - A `system` message after the conversation started is a mid-conversation system message
 *   (`{"role": "system"}` at its position; platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages,
 *   read 2026-12-03: the models catalog.ts MID_SYSTEM_MODELS lists — the economics flag it on others).
 * - Roles Anthropic lacks: `developer` and any other role (e.g. a `tool` message that answers no
 *   call) are sent as `user` text.
 * - Empty messages are left out (Anthropic rejects empty text blocks).
 * - Cache breakpoints: the request's own (WireSource.breakpoints), each as
 *   `cache_control: {type: "ephemeral", ttl?}` on the block its prefix ends with — a tool, a system
 *   block, a message block — a text block split in two where a breakpoint falls inside it; a
 *   request without any gets the common agent strategy (cacheBreakpoints: after the system prompt
 *   and on the last message). A breakpoint at the start of a message or on an empty one ends with
 *   the block before it.
 * - `max_tokens` is required by the API and not chosen by a fold: ANTHROPIC_MAX_TOKENS.
 * - The tool list becomes `tools`, each function tool as `{name, description, input_schema}`.
 * Reference: src/routes/reference/wire-formats.mdx.
 */
import { asFunctionTool } from '../../folds/tools.ts';
import { cacheBreakpoints } from './breakpoints.ts';
import { segments, splitTools, type Cut } from '../shared/split.ts';
import { providerModel } from '../shared/model.ts';
import type { Json, JsonObject, WireFace, WireSource } from '../types.ts';

/** The `max_tokens` the Anthropic view sends: the API requires one and a fold does not choose it. */
export const ANTHROPIC_MAX_TOKENS = 4096;

/** JSON Schema for a function tool that declares no parameters (Anthropic requires `input_schema`). */
const NO_PARAMETERS: JsonObject = { type: 'object', properties: {} };

const control = (cut: Pick<Cut, 'ttl'>): JsonObject => ({ type: 'ephemeral', ...(cut.ttl && { ttl: cut.ttl }) });

/** Text blocks of `text` split at the interior cuts, each piece before a cut marked; empty pieces left out. */
function textBlocks(text: string, cuts: readonly Cut[]): JsonObject[] {
  return segments(text, cuts)
    .filter((s) => s.text !== '')
    .map((s) => ({ type: 'text', text: s.text, ...(s.cut && { cache_control: control(s.cut) }) }));
}

export function toAnthropic(src: WireSource): JsonObject {
  const { tools, toolCuts, messages, cuts } = splitTools(src, cacheBreakpoints);
  const toolList = tools?.map((t): Json => {
    const f = asFunctionTool(t);
    if (!f) return t as Json;
    return { name: f.name, ...(f.description !== undefined && { description: f.description }), input_schema: (f.parameters ?? NO_PARAMETERS) as Json };
  });
  let last: JsonObject | undefined; // the last block sent so far, in cache order (tools → system → messages)
  let pending: Cut | undefined; // a breakpoint before any block: it goes on the next one
  const mark = (block: JsonObject, cut: Pick<Cut, 'ttl'>): void => {
    block.cache_control = control(cut);
  };
  for (const t of toolCuts) {
    const tool = toolList?.[t.index];
    if (tool && typeof tool === 'object' && !Array.isArray(tool)) mark(tool, t);
  }
  const lastTool = toolList?.at(-1);
  if (lastTool && typeof lastTool === 'object' && !Array.isArray(lastTool)) last = lastTool;

  const system: JsonObject[] = [];
  const turns: { role: 'user' | 'assistant' | 'system'; content: JsonObject[] }[] = [];
  let leading = true;
  for (const [position, m] of messages.entries()) {
    const isSystem = leading && m.role === 'system';
    if (m.role !== 'system') leading = false;
    const length = m.content.length;
    const here = cuts[position]!;
    const inside = here.filter((c) => c.end > 0 && c.end < length);
    let blocks: JsonObject[];
    if (m.role === 'tool' && m.toolCallId !== undefined) {
      const content = textBlocks(m.content, inside);
      const plainText = content.length === 1 && !content[0]!.cache_control;
      blocks = [{ type: 'tool_result', tool_use_id: m.toolCallId, ...(content.length > 0 && { content: plainText ? m.content : content }) }];
    } else {
      blocks = textBlocks(m.content, inside);
      for (const c of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input as Json });
    }
    // A breakpoint at the start of the message (or on one that sends nothing) ends with the block before it.
    for (const c of here) {
      if (c.end > 0 && c.end < length) continue;
      const before = c.end === 0 && length > 0 ? true : blocks.length === 0;
      if (before) {
        if (last) mark(last, c);
        else pending = c;
      } else mark(blocks.at(-1)!, c);
    }
    if (!blocks.length) continue;
    if (pending) {
      if (!blocks[0]!.cache_control) mark(blocks[0]!, pending);
      pending = undefined;
    }
    if (isSystem) system.push(...blocks);
    else {
      const role = m.role === 'assistant' ? 'assistant' : m.role === 'system' ? 'system' : 'user';
      const turn = turns.at(-1);
      if (turn && turn.role === role) turn.content.push(...blocks);
      else turns.push({ role, content: blocks });
    }
    last = blocks.at(-1);
  }
  const body: JsonObject = { model: providerModel(src.model), max_tokens: ANTHROPIC_MAX_TOKENS };
  if (toolList) body.tools = toolList;
  if (system.length) body.system = system;
  body.messages = turns;
  return body;
}

/** The Messages API's wire face (the adapter, ../anthropic.ts, takes it whole). */
export const ANTHROPIC_WIRE: WireFace<'anthropic'> = {
  id: 'anthropic',
  title: 'Anthropic Messages',
  write: toAnthropic,
  endpoint: {
    url: 'https://api.anthropic.com/v1/messages',
    keyVar: 'ANTHROPIC_API_KEY',
    headers: ['x-api-key: $ANTHROPIC_API_KEY', 'anthropic-version: 2023-06-01', 'content-type: application/json'],
  },
};
