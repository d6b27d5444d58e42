/**
 * OpenAI Responses (POST /v1/responses): the adapter. A body has `instructions` and `input` (a
 * string, or items: messages with a role, and typed items — function calls, their outputs,
 * reasoning), and GPT-5.6 `prompt_cache_breakpoint` markers on `input_text` parts. Usage: as Chat
 * Completions with `input_tokens` and `input_tokens_details`.
 *
 * A reasoning item's `content` may be null (as Codex sends and records it: no readable reasoning),
 * and its `encrypted_content`, as an import stores it, is an opaque record (shared/opaque.ts): the
 * item is printed with its summary and what the record says, and counted as the tokens the provider
 * billed for it — never as the length of the base64.
 */
import * as z from 'zod';
import { OPENAI_CATALOG, OPENAI_CATALOG_NOTE, OPENAI_DOC_HOSTS, OPENAI_EXAMPLE_MODEL, OPENAI_FALLBACK, OPENAI_SIDE_BY_SIDE } from './openai/catalog.ts';
import { OPENAI_CACHE_STRATEGIES } from './openai/cache.ts';
import { openaiParams } from './openai/params.ts';
import { OPENAI_RESPONSES_WIRE } from './openai/responses-wire.ts';
import { responsesUsage } from './openai/usage.ts';
import { fnTool, message, partsText, plain, resultText, tagged, toolsMessage, withResult, without, type Obj } from './shared/normalise.ts';
import { isOpaque } from './shared/opaque.ts';
import type { NormalMessage, ProviderAdapter } from './types.ts';
import { responsesRecorded } from './openai/recorded.ts';

const str = z.string();
const typed = z.looseObject({ type: str.min(1) });
const item = z.looseObject({ type: str.min(1).optional(), role: str.min(1).optional(), content: z.union([str, z.array(typed), z.null()]).optional() });
type Item = z.infer<typeof item>;

function normalise(body: Obj): NormalMessage[] {
  const out = toolsMessage(body.tools, (t) => (t.type === 'function' ? fnTool(t.name, t.description, t.parameters) : undefined));
  if (typeof body.instructions === 'string') out.push({ role: 'system', text: body.instructions });
  if (typeof body.input === 'string') {
    out.push({ role: 'user', text: body.input });
    return out;
  }
  for (const it of body.input as Item[]) {
    let m = normalised.get(it);
    if (!m) normalised.set(it, (m = itemMessage(it)));
    out.push(m);
  }
  return out;
}

/**
 * Each input item's message, kept by the item: a conversation's requests re-send their earlier items
 * (the same objects once a stored conversation is rebuilt from what each request adds), so each is
 * read once, and its text is the same string request after request.
 */
const normalised = new WeakMap<object, NormalMessage>();

function itemMessage(it: Item): NormalMessage {
  if (it.role !== undefined && (it.type === undefined || it.type === 'message')) {
    const text = typeof it.content === 'string' ? plain(it.content) : partsText(it.content ?? [], ['input_text', 'output_text'], 'text', {});
    return message(it.role, text);
  }
  if (isOpaque((it as Obj).encrypted_content)) {
    // An opaque item (encrypted reasoning, a compaction): printed as what the import recorded of it, counted as what was billed for it.
    const o = (it as Obj).encrypted_content as { tokens?: number };
    return { role: it.role ?? 'assistant', text: tagged(it.type!, without(it, 'type', 'role', 'content')), tokens: o.tokens ?? 0 };
  }
  if (it.type === 'function_call_output') return message('tool', withResult(tagged(it.type, without(it, 'type', 'output')), resultText((it as Obj).output, 'text')));
  return { role: it.role ?? 'assistant', text: tagged(it.type!, without(it, 'type', 'role')) };
}

export const openaiResponses: ProviderAdapter<'openai-responses'> = {
  ...OPENAI_RESPONSES_WIRE,
  provider: 'openai',
  providerTitle: 'OpenAI',
  // Codex CLI sends Responses bodies only: its rollouts hold Responses items (src/import/captures/codex.ts).
  sentBy: ['codex'],
  aiSdkProviders: ['openai.responses'],
  catalogNote: OPENAI_CATALOG_NOTE,
  docHosts: OPENAI_DOC_HOSTS,
  exampleModel: OPENAI_EXAMPLE_MODEL,
  sideBySide: OPENAI_SIDE_BY_SIDE,
  messageList: 'input',
  detect(body) {
    if ('messages' in body) return 'it has `messages`, not `input`';
    if (!('input' in body)) return 'it has no `input`';
    return true;
  },
  schema: z.looseObject({
    model: str.min(1),
    instructions: z.union([str, z.null()]).optional(),
    input: z.union([str, z.array(item).min(1)]),
    tools: z.array(z.unknown()).optional(),
  }),
  /** An input item is a message (has a role) or has a type. */
  rules(body) {
    if (!Array.isArray(body.input)) return [];
    return (body.input as Item[]).flatMap((it, i) =>
      it.role === undefined && it.type === undefined
        ? [
            {
              path: ['input', i],
              message: `input item ${i} has neither \`role\` nor \`type\``,
              fix: 'give a message its `role` (user, assistant, system, developer), or another item its `type`',
            },
          ]
        : [],
    );
  },
  normalise,
  params: openaiParams,
  usage: responsesUsage,
  recorded: responsesRecorded,
  defaultBreakpoints: () => [],
  catalog: OPENAI_CATALOG,
  fallback: OPENAI_FALLBACK,
  cacheStrategies: OPENAI_CACHE_STRATEGIES,
};
