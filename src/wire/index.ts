/**
 * Provider wire formats: a fold's rendered request (model + messages) as the JSON body each
 * provider API receives — OpenAI Chat Completions, OpenAI Responses, Anthropic Messages — and as
 * a cURL command. Pure and browser-safe. The mapping rules are on the "Wire formats" reference
 * page (src/routes/reference/wire-formats.mdx); each format's module says them in its header.
 */
import { toAnthropic } from './anthropic.ts';
import { toOpenAIChat } from './openai-chat.ts';
import { toOpenAIResponses } from './openai-responses.ts';
import type { JsonObject, WireFormat, WireSource } from './types.ts';

export { cacheBreakpoints } from './breakpoints.ts';
export { ANTHROPIC_MAX_TOKENS } from './anthropic.ts';
export { curlCommand, ENDPOINTS } from './curl.ts';
export { WIRE_FORMATS, providerModel, type WireFormat, type WireSource } from './types.ts';

/** Display names, in the order the views list them. */
export const FORMAT_TITLES: Record<WireFormat, string> = {
  'openai-chat': 'OpenAI Chat Completions',
  'openai-responses': 'OpenAI Responses',
  anthropic: 'Anthropic Messages',
};

const MAPPERS: Record<WireFormat, (src: WireSource) => JsonObject> = {
  'openai-chat': toOpenAIChat,
  'openai-responses': toOpenAIResponses,
  anthropic: toAnthropic,
};

/** The request body `format` receives. */
export function toWire(format: WireFormat, src: WireSource): JsonObject {
  return MAPPERS[format](src);
}

/** The body as pretty-printed JSON (2 spaces) — what "Copy as JSON" copies. */
export function wireJson(format: WireFormat, src: WireSource): string {
  return JSON.stringify(toWire(format, src), null, 2);
}
