/**
 * The step every wire mapping starts with: take the request's tool list (the `requests` fold's
 * `tools` message, see src/folds/requests/tools.ts) out of the messages. A `tools` message whose
 * content is not a JSON list stays a message (the mappings send it as user text).
 */
import type { RenderedMessage } from '../folds/types.ts';
import { parseToolsContent, TOOLS_ROLE } from '../folds/requests/tools.ts';

export interface Split {
  /** The tool list, when the request carries one. */
  tools?: unknown[];
  /** Every other message, in order. */
  messages: RenderedMessage[];
}

export function splitTools(messages: readonly RenderedMessage[]): Split {
  const out: Split = { messages: [] };
  for (const message of messages) {
    const tools = message.role === TOOLS_ROLE && out.tools === undefined ? parseToolsContent(message.content) : undefined;
    if (tools) out.tools = tools;
    else out.messages.push(message);
  }
  return out;
}
