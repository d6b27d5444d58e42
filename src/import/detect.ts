/**
 * Which provider a request body was sent to, from its shape: `input` → OpenAI Responses;
 * `messages` → OpenAI Chat Completions or Anthropic Messages, told apart by what only one of them
 * has (a top-level `system`, `tool_use` blocks → Anthropic; system/developer/tool roles,
 * `tool_calls`, `image_url` parts → Chat). A body both could have sent stays open until another
 * line decides; if none does, `max_tokens` on every body (required by Anthropic) picks Anthropic.
 */
import type { RequestFormat } from '../folds/requests/schema.ts';
import { isObject } from './read.ts';

export const FORMAT_TITLES: Record<RequestFormat, string> = {
  'openai-chat': 'OpenAI Chat Completions',
  'openai-responses': 'OpenAI Responses',
  anthropic: 'Anthropic Messages',
  'otel-genai': 'OpenTelemetry GenAI spans',
};

const ANTHROPIC_ONLY = new Set(['tool_use', 'tool_result', 'image', 'document', 'thinking', 'redacted_thinking', 'server_tool_use', 'web_search_tool_result', 'search_result']);
const CHAT_ONLY = new Set(['image_url', 'input_audio', 'file', 'refusal']);

/** The formats a body fits, or what is wrong with its shape. */
export function candidates(body: Record<string, unknown>): RequestFormat[] | { problem: string } {
  const hasMessages = 'messages' in body;
  const hasInput = 'input' in body;
  if (hasMessages && hasInput) return { problem: 'it has both `messages` and `input`' };
  if (hasInput) return ['openai-responses'];
  if (!hasMessages) return { problem: 'it has neither `messages` (OpenAI Chat Completions, Anthropic Messages) nor `input` (OpenAI Responses)' };
  let chat = true;
  let anthropic = true;
  if ('system' in body) chat = false;
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    if (!isObject(m)) continue;
    if (m.role !== 'user' && m.role !== 'assistant') anthropic = false;
    if (m.content === null || 'tool_calls' in m || 'tool_call_id' in m) anthropic = false;
    for (const p of Array.isArray(m.content) ? m.content : []) {
      const t = isObject(p) ? p.type : undefined;
      if (typeof t !== 'string') continue;
      if (ANTHROPIC_ONLY.has(t)) chat = false;
      if (CHAT_ONLY.has(t)) anthropic = false;
    }
  }
  const out: RequestFormat[] = [];
  if (chat) out.push('openai-chat');
  if (anthropic) out.push('anthropic');
  return out.length ? out : { problem: 'it mixes OpenAI Chat Completions fields (roles, tool_calls, image_url) with Anthropic Messages fields (system, tool_use blocks)' };
}
