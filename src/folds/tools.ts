/**
 * The tool convention every fold follows (exported by the kit, `prompt-fold-explainer/kit`), so that
 * a fold's tool list, tool calls and tool results reach every wire view, the economics and the
 * printed request the same way, whoever wrote the fold:
 *
 * - **The tool list** is one leading message with the pseudo-role `tools` (TOOLS_ROLE) whose content
 *   is the list as JSON (`toolsContent`): each function tool `{name, description?, parameters?}`
 *   (`asFunctionTool` accepts a provider's spelling), any other tool (a provider's built-in) as
 *   given. Providers put tools at the very start of the cached prefix, so a reordered or edited tool
 *   list shows in the diff and as a cache break like any other text; the wire views read it back
 *   into each provider's `tools` field (`parseToolsContent`), and a breakpoint at the end of one
 *   entry (`toolEntryEnds`) names that tool.
 * - **A tool call** is an `assistant` message's `toolCalls` entry (`{id, name, input}`, types.ts).
 *   The message's `content` is the text the model wrote with its calls; the wire views send it as
 *   text, then one call per entry (Anthropic `tool_use`, OpenAI `tool_calls` / `function_call`).
 *   The printed request (and so the fixtures and the cache figures' text) shows `content` only.
 * - **A tool result** is a `tool` message whose `toolCallId` names the call it answers; its content
 *   is the result. Without `toolCallId` it goes out as user text.
 *
 * The `requests` fold renders imported traces with it (through the provider adapters, src/providers/), and the
 * "Bring your own fold" page has a worked example.
 */
/** Role of the message that carries a request's tool list. */
export const TOOLS_ROLE = 'tools';

/**
 * Where each entry of a tool list ends in its `toolsContent` text (character positions): what a
 * cache marker on a tool becomes (normalise.ts) and how a wire view finds the tool a breakpoint in
 * the `tools` message names. toolsContent prints "[\n", each entry indented by two spaces, ",\n"
 * between entries, then "\n]".
 */
export function toolEntryEnds(tools: readonly unknown[]): number[] {
  let at = 2;
  return tools.map((t, i) => {
    if (i > 0) at += 2;
    at += 2 + (JSON.stringify(t, null, 2) ?? 'null').replaceAll('\n', '\n  ').length;
    return at;
  });
}

/** A function tool, provider-neutral. */
export interface FunctionTool {
  name: string;
  description?: string;
  parameters?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The message content for a normalised tool list (stable: 2-space JSON, fields in a fixed order). */
export function toolsContent(tools: readonly unknown[]): string {
  return JSON.stringify(tools, null, 2);
}

/** A function tool in provider-neutral form, or undefined when `v` is not one. */
export function asFunctionTool(v: unknown): FunctionTool | undefined {
  if (!isObject(v) || typeof v.name !== 'string') return undefined;
  if (v.type !== undefined && v.type !== 'function') return undefined;
  const keys = Object.keys(v).filter((k) => k !== 'type');
  if (keys.some((k) => !['name', 'description', 'parameters'].includes(k))) return undefined;
  return {
    name: v.name,
    ...(typeof v.description === 'string' && { description: v.description }),
    ...(v.parameters !== undefined && { parameters: v.parameters }),
  };
}

/** The tool list a `tools` message carries, or undefined when its content is not a JSON list. */
export function parseToolsContent(content: string): unknown[] | undefined {
  try {
    const v: unknown = JSON.parse(content);
    return Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
