/**
 * Anthropic Messages (POST /v1/messages): the adapter. A body has `messages` of `user` and
 * `assistant` turns (and, mid-conversation, `system` turns: platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages,
 * read 2026-12-03 in its official translations — the models it lists are catalog.ts MID_SYSTEM_MODELS;
 * a model without the feature in its catalog entry, Claude Sonnet 5 among them, rejects the request), a top-level `system`, `tools`, `cache_control` markers on blocks and
 * tools, and the automatic top-level `cache_control`. A tool with `defer_loading: true` is not
 * part of the prefix, and a `tool_addition` block in a mid-conversation system message surfaces
 * it at its position (a mid-conversation tool change: anthropic/tool-changes.ts). Usage (same page family, prompt-caching):
 * `input_tokens` EXCLUDES cache reads and writes → inputTokens = input_tokens +
 * cache_read_input_tokens + cache_creation_input_tokens (or its `cache_creation` 5m/1h breakdown;
 * both given, they must agree; a count the usage does not carry is not reported, not 0);
 * `output_tokens` → outputTokens; with server-side compaction, the
 * `compaction` steps of `usage.iterations` are added (readUsage's note).
 */
import * as z from 'zod';
import { ANTHROPIC_CATALOG, ANTHROPIC_FALLBACK, ANTHROPIC_SIDE_BY_SIDE, MID_SYSTEM_MODELS, MID_SYSTEM_RULE } from './anthropic/catalog.ts';
import { afterSystem, cacheBreakpoints, lastBlock } from './anthropic/breakpoints.ts';
import { anthropicCache } from './anthropic/cache.ts';
import { anthropicParams } from './anthropic/params.ts';
import { deferredTools, isDeferred, surfaceAdditions } from './anthropic/tool-changes.ts';
import { ANTHROPIC_WIRE } from './anthropic/wire.ts';
import { fnTool, isObject, markerOf, marked, message, partsText, plain, toolsMessage, type Obj } from './shared/normalise.ts';
import { countAt, objectAt, requireKey } from './shared/usage.ts';
import type { AskCaching, MeasuredUsage, NormalMessage, ProviderAdapter, UsageIssue } from './types.ts';
import { anthropicRecorded } from './anthropic/recorded.ts';
import { anthropicBodyFromAiSdk } from './anthropic/ai-sdk-prompt.ts';

const str = z.string();
const typed = z.looseObject({ type: str.min(1) });
const turn = z.looseObject({ role: z.enum(['user', 'assistant', 'system']), content: z.union([str, z.array(typed)]) });
type Turn = z.infer<typeof turn>;

/** Content part types only Chat has. */
const CHAT_ONLY = new Set(['image_url', 'input_audio', 'file', 'refusal']);

/** The feature a `system` turn after the first message uses. */
export const MID_CONVERSATION_SYSTEM = 'mid-conversation-system';
const MID_SYSTEM_DOC = 'https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages';

const SHAPE = 'an Anthropic Messages usage ({"input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"})';

/** One usage object's counts (the top level, or one of its `iterations`): undefined after an issue. */
interface Counts {
  input: number;
  read: number;
  writes: number;
  /** The usage reported its cache reads / its cache writes (a usage logged through a type that predates caching drops both). */
  readReported: boolean;
  writesReported: boolean;
  writes1h: number;
  output: number | undefined;
}

function readCounts(u: Obj, path: (string | number)[], issues: UsageIssue[]): Counts | undefined {
  const before = issues.length;
  const input = countAt(u, 'input_tokens', path, issues);
  const readCount = countAt(u, 'cache_read_input_tokens', path, issues);
  const output = countAt(u, 'output_tokens', path, issues);
  let created = countAt(u, 'cache_creation_input_tokens', path, issues);
  let writes1h = 0;
  const breakdown = objectAt(u, 'cache_creation', path, issues);
  if (breakdown) {
    const m5 = countAt(breakdown, 'ephemeral_5m_input_tokens', [...path, 'cache_creation'], issues) ?? 0;
    const h1 = countAt(breakdown, 'ephemeral_1h_input_tokens', [...path, 'cache_creation'], issues) ?? 0;
    writes1h = h1;
    if (issues.length === before) {
      if (created === undefined || created === null) created = m5 + h1;
      else if (created !== m5 + h1)
        issues.push({
          path: [...path, 'cache_creation'],
          message: `\`cache_creation\` adds up to ${m5 + h1} tokens (5 min: ${m5}, 1 h: ${h1}), but \`cache_creation_input_tokens\` is ${created}`,
          fix: 'copy the usage exactly as the API returned it: cache_creation_input_tokens is the sum of ephemeral_5m_input_tokens and ephemeral_1h_input_tokens',
        });
    }
  }
  if (issues.length > before || input === undefined || input === null) return undefined;
  const writesReported = typeof created === 'number';
  return {
    input,
    read: readCount ?? 0,
    writes: created ?? 0,
    readReported: typeof readCount === 'number',
    writesReported,
    writes1h,
    output: typeof output === 'number' ? output : undefined,
  };
}

/**
 * Server-side compaction (`context_management.edits` with `compact_20260112`) runs a summarising
 * step inside the request, and the response's `usage.iterations` lists each step's usage — a
 * `compaction` iteration (the whole prompt read, and written to the cache when the request asks for
 * caching) and the `message` iteration on the compacted context. The top-level counts are the
 * message's only; the compaction step is billed too (Anthropic's compaction-at-a-threshold page as
 * quoted by a third party, velog.io/@jungseonw00/claude-compaction-usage-iterations, its docs read
 * 2026-10-30; the shape observed in a recorded call of pydantic-ai's test suite,
 * tests/models/cassettes/test_anthropic/test_anthropic_compaction_usage_with_cache.yaml: top level 229 input, 0
 * written; its compaction iteration 100 input and 55,096 written). So the bill is the top level plus
 * every `compaction` iteration.
 */
function compactionIterations(u: Obj, issues: UsageIssue[]): Counts[] {
  const its = u.iterations;
  if (!Array.isArray(its)) return [];
  const out: Counts[] = [];
  its.forEach((it, i) => {
    if (!isObject(it) || it.type !== 'compaction') return;
    const c = readCounts(it, ['iterations', i], issues);
    if (c) out.push(c);
  });
  return out;
}

function readUsage(u: Obj, issues: UsageIssue[]): MeasuredUsage | undefined {
  if (!requireKey(u, 'input_tokens', SHAPE, issues)) return undefined;
  const before = issues.length;
  const top = readCounts(u, [], issues);
  const steps = compactionIterations(u, issues);
  if (!top || issues.length > before) return undefined;
  const all = [top, ...steps];
  const sum = (f: (c: Counts) => number): number => all.reduce((n, c) => n + f(c), 0);
  const read = sum((c) => c.read);
  const writes = sum((c) => c.writes);
  const writes1h = sum((c) => c.writes1h);
  const output = top.output === undefined ? undefined : sum((c) => c.output ?? 0);
  // A figure no usage reported is left out — not judged — rather than read as 0: a read of 0 where the model reads
  // thousands would be called an eviction, when the capture only lost the field.
  return {
    inputTokens: sum((c) => c.input) + read + writes,
    ...(all.some((c) => c.readReported) && { cachedTokens: read }),
    ...(all.some((c) => c.writesReported) && { cacheWriteTokens: writes }),
    ...(writes1h > 0 && { cacheWrite1hTokens: writes1h }),
    ...(output !== undefined && { outputTokens: output }),
  };
}

/** A tool entry in provider-neutral form (a custom tool as a function tool; any other as given). */
const neutralTool = (t: Obj): Obj | undefined => (t.type === undefined || t.type === 'custom' ? fnTool(t.name, t.description, t.input_schema) : undefined);

function normalise(body: Obj): NormalMessage[] {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const out = toolsMessage(
    tools.filter((t) => !isDeferred(t)),
    neutralTool,
  );
  const deferred = deferredTools(tools, neutralTool);
  if (typeof body.system === 'string') out.push({ role: 'system', text: body.system });
  else if (Array.isArray(body.system)) for (const b of body.system as { text: string }[]) out.push(message('system', marked(plain(b.text), b)));
  for (const m of body.messages as Turn[]) {
    const text = typeof m.content === 'string' ? plain(m.content) : partsText(surfaceAdditions(m.content, deferred, neutralTool), ['text'], 'text', { tool_result: 'content' });
    out.push(message(m.role, text));
  }
  // Automatic caching: one top-level `cache_control`, applied by the API to the last cacheable block.
  const auto = markerOf(body);
  const last = out.at(-1);
  if (auto && last) last.marks = [...(last.marks ?? []), { end: last.text.length, ...auto }];
  return out;
}

const PROMPT_CACHING = 'https://platform.claude.com/docs/en/build-with-claude/prompt-caching';
const one = (i: number | undefined): number[] => (i === undefined ? [] : [i]);

/**
 * Anthropic caches nothing a request does not ask for (a block's `cache_control`, or the top-level
 * one). The two ways to ask that one line adds, from the prompt-caching page (read 2026-12-06):
 * "cache_control directly on individual content blocks", and automatic caching — "cache_control
 * field at the top level of your request. The system automatically applies the cache breakpoint to
 * the last cacheable block and moves it forward as conversations grow."
 */
export const ANTHROPIC_ASK: readonly AskCaching[] = [
  {
    id: 'after-system',
    label: 'one `cache_control` breakpoint after the system prompt',
    breakpoints: (m) => one(afterSystem(m)),
    source: { value: 'cache_control on a content block: everything up to and including it is cached', source: PROMPT_CACHING, read: '2026-12-06' },
  },
  {
    id: 'automatic',
    label: 'automatic caching (a top-level `cache_control`: one breakpoint on the last block, moving forward as the conversation grows)',
    breakpoints: (m) => one(lastBlock(m)),
    source: {
      value: 'cache_control at the top level: the system applies the breakpoint to the last cacheable block and moves it forward as conversations grow',
      source: PROMPT_CACHING,
      read: '2026-12-06',
    },
  },
];

export const anthropic: ProviderAdapter<'anthropic'> = {
  ...ANTHROPIC_WIRE,
  provider: 'anthropic',
  providerTitle: 'Anthropic',
  // Claude Code's transcripts hold the Messages API's messages and usage (src/import/captures/claude-code.ts).
  sentBy: ['claude-code'],
  aiSdkProviders: ['anthropic.messages'],
  fromAiSdkPrompt: anthropicBodyFromAiSdk,
  catalogNote: 'Token counts approximate (≈). Caching: cache_control breakpoints; writes at 1.25× (5 minutes) or 2× (1 hour); "write" is the 5-minute write.',
  docHosts: ['platform.claude.com'],
  exampleModel: 'anthropic/claude-sonnet-5',
  featureDocs: { 'mid-conversation-system': { rule: MID_SYSTEM_RULE, models: MID_SYSTEM_MODELS } },
  sideBySide: ANTHROPIC_SIDE_BY_SIDE,
  messageList: 'messages',
  detect(body) {
    if ('input' in body) return 'it has `input` (an OpenAI Responses field)';
    if (!('messages' in body)) return 'it has no `messages`';
    if ('anthropic_version' in body) return 'it has `anthropic_version` (a Bedrock InvokeModel body: format bedrock-converse)';
    if ('toolConfig' in body || 'modelId' in body) return 'it has Bedrock Converse fields (`toolConfig`, `modelId`)';
    const messages = Array.isArray(body.messages) ? body.messages : [];
    for (const [i, m] of messages.entries()) {
      if (!isObject(m)) continue;
      const midSystem = m.role === 'system' && i > 0;
      if (m.role !== 'user' && m.role !== 'assistant' && !midSystem) return `message ${i} has the role ${JSON.stringify(m.role)}`;
      if (m.content === null || 'tool_calls' in m || 'tool_call_id' in m) return `message ${i} has OpenAI Chat Completions fields (tool_calls, tool_call_id, null content)`;
      for (const p of Array.isArray(m.content) ? m.content : []) {
        if (isObject(p) && typeof p.type === 'string' && CHAT_ONLY.has(p.type)) return `message ${i} has a \`${p.type}\` part`;
        if (isObject(p) && !('type' in p)) return `message ${i} has a content block without \`type\` (Bedrock Converse blocks are keyed by kind)`;
      }
    }
    return true;
  },
  tieBreak: (body) => 'max_tokens' in body,
  schema: z.looseObject({
    model: str.min(1),
    system: z.union([str, z.array(z.looseObject({ type: z.literal('text'), text: str }))]).optional(),
    messages: z.array(turn).min(1),
    tools: z.array(z.unknown()).optional(),
  }),
  rules(body) {
    const first = (body.messages as Turn[])[0];
    return first?.role === 'system'
      ? [
          {
            path: ['messages', 0, 'role'],
            message: 'the first message has the role `system`',
            fix: 'put the system prompt in the top-level `system` field; a `system` message belongs after earlier turns (a mid-conversation system message)',
          },
        ]
      : [];
  },
  normalise,
  params: anthropicParams,
  usage: {
    shape: SHAPE,
    looksLike: (u) => 'cache_read_input_tokens' in u || 'cache_creation_input_tokens' in u || 'cache_creation' in u,
    read: readUsage,
  },
  recorded: anthropicRecorded,
  defaultBreakpoints: cacheBreakpoints,
  askCaching: ANTHROPIC_ASK,
  catalog: ANTHROPIC_CATALOG,
  fallback: ANTHROPIC_FALLBACK,
  cacheStrategies: [anthropicCache],
  messagePath(body, index) {
    const offset = normalise(body).length - (body.messages as Turn[]).length;
    return index >= offset ? ['messages', index - offset] : [];
  },
  features(messages) {
    const start = messages.findIndex((m) => m.role !== 'system' && m.role !== 'tools');
    if (start < 0) return [];
    return messages.flatMap((m, i) =>
      i > start && m.role === 'system'
        ? [
            {
              message: i,
              feature: MID_CONVERSATION_SYSTEM,
              rejection: {
                message: `a mid-conversation system message, which this model does not accept (${MID_SYSTEM_DOC}: available on ${MID_SYSTEM_MODELS.join(', ')}; not on Claude Sonnet 5)`,
                fix: `send the request to a model that accepts mid-conversation system messages (${MID_SYSTEM_MODELS.join(', ')}), or put the instruction in a user message or the top-level \`system\` (which invalidates the cached prefix)`,
                rule: MID_SYSTEM_RULE,
              },
            },
          ]
        : [],
    );
  },
};
