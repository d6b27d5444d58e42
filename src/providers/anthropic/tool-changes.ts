/**
 * Anthropic's mid-conversation tool changes, as the prompt's text (docs/cache-economics.md, "What the provider would cache": "model
 * it as content appended at its position"). What Anthropic's documentation says, and where:
 *
 * - Tool use with prompt caching
 *   (platform.claude.com/docs/en/agents-and-tools/tool-use/tool-use-with-prompt-caching, read
 *   2026-12-03): "Deferred tools are not
 *   included in the system-prompt prefix. When the model discovers a deferred tool through tool
 *   search, the definition is appended inline as a tool_reference block in the conversation
 *   history. The prefix is untouched, so prompt caching is preserved."
 * - Mid-conversation system messages and tool changes
 *   (platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages, read
 *   2026-12-03 in the docs' localized copies — the English page's body was not in the index): the page changes
 *   "system instructions or tool availability mid-conversation without invalidating the cached
 *   prefix before them"; both ride on a `{"role": "system"}` message appended to `messages`.
 * - The block shapes (`tool_addition` / `tool_removal` naming a tool by `{"type":
 *   "tool_reference", "name"}`, a tool to add declared in `tools` with `"defer_loading": true`,
 *   the beta header `mid-conversation-tool-changes-2026-07-01`) were read only in verbatim copies
 *   of Anthropic's pages stored in public repositories (the claude-api skill's reference and the
 *   preserved-thinking page, 2026-12-03): observed, not read on Anthropic's site.
 *
 * So: a deferred tool is left out of the `tools` message (it is not in the prefix; adding or
 * changing one does not change the prefix), and a `tool_addition` naming a deferred tool becomes,
 * at its position, the tool's definition — the tokens the model reads there. A `tool_removal` and
 * any other block keep the adapter's generic one-line form. Which models accept the system message
 * that carries them is the adapter's mid-conversation system rule (catalog `features`,
 * MID_SYSTEM_MODELS): the page's newest verbatim copy (read 2026-12-03) says tool changes "are in
 * beta on the same models" as mid-conversation system messages, so one feature covers both — a
 * model that rejects the system message rejects the tool change it carries. (One third-party
 * release note says Claude Sonnet 5 takes system messages but not tool changes; Anthropic's page
 * says Sonnet 5 takes neither, and the catalog follows the page.) Not
 * modelled: the beta header (a trace is a body, not its headers), tool search's own `tool_reference`
 * blocks in tool results, and the first addition when every tool is deferred (the copies say it
 * costs one full cache miss).
 */
import { isObject, type Obj } from '../shared/normalise.ts';

/** A `tools` entry declared with `defer_loading: true`. */
export const isDeferred = (t: unknown): boolean => isObject(t) && t.defer_loading === true;

/** The deferred tools by name, in provider-neutral form (`neutral` undefined: the entry without its markers and `defer_loading`). */
export function deferredTools(tools: readonly unknown[], neutral: (t: Obj) => Obj | undefined): Map<string, Obj> {
  const out = new Map<string, Obj>();
  for (const t of tools) {
    if (!isDeferred(t) || !isObject(t) || typeof t.name !== 'string') continue;
    const { defer_loading: _d, cache_control: _c, ...rest } = t;
    out.set(t.name, neutral(t) ?? rest);
  }
  return out;
}

/**
 * The blocks of a message with each `tool_addition` that names a deferred tool (or defines one
 * inline) replaced by a text block `[tool_addition] <the definition as JSON>` — the definition the
 * model reads at this position; its cache marker kept.
 */
export function surfaceAdditions(parts: readonly Obj[], deferred: ReadonlyMap<string, Obj>, neutral: (t: Obj) => Obj | undefined): Obj[] {
  return parts.map((p) => {
    if (p.type !== 'tool_addition' || !isObject(p.tool)) return p;
    const ref = p.tool;
    const def =
      ref.type === 'tool_reference' && typeof ref.name === 'string'
        ? deferred.get(ref.name)
        : ref.type === 'tool_definition' && isObject(ref.definition)
          ? (neutral(ref.definition) ?? ref.definition)
          : undefined;
    if (!def) return p;
    return { type: 'text', text: `[tool_addition] ${JSON.stringify(def)}`, ...(p.cache_control !== undefined && { cache_control: p.cache_control }) };
  });
}
