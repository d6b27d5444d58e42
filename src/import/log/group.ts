/**
 * Which conversation a request of a log belongs to. A gateway log interleaves many conversations;
 * each becomes its own scenario, so that a request is compared with the previous request of its
 * own conversation rather than with whatever line came before it. The key, in order:
 *
 *   1. `prompt_cache_key` (OpenAI Chat Completions and Responses: the caller's cache routing key);
 *   2. `user` (OpenAI) or `metadata.user_id` (Anthropic Messages): the end user the caller names;
 *   3. `conversation` (OpenAI Responses: the conversation id, a string or `{id}`);
 *   4. failing those, the prefix chain: a request joins the conversation whose latest request's
 *      messages (the first field of the body that is a provider format's message list, its
 *      adapter's `messageList`: `messages`, `input`, `contents`, …) are a prefix of its own — the
 *      longest such, the most recent on a tie — and starts a new one when it extends none.
 *
 * The chain keeps only a digest per conversation (of its latest request's messages), so memory
 * grows with the number of conversations, not with the log. Cache markers are left out of the
 * digest (`cache_control`, `prompt_cache_breakpoint`, a Converse `{cachePoint}` block): they say where
 * to cache, not what the model reads, and a client that moves its one breakpoint forward each turn
 * (pydantic-ai's recorded Bedrock calls do) still extends the same conversation.
 */
import { createHash } from 'node:crypto';
import { PROVIDERS } from '../../providers/registry.ts';
import type { ProviderAdapter } from '../../providers/types.ts';
import { isObject } from '../read.ts';

type Obj = Record<string, unknown>;

/**
 * What grouped a conversation's requests: a request body's key (above), a capture's own session
 * key (its module names it, e.g. Claude Code's `sessionId`, OpenInference's `session.id`), or the
 * prefix chain.
 */
export type GroupedBy = 'prompt_cache_key' | 'user' | 'metadata.user_id' | 'conversation' | 'prefix chain' | (string & {});

export interface Conversation {
  by: GroupedBy;
  /** The key's value (for the prefix chain: `chain <n>`, numbered from 1 in order of first request). */
  key: string;
  /** How many conversations the capture held (said in the scenario's intro: one of several, or its only one). */
  of?: number;
  /** Of a folder read a session at a time (folder.ts): how many sessions it held (then `of` counts this one's session's conversations). */
  sessions?: number;
}

/** The request body of a JSON Lines value: the value itself, or its `body` when wrapped. */
export function bodyOf(value: Obj): Obj | undefined {
  if (isObject(value.body) && !('model' in value)) return value.body;
  return 'model' in value || 'messages' in value || 'input' in value ? value : undefined;
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** The fields that hold a conversation's list in some provider format, in registry order. */
const LISTS = [...new Set((PROVIDERS as readonly ProviderAdapter[]).flatMap((p) => (p.messageList ? [p.messageList] : [])))];

/** A body's message list: the first of LISTS it carries (a string, as a Responses `input` may be, is a list of one). */
function listOf(body: Obj): readonly unknown[] {
  for (const k of LISTS) {
    const v = body[k];
    if (Array.isArray(v)) return v;
    if (typeof v === 'string') return [v];
  }
  return [];
}

/** The explicit key a body carries (1–3 above), if any. */
export function explicitKey(body: Obj): Conversation | undefined {
  if (nonEmpty(body.prompt_cache_key)) return { by: 'prompt_cache_key', key: body.prompt_cache_key };
  if (nonEmpty(body.user)) return { by: 'user', key: body.user };
  if (isObject(body.metadata) && nonEmpty(body.metadata.user_id)) return { by: 'metadata.user_id', key: body.metadata.user_id };
  const c = body.conversation;
  if (nonEmpty(c)) return { by: 'conversation', key: c };
  if (isObject(c) && nonEmpty(c.id)) return { by: 'conversation', key: c.id };
  return undefined;
}

/** For a single-conversation import: the first two lines whose explicit keys differ, if any. */
export function distinctConversations(
  chunks: readonly { line: number; value: Obj }[],
): { by: GroupedBy; first: { line: number; key: string }; second: { line: number; key: string } } | undefined {
  let first: { line: number; c: Conversation } | undefined;
  for (const ch of chunks) {
    const body = bodyOf(ch.value);
    const c = body && explicitKey(body);
    if (!c) continue;
    if (!first) first = { line: ch.line, c };
    else if (first.c.by === c.by && first.c.key !== c.key) return { by: c.by, first: { line: first.line, key: first.c.key }, second: { line: ch.line, key: c.key } };
  }
  return undefined;
}

const MARKER_KEYS = new Set(['cache_control', 'prompt_cache_breakpoint']);
const isCachePoint = (x: unknown): boolean => isObject(x) && 'cachePoint' in x && Object.keys(x).length === 1;
/** JSON of a message without its cache markers (re-serialised only when it holds one: the common case costs one stringify). */
function unmarked(m: unknown): string {
  const json = JSON.stringify(m);
  if (!json.includes('"cache_control"') && !json.includes('"prompt_cache_breakpoint"') && !json.includes('"cachePoint"')) return json;
  return JSON.stringify(m, (k, v: unknown) => (MARKER_KEYS.has(k) ? undefined : Array.isArray(v) ? v.filter((x) => !isCachePoint(x)) : v));
}

/** Running digests of a message list: entry i is the digest of messages 0..i. */
function prefixDigests(messages: readonly unknown[]): string[] {
  const out: string[] = [];
  let acc = '';
  for (const m of messages) {
    acc = createHash('sha1').update(acc).update(unmarked(m)).digest('base64');
    out.push(acc);
  }
  return out;
}

/** Assigns each request of a log to a conversation (call in file order). */
export class Grouper {
  /** Chain conversations by the digest of their latest request's messages. */
  private readonly tips = new Map<string, number>();
  private readonly tipOf = new Map<number, string>();
  private chains = 0;

  /**
   * The conversation of this body: the key a capture found for it (`explicit`), the body's own
   * explicit key, or its prefix chain — over `messages` when given (a body whose message list is
   * not `messages` or `input`, e.g. GenAI spans' `input_messages`).
   */
  assign(body: Obj, opts: { explicit?: Conversation; messages?: readonly unknown[] } = {}): Conversation {
    const explicit = opts.explicit ?? explicitKey(body);
    if (explicit) return explicit;
    const list = opts.messages ?? listOf(body);
    const digests = prefixDigests(list);
    let chain: number | undefined;
    for (let i = digests.length - 1; i >= 0 && chain === undefined; i--) chain = this.tips.get(digests[i]!);
    if (chain === undefined) chain = ++this.chains;
    const old = this.tipOf.get(chain);
    if (old !== undefined && this.tips.get(old) === chain) this.tips.delete(old);
    const tip = digests.at(-1);
    if (tip !== undefined) {
      this.tips.set(tip, chain);
      this.tipOf.set(chain, tip);
    }
    return { by: 'prefix chain', key: `chain ${chain}` };
  }
}
