/** The usage readers of OpenAI's two formats (the counts' rules: shared/usage.ts openaiUsage). */
import { openaiUsage, requireKey } from '../shared/usage.ts';
import type { UsageReader } from '../types.ts';

const CHAT = 'an OpenAI Chat Completions usage ({"prompt_tokens", "prompt_tokens_details": {"cached_tokens"}})';
const RESPONSES = 'an OpenAI Responses usage ({"input_tokens", "input_tokens_details": {"cached_tokens"}})';

export const chatUsage: UsageReader = {
  shape: CHAT,
  looksLike: (u) => 'prompt_tokens' in u || 'prompt_tokens_details' in u,
  read: (u, issues) => (requireKey(u, 'prompt_tokens', CHAT, issues) ? openaiUsage(u, 'prompt_tokens', 'prompt_tokens_details', 'completion_tokens', issues) : undefined),
};

export const responsesUsage: UsageReader = {
  shape: RESPONSES,
  looksLike: (u) => 'input_tokens_details' in u,
  read: (u, issues) => (requireKey(u, 'input_tokens', RESPONSES, issues) ? openaiUsage(u, 'input_tokens', 'input_tokens_details', 'output_tokens', issues) : undefined),
};
