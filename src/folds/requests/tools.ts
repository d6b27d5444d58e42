/**
 * The tool list of a provider request, as the `requests` fold renders it: one leading message with
 * the pseudo-role `tools` whose content is the normalised list as JSON — each function tool as
 * `{name, description?, parameters?}` whatever the provider spelled it, any other tool (a
 * provider's built-in) as given. Providers put tools at the very start of the cached prefix, so a
 * reordered or edited tool list shows up in the diff and as a cache break like any other text.
 * The wire mappings (src/wire) read the same message back into each provider's `tools` field.
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
