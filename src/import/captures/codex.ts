/**
 * Codex rollout files (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`) → the OpenAI
 * Responses requests the session sent. A rollout is JSON Lines of `{"timestamp", "type", "payload"}`
 * where `type` is `session_meta`, `response_item` (a Responses API item: a message, a reasoning
 * item, a function / custom tool call or its output, …), `turn_context` (the turn's `model` and, when
 * overridden, `base_instructions`), `compacted` (a compaction: `replacement_history`, when recorded,
 * replaces the items), `event_msg` (UI events; `token_count` carries `info.last_token_usage`, the
 * last model call's usage: `input_tokens` — cached tokens included, as the Responses API counts them
 * — `cached_input_tokens`, `output_tokens` with `reasoning_output_tokens` a part of it, and in recent
 * versions `cache_write_input_tokens`), and in newer versions line types of Codex's own state
 * (`world_state`, `inter_agent_communication`, …) that hold no model input.
 *
 * Sources: openai/codex, `codex-rs/protocol/src/protocol.rs` (`RolloutLine`, `RolloutItem`,
 * `SessionMeta`, `TurnContextItem`, `CompactedItem`, `TokenCountEvent`, `TokenUsage`) and
 * `codex-rs/protocol/src/models.rs` (`ResponseItem`: a `reasoning` item's `content` is serialised
 * as `null` when it holds no readable text, its `encrypted_content` is the reasoning the provider
 * alone can read; `custom_tool_call` / `custom_tool_call_output`; `ghost_snapshot`, Codex's own git
 * snapshot; `compaction`, a server-side compaction's encrypted summary), as stored at commits
 * 001cb8e2 and edb4efee (read 2026-12-06).
 *
 * Rebuilding: a request is made when the model starts answering — at the first output item
 * (an assistant message, reasoning, a function / custom tool / shell call, a web search) after an
 * input item; its body is `{model, instructions?, input}`, the input being every item recorded
 * before that line, its model the latest `turn_context`'s (a model switched mid-session changes
 * the requests after it), its usage the next `token_count`, its time the last line written before the
 * answer began — an input item, a `turn_context` — not the events Codex writes while the model
 * answers (reasoning summaries, the response's rate limits and usage: 9.7 s after the turn's input
 * on a published 0.60.1 rollout, which would shift every idle gap by the model's latency).
 * Encrypted reasoning is stored as an opaque record (providers/shared/opaque.ts) carrying the
 * `reasoning_output_tokens` billed for the call that produced it (split evenly when one call
 * produced several), so a later request that
 * sends it back counts those tokens, not its base64. The rollout does not record the tool
 * definitions, nor — before the versions whose `session_meta` carries `base_instructions` (0.135:
 * `{"text": …}`, read in kvsankar/agent-history tests/fixtures/real_sessions/codex/session-01.jsonl)
 * — Codex's built-in base instructions unless a turn overrides them: the requests
 * hold none of those (the page says so: the tool definitions for every rollout, the base
 * instructions for each request that has none), while the measured usage counts them. Several rollouts
 * joined in one file are told apart by their `session_meta` line's `id`. Whatever is read past
 * (UI events, Codex's snapshots and state lines, usage lines with no call to pair) is counted in
 * `leftOut`.
 *
 * The rollout format before `session_meta` lines (a first line `{id, timestamp, instructions}`,
 * then bare response items and `{"record_type": "state"}` lines; Codex CLI 0.46 already writes the
 * current one) records no model: it is recognised and refused with that said.
 */
import type { InputError } from '../../scenarios/errors.ts';
import { formatSentBy } from '../../providers/registry.ts';
import { opaqueOf, type Opaque } from '../../providers/shared/opaque.ts';
import type { LeftOutTally } from '../left-out.ts';
import { chunkPos, isObject, type Chunk } from '../read.ts';
import type { Capture, CapturedRequest } from './types.ts';

type Obj = Record<string, unknown>;

const OUTPUT_ITEMS = new Set(['reasoning', 'function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call']);
/** Response item types of the earlier, bare format (a line is the item itself). */
const BARE_ITEMS = new Set(['message', 'reasoning', 'function_call', 'function_call_output', 'local_shell_call']);
const UNEDITED = 'import the rollout as Codex wrote it, unedited';
/** Line types written before a request is sent (besides input items): what the request's time is read from. */
const SENT_SIDE = new Set(['session_meta', 'turn_context', 'compacted']);

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

/** One model call of the rollout: its request, and its encrypted reasoning items with the reasoning tokens billed for them. */
interface Call {
  req: CapturedRequest;
  produced: Opaque[];
  reasoning?: number;
  billed: boolean;
}

/** The reasoning tokens billed for a call, split evenly over the encrypted reasoning items it produced. */
function share(k: Call): void {
  const r = k.reasoning;
  const n = k.produced.length;
  if (r === undefined || !n) return;
  k.produced.forEach((o, i) => {
    o.tokens = Math.floor(r / n) + (i < r % n ? 1 : 0);
  });
}

const isEnvelope = (c: Chunk): boolean => typeof c.value.type === 'string' && 'payload' in c.value;

/** The earlier format: a first line `{id, timestamp}` without `type`, then bare items or state lines. */
function isBareFormat(chunks: readonly Chunk[]): boolean {
  const [first, ...rest] = chunks;
  if (!first || typeof first.value.id !== 'string' || typeof first.value.timestamp !== 'string' || 'type' in first.value || 'model' in first.value) return false;
  return (
    rest.length > 0 &&
    rest.every((c) => c.value.record_type === 'state' || (BARE_ITEMS.has(c.value.type as string) && !('payload' in c.value))) &&
    rest.some((c) => BARE_ITEMS.has(c.value.type as string))
  );
}

/** The item as stored: encrypted content (reasoning, a compaction) as an opaque record; the record is filled in when the call's usage is read. */
function stored(p: Obj): { item: Obj; opaque?: Opaque } {
  if (typeof p.encrypted_content !== 'string') return { item: p };
  const opaque = opaqueOf(p.type === 'reasoning' ? 'encrypted reasoning' : `encrypted ${String(p.type)}`, p.encrypted_content);
  return { item: { ...p, encrypted_content: opaque }, opaque };
}

const ID = 'codex';
/** What a request without `instructions` does not record: the rollout's version writes no base instructions, and no turn overrode them. */
export const BASE_UNRECORDED = 'Codex’s built-in base instructions';

export const codexRollout: Capture = {
  id: ID,
  title: 'Codex rollout',
  // Codex sends one provider format only: the registry says which (its adapter's `sentBy`).
  format: formatSentBy(ID),
  // The base instructions are recorded by newer versions (session_meta) or a turn's override: a request without them says so itself.
  missing: ['the tool definitions'],

  detect(chunks) {
    if (isBareFormat(chunks)) return true;
    return chunks.every(isEnvelope) && chunks.some((c) => c.value.type === 'response_item' || c.value.type === 'session_meta');
  },

  requests(chunks: readonly Chunk[], file: string, errors: InputError[], leftOut: LeftOutTally): CapturedRequest[] {
    if (isBareFormat(chunks)) {
      errors.push({
        pos: { file, line: chunks[0]!.line, col: 1 },
        message:
          'this is a Codex rollout in the earlier format (a first line `{id, timestamp, instructions}`, then bare response items — before Codex CLI wrote `session_meta` and `turn_context` lines; 0.46 already writes those): it records no model, so no request can be rebuilt',
        fix: 'import a rollout written by a current Codex CLI (lines of {"timestamp", "type", "payload"}); an old session resumed with a current Codex (codex resume) is written in that format',
      });
      return [];
    }
    let items: Obj[] = [];
    /** The line each item came from, and its path there. */
    let from: { chunk: Chunk; at: (string | number)[] }[] = [];
    const out: CapturedRequest[] = [];
    let model: string | undefined;
    let instructions: string | undefined;
    let answering = false;
    let lastTime: number | undefined;
    /** The model call being read: its request, the encrypted reasoning it produced, and the reasoning tokens billed for it once known. */
    let call: Call | undefined;
    /**
     * A call's usage read before its items: Codex 0.58 writes a call's `token_count` before the items
     * it produced (and again after them); newer versions after them only. Dropped when anything but
     * UI events comes between it and the call (the usage of a call the rollout does not record, such
     * as a compaction's).
     */
    let pending: { c: Chunk; last: Obj } | undefined;
    /**
     * The usage read last, as JSON — billed, kept pending or dropped: a `token_count` equal to it is
     * a repeat (Codex writes the last usage again after each turn_context; around a compaction it
     * writes a zero usage, then repeats that, and a repeat taken for a new call's usage billed every
     * later call with the one before's).
     */
    let lastUsage: string | undefined;
    const bill = (k: Call, c: Chunk, last: Obj): void => {
      k.req.usage = { value: responsesUsage(last), at: ['payload', 'info', 'last_token_usage'], chunk: c };
      k.billed = true;
      lastUsage = JSON.stringify(last);
      const r = last.reasoning_output_tokens;
      if (typeof r === 'number' && Number.isInteger(r) && r >= 0) k.reasoning = r;
      share(k);
    };
    const drop = (why: string): void => {
      // A usage of all zeros (what Codex 0.104 writes around a compaction) bills nothing: no call is missing.
      if (pending && Object.values(pending.last).every((n) => n === 0)) leftOut.add('`token_count` lines with a usage of all zeros', 'no call was billed', pending.c);
      else if (pending) leftOut.add('`token_count` lines of a call the rollout does not record', why, pending.c);
      pending = undefined;
    };
    /** A compaction whose rebuilt history the rollout does not record: the requests after it are approximate. */
    let approximate: string | undefined;
    /** The session being read: rollouts of several sessions joined in one file are rebuilt each from its own `session_meta`. */
    let session: string | undefined;
    for (const c of chunks) {
      const v = c.value;
      const p = v.payload;
      const t = timestampMs(v.timestamp);
      if (!isObject(p)) {
        errors.push({ pos: chunkPos(c, ['payload'], file), message: 'a rollout line’s `payload` must be an object', fix: UNEDITED });
        continue;
      }
      if (v.type === 'session_meta') {
        const id = typeof p.id === 'string' && p.id !== '' ? p.id : undefined;
        if (id !== undefined && session !== undefined && id !== session) {
          items = [];
          from = [];
          model = undefined;
          instructions = undefined;
          answering = false;
          lastTime = undefined;
          call = undefined;
          pending = undefined;
          lastUsage = undefined;
          approximate = undefined;
        }
        session = id ?? session;
        // Newer versions record the base instructions Codex sends as `instructions` (0.135 writes {"text": …}).
        const base = isObject(p.base_instructions) ? p.base_instructions.text : p.base_instructions;
        if (typeof base === 'string') instructions = base;
      } else if (v.type === 'turn_context') {
        drop('a new turn began before any call');
        if (typeof p.model === 'string' && p.model !== '') model = p.model;
        if (typeof p.base_instructions === 'string') instructions = p.base_instructions;
      } else if (v.type === 'compacted') {
        if (Array.isArray(p.replacement_history)) {
          items = [];
          from = [];
          p.replacement_history.forEach((h, i) => {
            if (!isObject(h) || h.type === 'ghost_snapshot') return;
            items.push(stored(h).item);
            from.push({ chunk: c, at: ['payload', 'replacement_history', i] });
          });
        } else {
          // Older rollouts record only the summary: Codex rebuilt the history as the user's messages, then the summary as a user message.
          const kept = items.map((it, i) => ({ it, o: from[i]! })).filter(({ it }) => it.type === 'message' && it.role === 'user');
          items = [...kept.map((k) => k.it), { type: 'message', role: 'user', content: [{ type: 'input_text', text: String(p.message ?? '') }] }];
          from = [...kept.map((k) => k.o), { chunk: c, at: ['payload', 'message'] }];
          approximate =
            'after a compaction whose rebuilt history this rollout does not record (it keeps only the summary), the input is the user’s messages and the summary, as Codex builds it, not the exact items sent (≈)';
        }
        answering = false;
        drop('a compaction came between it and the next call');
      } else if (v.type === 'event_msg') {
        if (p.type !== 'token_count') {
          leftOut.add(`\`event_msg\` lines of type \`${String(p.type)}\``, 'Codex’s UI events, not sent to the model', c);
        } else {
          const last = isObject(p.info) ? p.info.last_token_usage : undefined;
          if (!isObject(last)) leftOut.add('`token_count` lines without `last_token_usage`', 'rate-limit or context updates, not one call’s usage', c);
          else if (JSON.stringify(last) === lastUsage) leftOut.add('`token_count` lines repeating the usage just read', 'Codex writes a call’s usage again after its items', c);
          else if (call && !call.billed) bill(call, c, last);
          else {
            drop('no call followed it');
            pending = { c, last };
            lastUsage = JSON.stringify(last);
          }
        }
      } else if (v.type === 'response_item') {
        if (typeof p.type !== 'string') {
          errors.push({ pos: chunkPos(c, ['payload'], file), message: 'this response item has no `type`', fix: UNEDITED });
          continue;
        }
        if (p.type === 'ghost_snapshot') {
          leftOut.add('`ghost_snapshot` items', 'Codex’s own git snapshots, not sent to the model', c);
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
                ...(approximate !== undefined && { note: approximate }),
                ...(instructions === undefined && { unrecorded: [BASE_UNRECORDED] }),
                assembled: true,
                origin: (path) => {
                  const [first, i, ...rest] = path;
                  const o = first === 'input' && typeof i === 'number' ? origins[i] : undefined;
                  return o && { chunk: o.chunk, at: [...o.at, ...rest] };
                },
              };
              out.push(req);
              call = { req, produced: [], billed: false };
              if (pending) bill(call, pending.c, pending.last);
              pending = undefined;
            }
          }
        } else {
          answering = false;
          drop('an input item came between it and the next call');
        }
        const { item, opaque } = stored(p);
        if (opaque && p.type === 'reasoning' && answering && call) {
          call.produced.push(opaque);
          share(call);
        }
        items.push(item);
        from.push({ chunk: c, at: ['payload'] });
      } else {
        leftOut.add(`\`${String(v.type)}\` lines`, 'Codex’s own records, not items of the model’s input', c);
      }
      // A request is sent after the last line written on the way in: an input item, a turn's context. The UI events
      // (`agent_reasoning`, the response's rate limits in a `token_count`) are written while the model answers.
      if (t !== undefined && (SENT_SIDE.has(v.type as string) || (v.type === 'response_item' && !isOutput(p)))) lastTime = t;
    }
    drop('no call followed it');
    return out;
  },
};
