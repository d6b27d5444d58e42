/**
 * Fold request → Amazon Bedrock Converse request body (POST /model/{modelId}/converse; the model
 * is in the URL, not the body).
 * - The leading system messages become `system` text blocks; every other message a `user` or
 *   `assistant` message of content blocks, consecutive ones of the same role merged (Converse
 *   alternates turns). Converse has no mid-conversation system message (that is InvokeModel's
 *   Anthropic body only), so a later `system` message, `developer` and any other role go as `user` text.
 * - Tool turns: an assistant message's `toolCalls` become `toolUse` blocks; a `tool` message with a
 *   `toolCallId` a `toolResult` block of the next user message.
 * - The tool list becomes `toolConfig.tools`, each function tool as `{toolSpec: {name, description,
 *   inputSchema: {json}}}`.
 * - Cache breakpoints become `cachePoint: {type: "default", ttl?}` blocks placed right after the
 *   block their prefix ends with (in `toolConfig.tools`, `system` or the message's `content`); a text
 *   split in two where a breakpoint falls inside it. A request without breakpoints gets the common
 *   agent strategy (cacheBreakpoints), as the Anthropic view does.
 */
import { asFunctionTool } from '../../folds/tools.ts';
import { cacheBreakpoints } from '../anthropic/breakpoints.ts';
import { segments, splitTools, type Cut } from '../shared/split.ts';
import type { Json, JsonObject, WireFace, WireSource } from '../types.ts';

const NO_PARAMETERS: JsonObject = { type: 'object', properties: {} };

const cachePoint = (cut: Pick<Cut, 'ttl'>): JsonObject => ({ cachePoint: { type: 'default', ...(cut.ttl && { ttl: cut.ttl }) } });

/** Text blocks of `text` split at the interior cuts, a cachePoint after each piece a cut ends. */
function textBlocks(text: string, cuts: readonly Cut[]): JsonObject[] {
  return segments(text, cuts).flatMap((s) => (s.text === '' ? [] : [{ text: s.text }, ...(s.cut ? [cachePoint(s.cut)] : [])]));
}

export function toConverse(src: WireSource): JsonObject {
  const { tools, toolCuts, messages, cuts } = splitTools(src, cacheBreakpoints);
  const toolList: Json[] = [];
  (tools ?? []).forEach((t, i) => {
    const f = asFunctionTool(t);
    toolList.push(
      f
        ? { toolSpec: { name: f.name, ...(f.description !== undefined && { description: f.description }), inputSchema: { json: (f.parameters ?? NO_PARAMETERS) as Json } } }
        : (t as Json),
    );
    const cut = toolCuts.find((c) => c.index === i);
    if (cut) toolList.push(cachePoint(cut));
  });
  let lastList: Json[] | undefined = tools ? toolList : undefined; // where the last block sent went
  const system: JsonObject[] = [];
  const turns: { role: 'user' | 'assistant'; content: JsonObject[] }[] = [];
  let leading = true;
  for (const [position, m] of messages.entries()) {
    const isSystem = leading && m.role === 'system';
    if (m.role !== 'system') leading = false;
    const here = cuts[position]!;
    const inside = here.filter((c) => c.end > 0 && c.end < m.content.length);
    let blocks: JsonObject[];
    if (m.role === 'tool' && m.toolCallId !== undefined) {
      blocks = [{ toolResult: { toolUseId: m.toolCallId, content: m.content === '' ? [] : [{ text: m.content }] } }];
    } else {
      blocks = textBlocks(m.content, inside);
      for (const c of m.toolCalls ?? []) blocks.push({ toolUse: { toolUseId: c.id, name: c.name, input: c.input as Json } });
    }
    for (const c of here) {
      if (c.end > 0 && c.end < m.content.length) continue;
      // A breakpoint at the start of the message (or on one that sends nothing) ends with the block before it.
      if ((c.end === 0 && m.content.length > 0) || !blocks.length) lastList?.push(cachePoint(c));
      else blocks.push(cachePoint(c));
    }
    if (!blocks.length) continue;
    if (isSystem) {
      system.push(...blocks);
      lastList = system;
      continue;
    }
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const turn = turns.at(-1);
    if (turn && turn.role === role) turn.content.push(...blocks);
    else turns.push({ role, content: blocks });
    lastList = turns.at(-1)!.content;
  }
  const body: JsonObject = {};
  if (system.length) body.system = system;
  body.messages = turns;
  if (tools) body.toolConfig = { tools: toolList };
  return body;
}

/** Converse's wire face (the adapter, ../bedrock-converse.ts, takes it whole). */
export const BEDROCK_WIRE: WireFace<'bedrock-converse'> = {
  id: 'bedrock-converse',
  title: 'Amazon Bedrock (Converse, InvokeModel)',
  write: toConverse,
  endpoint: {
    url: 'https://bedrock-runtime.$AWS_REGION.amazonaws.com/model/$BEDROCK_MODEL_ID/converse',
    keyVar: 'AWS_BEARER_TOKEN_BEDROCK',
    headers: ['Authorization: Bearer $AWS_BEARER_TOKEN_BEDROCK', 'Content-Type: application/json'],
  },
};
