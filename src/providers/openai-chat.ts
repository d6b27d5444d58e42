/**
 * OpenAI Chat Completions (POST /v1/chat/completions): the adapter. A body has `messages` with
 * system / developer / user / assistant / tool roles, `tool_calls` and `tool_call_id`, and GPT-5.6
 * `prompt_cache_breakpoint` markers on content parts. Usage (developers.openai.com/api/docs/guides/prompt-caching):
 * `prompt_tokens` INCLUDES the cached tokens; `prompt_tokens_details.{cached_tokens,
 * cache_write_tokens}` (writes reported by GPT-5.6 and later).
 */
import * as z from 'zod';
import { OPENAI_CATALOG, OPENAI_CATALOG_NOTE, OPENAI_DOC_HOSTS, OPENAI_EXAMPLE_MODEL, OPENAI_FALLBACK, OPENAI_SIDE_BY_SIDE } from './openai/catalog.ts';
import { OPENAI_CACHE_STRATEGIES } from './openai/cache.ts';
import { openaiParams } from './openai/params.ts';
import { OPENAI_CHAT_WIRE } from './openai/chat-wire.ts';
import { chatUsage } from './openai/usage.ts';
import { fnTool, isObject, join, message, partsText, plain, tagged, toolsMessage, without, type Obj, type Piece } from './shared/normalise.ts';
import type { NormalMessage, ProviderAdapter } from './types.ts';
import { chatRecorded } from './openai/recorded.ts';

const str = z.string();
const typed = z.looseObject({ type: str.min(1) });
const chatMessage = z.looseObject({
  role: str.min(1),
  content: z.union([str, z.array(typed), z.null()]).optional(),
  tool_calls: z.array(z.looseObject({ id: str.optional(), type: str.optional(), function: z.looseObject({ name: str, arguments: str.optional() }).optional() })).optional(),
  tool_call_id: str.optional(),
});
type ChatMessage = z.infer<typeof chatMessage>;

/** Content block types only Anthropic has (a body with one is not a Chat body). */
const ANTHROPIC_ONLY = new Set(['tool_use', 'tool_result', 'image', 'document', 'thinking', 'redacted_thinking', 'server_tool_use', 'web_search_tool_result', 'search_result']);

function normalise(body: Obj): NormalMessage[] {
  const out = toolsMessage(body.tools, (t) => (t.type === 'function' && isObject(t.function) ? fnTool(t.function.name, t.function.description, t.function.parameters) : undefined));
  for (const m of body.messages as ChatMessage[]) {
    const lines: Piece[] = [];
    if (m.tool_call_id !== undefined) lines.push(plain(tagged('tool_result', { tool_call_id: m.tool_call_id })));
    if (typeof m.content === 'string') lines.push(plain(m.content));
    else if (Array.isArray(m.content)) lines.push(partsText(m.content, ['text'], 'text', {}));
    for (const c of m.tool_calls ?? []) lines.push(plain(tagged('tool_call', without(c as Obj, 'type'))));
    out.push(message(m.role, join(lines, '\n')));
  }
  return out;
}

export const openaiChat: ProviderAdapter<'openai-chat'> = {
  ...OPENAI_CHAT_WIRE,
  provider: 'openai',
  providerTitle: 'OpenAI',
  aiSdkProviders: ['openai.chat'],
  catalogNote: OPENAI_CATALOG_NOTE,
  docHosts: OPENAI_DOC_HOSTS,
  exampleModel: OPENAI_EXAMPLE_MODEL,
  exampleBody: { model: 'gpt-4.1', messages: [{ role: 'user', content: 'Hello' }] },
  sideBySide: OPENAI_SIDE_BY_SIDE,
  messageList: 'messages',
  detect(body) {
    if ('input' in body) return 'it has `input` (an OpenAI Responses field)';
    if (!('messages' in body)) return 'it has no `messages`';
    if ('system' in body) return 'it has a top-level `system` (an Anthropic Messages field)';
    if ('anthropic_version' in body || 'toolConfig' in body || 'modelId' in body) return 'it has Bedrock fields (`anthropic_version`, `toolConfig`, `modelId`)';
    for (const [i, m] of (Array.isArray(body.messages) ? body.messages : []).entries()) {
      for (const p of isObject(m) && Array.isArray(m.content) ? m.content : []) {
        if (isObject(p) && typeof p.type === 'string' && ANTHROPIC_ONLY.has(p.type)) return `message ${i} has a \`${p.type}\` block (Anthropic Messages)`;
        if (isObject(p) && !('type' in p)) return `message ${i} has a content part without \`type\` (Bedrock Converse blocks are keyed by kind)`;
      }
    }
    return true;
  },
  schema: z.looseObject({ model: str.min(1), messages: z.array(chatMessage).min(1), tools: z.array(z.unknown()).optional() }),
  normalise,
  params: openaiParams,
  usage: chatUsage,
  recorded: chatRecorded,
  defaultBreakpoints: () => [],
  catalog: OPENAI_CATALOG,
  fallback: OPENAI_FALLBACK,
  cacheStrategies: OPENAI_CACHE_STRATEGIES,
};
