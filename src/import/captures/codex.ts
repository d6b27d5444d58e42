/**
 * Codex rollout files (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`) → the OpenAI
 * Responses requests the session sent. A rollout is JSON Lines of `{"timestamp", "type", "payload"}`
 * where `type` is `session_meta`, `response_item` (a Responses API item: a message, a reasoning
 * item, a function call or its output, …), `turn_context` (the turn's `model` and, when overridden,
 * `base_instructions`), `compacted` (a compaction: `replacement_history` replaces the items) or
 * `event_msg` (UI events; `token_count` carries `info.last_token_usage`, the last model call's
 * usage: `input_tokens` — cached tokens included, as the Responses API counts them —
 * `cached_input_tokens`, and in recent versions `cache_write_input_tokens`).
 *
 * Source: openai/codex, `codex-rs/protocol/src/protocol.rs` (`RolloutLine`, `RolloutItem`,
 * `SessionMeta`, `TurnContextItem`, `CompactedItem`, `TokenCountEvent`, `TokenUsage`) and
 * `codex-rs/protocol/src/models.rs` (`ResponseItem`), as stored at commit 001cb8e2 (read
 * 2026-12-03); `cache_write_input_tokens` is read when present, as the issue reports it in newer
 * rollouts, and is left out otherwise.
 *
 * Rebuilding: a request is made when the model starts answering — at the first output item
 * (an assistant message, reasoning, a function / custom tool / shell call, a web search) after an
 * input item; its body is `{model, instructions?, input}`, the input being every item recorded
 * before that line, and its usage the next `token_count`. The rollout does not record the tool
 * definitions, nor Codex's built-in base instructions unless a turn overrides them: the requests
 * hold none of those (the page says so), while the measured usage counts them. Several rollouts
 * joined in one file are told apart by their `session_meta` line's `id` (a new id starts a new
 * conversation); each request names its session (one scenario per session with --out-dir).
 */
import type { InputError } from '../../scenarios/errors.ts';
import type { LeftOutTally } from '../left-out.ts';
import { chunkPos, isObject, type Chunk } from '../read.ts';
import type { Capture, CapturedRequest } from './types.ts';

type Obj = Record<string, unknown>;

const LINE_TYPES = new Set(['session_meta', 'response_item', 'compacted', 'turn_context', 'event_msg']);
const OUTPUT_ITEMS = new Set(['reasoning', 'function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call']);

const isOutput = (item: Obj): boolean => OUTPUT_ITEMS.has(item.type as string) || (item.type === 'message' && item.role === 'assistant');

function timestampMs(v: unknown): number | undefined {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(v)) return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

/** A Codex `TokenUsage` as a Responses usage (usage.ts reads and checks it). */
function responsesUsage(u: Obj): Obj {
  const details: Obj = {};
  if ('cached_input_tokens' in u) details.cached_tokens = u.cached_input_tokens;
  if ('cache_write_input_tokens' in u) details.cache_write_tokens = u.cache_write_input_tokens;
  // `output_tokens` counts the reasoning tokens too (`reasoning_output_tokens` is a part of it).
  return { input_tokens: u.input_tokens, input_tokens_details: details, ...('output_tokens' in u && { output_tokens: u.output_tokens }) };
}

export const codexRollout: Capture = {
  id: 'codex',
  title: 'Codex rollout',
  format: 'openai-responses',
  missing: ['the tool definitions', 'Codex’s built-in base instructions (unless a turn overrides them)'],

  detect(chunks) {
    return chunks.every((c) => LINE_TYPES.has(c.value.type as string) && 'payload' in c.value) && chunks.some((c) => c.value.type === 'response_item');
  },

  requests(chunks: readonly Chunk[], file: string, errors: InputError[], leftOut: LeftOutTally): CapturedRequest[] {
    let items: unknown[] = [];
    /** The line each item came from, and its path there. */
    const from: { chunk: Chunk; at: (string | number)[] }[] = [];
    const out: CapturedRequest[] = [];
    let model: string | undefined;
    let instructions: string | undefined;
    let answering = false;
    let lastTime: number | undefined;
    let awaitingUsage: CapturedRequest | undefined;
    /** The session being read: rollouts of several sessions joined in one file are rebuilt each from its own `session_meta`. */
    let session: string | undefined;
    for (const c of chunks) {
      const v = c.value;
      const p = v.payload;
      const t = timestampMs(v.timestamp);
      if (!isObject(p)) {
        errors.push({ pos: chunkPos(c, ['payload'], file), message: 'a rollout line’s `payload` must be an object', fix: 'import the rollout as Codex wrote it, unedited' });
        continue;
      }
      if (v.type === 'session_meta') {
        const id = typeof p.id === 'string' && p.id !== '' ? p.id : undefined;
        if (id !== undefined && session !== undefined && id !== session) {
          items = [];
          from.length = 0;
          model = undefined;
          instructions = undefined;
          answering = false;
          lastTime = undefined;
          awaitingUsage = undefined;
        }
        session = id ?? session;
      } else if (v.type === 'turn_context') {
        if (typeof p.model === 'string' && p.model !== '') model = p.model;
        if (typeof p.base_instructions === 'string') instructions = p.base_instructions;
      } else if (v.type === 'compacted') {
        items = Array.isArray(p.replacement_history)
          ? [...p.replacement_history]
          : [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: String(p.message ?? '') }] }];
        answering = false;
      } else if (v.type === 'event_msg' && p.type === 'token_count') {
        const last = isObject(p.info) ? p.info.last_token_usage : undefined;
        if (awaitingUsage && isObject(last)) {
          awaitingUsage.usage = { value: responsesUsage(last), at: ['payload', 'info', 'last_token_usage'], chunk: c };
          awaitingUsage = undefined;
        }
      } else if (v.type === 'event_msg') {
        leftOut.add(`\`event_msg\` lines of type \`${String(p.type)}\``, 'Codex’s UI events, not sent to the model', c.line);
      } else if (v.type === 'response_item') {
        if (typeof p.type !== 'string') {
          errors.push({ pos: chunkPos(c, ['payload'], file), message: 'this response item has no `type`', fix: 'import the rollout as Codex wrote it, unedited' });
          continue;
        }
        if (isOutput(p)) {
          if (!answering) {
            answering = true;
            if (!model) {
              errors.push({
                pos: { file, line: c.line, col: 1 },
                message: 'the model answers here, but no `turn_context` line before it names the model',
                fix: 'import the whole rollout from its first line (each turn’s turn_context names the model)',
              });
            } else if (!items.length) {
              errors.push({
                pos: { file, line: c.line, col: 1 },
                message: 'the model answers here, but nothing was sent before it',
                fix: 'import the whole rollout from its first line',
              });
            } else {
              const origins = [...from];
              const req: CapturedRequest = {
                chunk: c,
                at: ['payload'],
                offset: c.line,
                body: { model, ...(instructions !== undefined && { instructions }), input: [...items] },
                ...((lastTime ?? t) !== undefined && { timestampMs: (lastTime ?? t)! }),
                ...(session !== undefined && { conversation: { by: 'session_meta.id', key: session } }),
                assembled: true,
                origin: (path) => {
                  const [first, i, ...rest] = path;
                  const o = first === 'input' && typeof i === 'number' ? origins[i] : undefined;
                  return o && { chunk: o.chunk, at: [...o.at, ...rest] };
                },
              };
              out.push(req);
              awaitingUsage = req;
            }
          }
        } else answering = false;
        items.push(p);
        from.push({ chunk: c, at: ['payload'] });
      }
      if (t !== undefined && !(v.type === 'response_item' && isOutput(p))) lastTime = t;
    }
    return out;
  },
};
