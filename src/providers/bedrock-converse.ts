/**
 * Amazon Bedrock: the adapter of the two bodies Bedrock takes for a chat model.
 * - **Converse** (POST /model/{modelId}/converse; docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html,
 *   read 2026-12-06): `messages` of `user` / `assistant` turns whose content blocks are keyed by kind
 *   (`{text}`, `{toolUse}`, `{toolResult}`, `{image}`, `{cachePoint}` …, no `type`), `system` blocks,
 *   `toolConfig.tools` of `{toolSpec}` and `{cachePoint}` entries. A `cachePoint` block marks the
 *   end of the blocks before it (bedrock/catalog.ts BEDROCK_RULES). An Anthropic-style `cache_control`
 *   key in a Converse body is not a Converse field: it marks nothing (and `lint` says so).
 * - **InvokeModel with Claude** (POST /model/{modelId}/invoke): Anthropic's Messages body with
 *   `anthropic_version` instead of `model`, read as the Anthropic adapter reads it (`cache_control`
 *   markers, mid-conversation system messages), its usage Anthropic's.
 * The model is not in either body (it is in the URL): a captured body carries it as `modelId` (the
 * AWS SDKs' request shape) or `model` (npm run import puts a wrapped line's `"model"` there).
 * Converse usage (TokenUsage): `inputTokens` EXCLUDES `cacheReadInputTokens` and
 * `cacheWriteInputTokens` → all input = the three added.
 */
import * as z from 'zod';
import { anthropic } from './anthropic.ts';
import { afterSystem, cacheBreakpoints, lastBlock } from './anthropic/breakpoints.ts';
import { BEDROCK_CATALOG, BEDROCK_FALLBACK, BEDROCK_RULES } from './bedrock/catalog.ts';
import { bedrockCache } from './bedrock/cache.ts';
import { bedrockInvocationLog } from './bedrock/invocation-log.ts';
import { bedrockRecorded } from './bedrock/recorded.ts';
import { BEDROCK_WIRE } from './bedrock/wire.ts';
import { fnTool, isObject, join, plain, tagged, type Obj, type Piece } from './shared/normalise.ts';
import { countAt, requireKey } from './shared/usage.ts';
import { toolEntryEnds, toolsContent, TOOLS_ROLE } from '../folds/tools.ts';
import type { AskCaching, Mark, MeasuredUsage, NormalMessage, ProviderAdapter, UsageIssue } from './types.ts';

const str = z.string();
const block = z.record(str, z.unknown());
const turn = z.looseObject({ role: z.enum(['user', 'assistant']), content: z.array(block).min(1) });
type Turn = z.infer<typeof turn>;

/** Converse content block kinds (ContentBlock's members), for detection. */
const CONVERSE_BLOCKS = new Set(['text', 'image', 'document', 'video', 'toolUse', 'toolResult', 'guardContent', 'cachePoint', 'reasoningContent', 'citationsContent']);

/** An InvokeModel body for Claude: Anthropic's Messages body with `anthropic_version`. */
export const isInvokeBody = (body: Obj): boolean => typeof body.anthropic_version === 'string';

/** The model a Bedrock body went to (its `modelId`, or the `model` an import put there). */
export const bedrockModel = (body: Obj): string | undefined => (typeof body.modelId === 'string' ? body.modelId : typeof body.model === 'string' ? body.model : undefined);

/** A cachePoint block's marker, or undefined. */
function cachePointOf(b: unknown): Omit<Mark, 'end'> | undefined {
  if (!isObject(b) || !isObject(b.cachePoint)) return undefined;
  const ttl = b.cachePoint.ttl;
  return ttl === '5m' || ttl === '1h' ? { ttl } : {};
}

/** One Converse content block as text (a cachePoint is handled by the caller). */
function blockText(b: Obj): Piece {
  if (typeof b.text === 'string') return plain(b.text);
  if (isObject(b.toolResult)) {
    const { content, ...rest } = b.toolResult;
    const texts = Array.isArray(content) ? content.map((c) => (isObject(c) && typeof c.text === 'string' ? c.text : JSON.stringify(c))) : [];
    return plain([tagged('toolResult', rest), ...texts].join('\n'));
  }
  const [kind] = Object.keys(b);
  return kind === undefined ? plain('[]') : plain(tagged(kind, isObject(b[kind]) ? (b[kind] as Obj) : { value: b[kind] }));
}

/** Blocks → one text, each cachePoint a mark where the text so far ends. Leading cachePoints return `before` marks. */
function blocksText(blocks: readonly unknown[]): { piece: Piece; before: Omit<Mark, 'end'>[] } {
  const pieces: Piece[] = [];
  const before: Omit<Mark, 'end'>[] = [];
  for (const b of blocks) {
    const cp = cachePointOf(b);
    if (cp) {
      const last = pieces.at(-1);
      if (last) last.marks.push({ end: last.text.length, ...cp });
      else before.push(cp);
      continue;
    }
    if (isObject(b)) pieces.push({ ...blockText(b), marks: [] });
  }
  return { piece: join(pieces, '\n'), before };
}

function normaliseConverse(body: Obj): NormalMessage[] {
  const out: NormalMessage[] = [];
  const markLast = (m: Omit<Mark, 'end'>): void => {
    const last = out.at(-1);
    if (last) last.marks = [...(last.marks ?? []), { end: last.text.length, ...m }];
  };
  const tools = isObject(body.toolConfig) && Array.isArray(body.toolConfig.tools) ? body.toolConfig.tools : [];
  const specs = tools
    .filter((t) => isObject(t) && isObject(t.toolSpec))
    .map((t) => {
      const s = (t as { toolSpec: Obj }).toolSpec;
      return fnTool(s.name, s.description, isObject(s.inputSchema) ? s.inputSchema.json : undefined);
    });
  if (specs.length) {
    const ends = toolEntryEnds(specs);
    const marks: Mark[] = [];
    let seen = 0;
    for (const t of tools) {
      const cp = cachePointOf(t);
      if (cp && seen > 0) marks.push({ end: ends[seen - 1]!, ...cp });
      else if (isObject(t) && isObject(t.toolSpec)) seen++;
    }
    out.push({ role: TOOLS_ROLE, text: toolsContent(specs), ...(marks.length && { marks }) });
  }
  const system = Array.isArray(body.system) ? body.system : [];
  for (const b of system) {
    const cp = cachePointOf(b);
    if (cp) markLast(cp);
    else if (isObject(b)) out.push({ role: 'system', text: blockText(b).text });
  }
  for (const m of body.messages as Turn[]) {
    const { piece, before } = blocksText(m.content);
    for (const cp of before) markLast(cp);
    out.push({ role: m.role, text: piece.text, ...(piece.marks.length && { marks: piece.marks }) });
  }
  return out;
}

const normalise = (body: Obj): NormalMessage[] => (isInvokeBody(body) ? anthropic.normalise(body) : normaliseConverse(body));

const SHAPE = 'a Bedrock Converse usage ({"inputTokens", "outputTokens", "cacheReadInputTokens", "cacheWriteInputTokens"}) or, for InvokeModel, Anthropic’s usage';

function readConverseUsage(u: Obj, issues: UsageIssue[]): MeasuredUsage | undefined {
  if (!requireKey(u, 'inputTokens', SHAPE, issues)) return undefined;
  const before = issues.length;
  const input = countAt(u, 'inputTokens', [], issues);
  const read = countAt(u, 'cacheReadInputTokens', [], issues) ?? 0;
  const written = countAt(u, 'cacheWriteInputTokens', [], issues) ?? 0;
  const output = countAt(u, 'outputTokens', [], issues);
  if (issues.length > before || input === undefined || input === null) return undefined;
  // inputTokens excludes what was read from and written to the cache (BEDROCK_RULES.usageExcludesCache).
  return { inputTokens: input + read + written, cachedTokens: read, cacheWriteTokens: written, ...(typeof output === 'number' && { outputTokens: output }) };
}

/** Where Converse normalised message `index` sits in the body. */
function conversePath(body: Obj, index: number): (string | number)[] {
  const offset = normaliseConverse(body).length - (body.messages as Turn[]).length;
  return index >= offset ? ['messages', index - offset] : [];
}

const one = (i: number | undefined): number[] => (i === undefined ? [] : [i]);

/**
 * Bedrock caches nothing a request does not ask for: entries end at checkpoints only (a Converse
 * `cachePoint` block; `cache_control` in an InvokeModel body). The two ways to ask that one
 * checkpoint adds (BEDROCK_RULES.cacheOrder: cachePoint blocks go in toolConfig.tools, system and
 * messages, the prefix counted cumulatively): after the system prompt, or at the end of the newest
 * message, moved forward each request. Automatic caching (Anthropic's top-level `cache_control`) is
 * not offered: the Bedrock pages we read do not document it.
 */
export const BEDROCK_ASK: readonly AskCaching[] = [
  {
    id: 'after-system',
    label: 'one cache checkpoint after the system prompt (a cachePoint block at the end of system)',
    breakpoints: (m) => one(afterSystem(m)),
    source: { value: 'a cachePoint block caches the prefix before it: tools, then system', source: BEDROCK_RULES.cacheOrder.source, read: BEDROCK_RULES.cacheOrder.read },
  },
  {
    id: 'newest-message',
    label: 'one cache checkpoint at the end of the newest message (a cachePoint block, moved forward each request)',
    breakpoints: (m) => one(lastBlock(m)),
    source: {
      value: 'a cachePoint block in messages caches the whole prefix up to it; the next request reads it while its bytes stay the same',
      source: BEDROCK_RULES.cacheOrder.source,
      read: BEDROCK_RULES.cacheOrder.read,
    },
  },
];

export const bedrockConverse: ProviderAdapter<'bedrock-converse'> = {
  ...BEDROCK_WIRE,
  provider: 'bedrock',
  providerTitle: 'Amazon Bedrock',
  catalogNote:
    'Token counts approximate (≈). Caching: cachePoint checkpoints (InvokeModel: cache_control), 5 minutes or 1 hour; a global profile (global.) at the list price, a regional or geographic one (us., eu., apac., jp., or the bare id) 10 % above it; "write" is the 5-minute write.',
  docHosts: ['docs.aws.amazon.com'],
  sideBySide: ['bedrock-claude-sonnet-4.5-global', 'bedrock-claude-sonnet-4.5-regional'],
  messageList: 'messages',
  detect(body) {
    if (isInvokeBody(body)) return 'messages' in body ? true : 'it has `anthropic_version` but no `messages`';
    if (!('messages' in body)) return 'it has no `messages`';
    if ('toolConfig' in body || 'inferenceConfig' in body || 'modelId' in body) return true;
    const messages = Array.isArray(body.messages) ? body.messages : [];
    for (const [i, m] of messages.entries()) {
      if (!isObject(m) || !Array.isArray(m.content)) return `message ${i} has no list of content blocks (Converse content is always a list)`;
      for (const b of m.content) {
        if (!isObject(b) || 'type' in b) return `message ${i} has a content block with \`type\` (Converse blocks are keyed by kind: {"text": …})`;
        if (!Object.keys(b).some((k) => CONVERSE_BLOCKS.has(k))) return `message ${i} has a block of none of Converse’s kinds`;
      }
    }
    if (Array.isArray(body.system) && body.system.some((b) => !isObject(b) || 'type' in b)) return 'its `system` blocks have `type` (Anthropic Messages)';
    return true;
  },
  schema: z.union([
    z.looseObject({ anthropic_version: str.min(1), messages: z.array(z.unknown()).min(1) }).superRefine((b, ctx) => {
      const r = anthropic.schema.safeParse({ model: 'bedrock', ...b });
      if (!r.success) for (const i of r.error.issues) ctx.addIssue({ ...i, code: 'custom', message: i.message, path: i.path });
    }),
    z.looseObject({
      modelId: str.min(1).optional(),
      model: str.min(1).optional(),
      system: z.array(block).optional(),
      messages: z.array(turn).min(1),
      toolConfig: z.looseObject({ tools: z.array(block).optional() }).optional(),
    }),
  ]),
  rules(body) {
    if (bedrockModel(body) !== undefined) return [];
    return [
      {
        path: [],
        message: 'this Bedrock body names no model (Bedrock takes it in the URL, not the body)',
        fix: 'add the model id or inference profile as `modelId` (e.g. "modelId": "global.anthropic.claude-sonnet-4-5-20250929-v1:0"), or import the capture with a wrapped line\'s "model"',
      },
      ...(isInvokeBody(body) ? (anthropic.rules?.({ ...body, model: 'bedrock' }) ?? []) : []),
    ];
  },
  normalise,
  model: bedrockModel,
  params: (body) => (isInvokeBody(body) ? (anthropic.params?.(body) ?? {}) : {}),
  usage: {
    shape: SHAPE,
    looksLike: (u) => 'cacheReadInputTokens' in u || 'cacheWriteInputTokens' in u || 'inputTokens' in u,
    // An InvokeModel response is Anthropic's, with Anthropic's usage.
    alsoReads: (u) => anthropic.usage!.looksLike(u) || 'input_tokens' in u,
    read: (u, issues) => ('input_tokens' in u && !('inputTokens' in u) ? anthropic.usage!.read(u, issues) : readConverseUsage(u, issues)),
  },
  recorded: bedrockRecorded,
  log: bedrockInvocationLog,
  defaultBreakpoints: cacheBreakpoints,
  askCaching: BEDROCK_ASK,
  catalog: BEDROCK_CATALOG,
  fallback: BEDROCK_FALLBACK,
  cacheStrategies: [bedrockCache],
  messagePath: (body, index) => (isInvokeBody(body) ? (anthropic.messagePath?.(body, index) ?? []) : conversePath(body, index)),
  features: (messages) => anthropic.features?.(messages) ?? [],
  lint(body, model) {
    const out: ReturnType<NonNullable<ProviderAdapter['lint']>> = [];
    if (isInvokeBody(body)) return out;
    const where: (string | number)[][] = [];
    const visit = (v: unknown, path: (string | number)[]): void => {
      if (Array.isArray(v)) for (const [i, x] of v.entries()) visit(x, [...path, i]);
      else if (isObject(v))
        for (const [k, x] of Object.entries(v)) {
          if (k === 'cache_control') where.push([...path, k]);
          else visit(x, [...path, k]);
        }
    };
    visit(body, []);
    for (const path of where)
      out.push({
        path,
        rule: 'ignored-marker',
        message: 'an Anthropic-style cache_control in a Converse body: Converse has no such field and caches nothing for it',
        fix: 'put a {"cachePoint": {"type": "default"}} block right after the block to cache (in system, a message’s content or toolConfig.tools) — or send the Anthropic body through InvokeModel, which reads cache_control',
        source: BEDROCK_RULES.converseMarker,
      });
    const tools = isObject(body.toolConfig) && Array.isArray(body.toolConfig.tools) ? body.toolConfig.tools : [];
    if (/(^|\.)amazon\.nova/.test(model ?? bedrockModel(body) ?? ''))
      tools.forEach((t, i) => {
        if (cachePointOf(t))
          out.push({
            path: ['toolConfig', 'tools', i],
            rule: 'unsupported-checkpoint',
            message: 'a cache checkpoint in toolConfig.tools of an Amazon Nova request: Nova caches system and messages only',
            fix: 'move the checkpoint to the end of system (the tools come before it, but Nova does not cache them: keep them stable anyway)',
            source: BEDROCK_RULES.novaToolsCheckpoint,
          });
      });
    const points = normalise(body).reduce((n, m) => n + (m.marks?.length ?? 0), 0);
    const max = BEDROCK_RULES.maxCheckpoints.value;
    if (points > max)
      out.push({
        path: [],
        rule: 'too-many-checkpoints',
        message: `${points} cache checkpoints; Bedrock accepts at most ${max} per request`,
        fix: `keep at most ${max} cachePoint blocks: the end of the tools, of the system prompt, and the newest messages`,
        source: BEDROCK_RULES.maxCheckpoints,
      });
    return out;
  },
};
