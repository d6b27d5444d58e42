/**
 * An AI SDK call's prompt, as its telemetry span records it, → the Anthropic Messages body the
 * `@ai-sdk/anthropic` provider sends for it. The span (`ai.generateText.doGenerate`,
 * `ai.streamText.doStream`) records the SDK-level prompt (`ai.prompt.messages`: the language-model
 * prompt, `{role, content, providerOptions}` messages), the tools (`ai.prompt.tools`: one JSON text
 * per tool, `{type: 'function', name, description, inputSchema, providerOptions}`) and
 * `gen_ai.request.max_tokens`, not the body; this rebuilds the body the way the provider does.
 *
 * Read in github.com/vercel/ai at commit 01ab106e549d9bd8f582a2b42480235bac2e0d4a (AI SDK 6, read
 * 2026-12-07):
 * `packages/anthropic/src/convert-to-anthropic-messages-prompt.ts` — consecutive system messages
 * are the `system` blocks; consecutive user and tool messages one user message (a tool result a
 * `tool_result` block: text as is, JSON as its JSON text, an error with `is_error`); consecutive
 * assistant messages one assistant message (text, `tool_use` from a tool call, a reasoning part
 * with its signature a `thinking` block); the last text of the final assistant message is trimmed;
 * a cache marker is a part's `providerOptions.anthropic.cacheControl` (or `cache_control`), else,
 * on a message's last part, the message's. `packages/anthropic/src/anthropic-prepare-tools.ts` (read
 * at 018a96d26fc19d6a4518c753cc4b77197b22e4d6, AI SDK 5): a function tool is `{name, description,
 * input_schema, cache_control}`; the tool choice `auto` is `{type: 'auto'}`, `required`
 * `{type: 'any'}`, a named tool `{type: 'tool', name}`, and `none` sends no tools at all.
 *
 * What the span does not record, the caller says (the import's `unrecorded`): call-level provider
 * options (thinking, …), a `max_tokens` the provider chose, provider-defined tools and media the
 * provider converts from URLs. Parts this does not rebuild are kept as the SDK's part, so nothing
 * is dropped silently.
 */
import type { AiSdkCall, JsonObject } from '../types.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The cache marker a part or message asks for (`providerOptions.anthropic.cacheControl`), or undefined. */
function cacheControlOf(options: unknown): unknown {
  const a = isObj(options) && isObj(options.anthropic) ? options.anthropic : undefined;
  return a ? (a.cacheControl ?? a.cache_control) : undefined;
}

/** A block with its marker (the part's own, else the message's on its last part). */
function marked(block: Obj, part: Obj, message: Obj, last: boolean): Obj {
  const cc = cacheControlOf(part.providerOptions) ?? (last ? cacheControlOf(message.providerOptions) : undefined);
  return cc === undefined ? block : { ...block, cache_control: cc };
}

const mediaSource = (data: unknown, mediaType: string): Obj =>
  typeof data === 'string' && /^https?:\/\//i.test(data) ? { type: 'url', url: data } : { type: 'base64', media_type: mediaType, data };

function userBlock(part: Obj): Obj {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'file' && typeof part.mediaType === 'string') {
    if (part.mediaType.startsWith('image/')) return { type: 'image', source: mediaSource(part.data, part.mediaType === 'image/*' ? 'image/jpeg' : part.mediaType) };
    if (part.mediaType === 'application/pdf') return { type: 'document', source: mediaSource(part.data, 'application/pdf') };
  }
  return part;
}

function toolResultBlock(part: Obj): Obj {
  const output = isObj(part.output) ? part.output : {};
  const content =
    output.type === 'text' || output.type === 'error-text'
      ? output.value
      : output.type === 'execution-denied'
        ? (output.reason ?? 'Tool execution denied.')
        : output.type === 'content' && Array.isArray(output.value)
          ? output.value.map((c: unknown) => (isObj(c) && c.type === 'text' ? { type: 'text', text: c.text } : c))
          : JSON.stringify(output.value);
  return { type: 'tool_result', tool_use_id: part.toolCallId, content, ...((output.type === 'error-text' || output.type === 'error-json') && { is_error: true }) };
}

function assistantBlock(part: Obj, trim: boolean): Obj | undefined {
  if (part.type === 'text') return { type: 'text', text: trim && typeof part.text === 'string' ? part.text.trim() : part.text };
  if (part.type === 'tool-call') return { type: 'tool_use', id: part.toolCallId, name: part.toolName, input: part.input };
  if (part.type === 'reasoning') {
    const meta = isObj(part.providerOptions) && isObj(part.providerOptions.anthropic) ? part.providerOptions.anthropic : {};
    if (typeof meta.signature === 'string') return { type: 'thinking', thinking: part.text, signature: meta.signature };
    if (typeof meta.redactedData === 'string') return { type: 'redacted_thinking', data: meta.redactedData };
    // The provider sends no reasoning it has no signature for.
    return undefined;
  }
  if (part.type === 'tool-result') return toolResultBlock(part);
  return part;
}

const group = (role: unknown): string => (role === 'tool' ? 'user' : String(role));

/** `toolChoice` → the body's `tool_choice` (and whether the tools are sent at all: Anthropic has no "none", so the package drops them). */
function choice(toolChoice: unknown): { tools: boolean; tool_choice?: Obj } {
  const c = isObj(toolChoice) ? toolChoice : undefined;
  if (c?.type === 'none') return { tools: false };
  if (c?.type === 'auto') return { tools: true, tool_choice: { type: 'auto' } };
  if (c?.type === 'required') return { tools: true, tool_choice: { type: 'any' } };
  if (c?.type === 'tool') return { tools: true, tool_choice: { type: 'tool', name: c.toolName } };
  return { tools: true };
}

/** The body of a call as its span records it (AiSdkCall, parsed). */
export function anthropicBodyFromAiSdk({ model, prompt, tools, toolChoice, maxTokens }: AiSdkCall): JsonObject {
  const messages: Obj[] = [];
  const system: Obj[] = [];
  const msgs = prompt.filter(isObj);
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i]!;
    if (m.role === 'system') {
      const cc = cacheControlOf(m.providerOptions);
      system.push({ type: 'text', text: m.content, ...(cc !== undefined && { cache_control: cc }) });
      continue;
    }
    const role = group(m.role);
    const parts = Array.isArray(m.content) ? m.content.filter(isObj) : typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : [];
    const lastOfPrompt = !msgs.slice(i + 1).some((x) => x.role !== 'system');
    const blocks = parts.flatMap((p, k) => {
      const last = k === parts.length - 1;
      const b = role === 'assistant' ? assistantBlock(p, lastOfPrompt && last) : p.type === 'tool-result' ? toolResultBlock(p) : userBlock(p);
      // Thinking blocks carry no marker of their own (the provider refuses one there).
      return b === undefined ? [] : [b.type === 'thinking' || b.type === 'redacted_thinking' ? b : marked(b, p, m, last)];
    });
    const prev = messages.at(-1);
    if (prev && prev.role === role) (prev.content as Obj[]).push(...blocks);
    else messages.push({ role, content: blocks });
  }
  const fnTools = tools.filter(isObj).map((t) => {
    const cc = cacheControlOf(t.providerOptions);
    return t.type === 'function' || t.type === undefined
      ? {
          name: t.name,
          ...(t.description !== undefined && { description: t.description }),
          input_schema: t.inputSchema ?? t.parameters,
          ...(cc !== undefined && { cache_control: cc }),
        }
      : t;
  });
  const chosen = choice(toolChoice);
  const sent = chosen.tools && fnTools.length > 0;
  return {
    model,
    ...(maxTokens !== undefined && { max_tokens: maxTokens }),
    ...(system.length && { system }),
    messages,
    ...(sent && { tools: fnTools }),
    ...(sent && chosen.tool_choice && { tool_choice: chosen.tool_choice }),
  } as JsonObject;
}
