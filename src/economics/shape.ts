/**
 * A request as a provider's cache sees it: per message its tokens (chat framing + content), an id
 * for every whole-message prefix (so "is this entry a byte-identical prefix of that request" is one
 * integer comparison), the content blocks before every message (Anthropic's lookback counts
 * blocks), and the positions of its cache breakpoints in tokens and blocks.
 *
 * What a "block" is for our rendered messages (Anthropic counts content blocks: each tool, each
 * system block, each message content block): the tool list message counts one block per tool; any
 * other message one block for its text plus one per attached file; a breakpoint that ends inside a
 * message splits its text there, so that message counts one more block per such split. A position
 * is measured in blocks from the start of the request.
 *
 * Token framing (OpenAI chat format, as gpt-tokenizer encodes it): a message is
 * `<|im_start|>role<|im_sep|>` (3 tokens), its content, `<|im_end|>` (1); the request ends with
 * the 3 reply-priming tokens `<|im_start|>assistant<|im_sep|>`. A prefix that ends inside a message
 * counts that message's 3 opening tokens and the tokens of the content it covers.
 */
import { parseToolsContent, TOOLS_ROLE } from '../folds/tools.ts';
import type { Breakpoint, RenderedMessage } from '../folds/types.ts';
import { messageText, messageTokens, type Tokenizer } from './tokens.ts';
import { holdsUncountedMedia } from '../providers/shared/normalise.ts';

/** Interns message and prefix keys as small integers (one per scenario computation). */
export class Interner {
  private readonly ids = new Map<string, number>();
  /** A message's id by object: folds hand back the same object for an unchanged message, so its text is keyed once, not once per request. */
  private readonly byMessage = new WeakMap<RenderedMessage, number>();
  id(key: string): number {
    let n = this.ids.get(key);
    if (n === undefined) this.ids.set(key, (n = this.ids.size + 1));
    return n;
  }
  /** The id of a message's role and counted text (`text`: messageText(m)). */
  message(m: RenderedMessage, text: string): number {
    let n = this.byMessage.get(m);
    if (n === undefined) this.byMessage.set(m, (n = this.id(`${m.role}\u0000${text}`)));
    return n;
  }
}

/** Where a cached prefix ends: `k` whole messages, then optionally part of message `k`. */
export interface Position {
  k: number;
  /** Part of message `k` covered (a breakpoint inside a message): its characters. */
  partial?: string;
  tokens: number;
  blocks: number;
  /** Retention the breakpoint asks for. */
  ttl?: '5m' | '1h';
}

export interface Shape {
  messages: readonly RenderedMessage[];
  texts: string[];
  /** cum[i]: tokens of messages 0..i-1 (cum[n]: every message, without the reply priming). */
  cum: number[];
  /** Every input token, the reply priming included. */
  input: number;
  /** prefix[k]: id of the first k messages (role + text). */
  prefix: number[];
  /** blocks[i]: content blocks before message i (blocks[n]: all of them). */
  blocks: number[];
  /** A message sends media whose tokens its text does not show, inline or by reference (normalise.ts holdsUncountedMedia): read once per shape, which every profile's run shares. */
  media: boolean;
}

export const OPENING_TOKENS = 3;

/** Blocks one message counts, before any split by a breakpoint inside it. */
function blocksOf(m: RenderedMessage): number {
  if (m.role === TOOLS_ROLE) return Math.max(1, parseToolsContent(m.content)?.length ?? 1);
  return 1 + (m.files?.length ?? 0);
}

export function shapeOf(t: Tokenizer, ids: Interner, messages: readonly RenderedMessage[], breakpoints: readonly Breakpoint[] = []): Shape {
  const texts = messages.map(messageText);
  const cum = [0];
  const prefix = [0];
  const blocks = [0];
  const splits = new Map<number, Set<number>>();
  for (const b of breakpoints) {
    const m = messages[b.message];
    if (m && b.end !== undefined && b.end > 0 && b.end < m.content.length) {
      if (!splits.has(b.message)) splits.set(b.message, new Set());
      splits.get(b.message)!.add(b.end);
    }
  }
  messages.forEach((m, i) => {
    cum.push(cum[i]! + messageTokens(t, m));
    prefix.push(ids.id(`${prefix[i]}\u0001${ids.message(m, texts[i]!)}`));
    blocks.push(blocks[i]! + blocksOf(m) + (splits.get(i)?.size ?? 0));
  });
  return { messages, texts, cum, input: cum.at(-1)! + t.priming, prefix, blocks, media: texts.some(holdsUncountedMedia) };
}

/** The position a breakpoint marks (null when it names no message of the request). */
export function positionOf(t: Tokenizer, s: Shape, b: Breakpoint): Position | null {
  const m = s.messages[b.message];
  if (!m) return null;
  const ttl = b.ttl ? { ttl: b.ttl } : {};
  if (b.end === undefined || b.end >= m.content.length) return { k: b.message + 1, tokens: s.cum[b.message + 1]!, blocks: s.blocks[b.message + 1]!, ...ttl };
  const partial = m.content.slice(0, Math.max(0, b.end));
  return { k: b.message, partial, tokens: s.cum[b.message]! + OPENING_TOKENS + t.count(partial), blocks: s.blocks[b.message]! + 1, ...ttl };
}

/** The whole-message position after message `i`. */
export const afterMessage = (s: Shape, i: number): Position => ({ k: i + 1, tokens: s.cum[i + 1]!, blocks: s.blocks[i + 1]! });

/** The request holds the prefix `p` (written by any request) byte for byte. */
export function holds(s: Shape, p: { k: number; prefixId: number; role?: string; partial?: string }): boolean {
  if (p.k > s.messages.length || s.prefix[p.k] !== p.prefixId) return false;
  if (p.partial === undefined) return true;
  const m = s.messages[p.k];
  return !!m && m.role === p.role && s.texts[p.k]!.startsWith(p.partial);
}

/** Number of leading whole messages two requests share. */
export function sharedMessages(a: Shape, b: Shape): number {
  let lo = 0;
  let hi = Math.min(a.messages.length, b.messages.length);
  // prefix ids chain: if k messages agree, every shorter prefix agrees too.
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.prefix[mid] === b.prefix[mid]) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Common token prefix of two requests' token sequences (OpenAI prefix caching), reply priming
 * included. `bContinues`: `b` stands for a request that goes on after its messages with a message
 * of unknown role (the hypothetical "same bytes, more appended"), not with its reply priming.
 */
export function sharedTokens(t: Tokenizer, a: Shape, b: Shape, bContinues = false): number {
  const k = sharedMessages(a, b);
  let n = a.cum[k]!;
  const na = a.messages[k];
  const nb = b.messages[k];
  const aRole = na?.role ?? 'assistant';
  const bRole = nb?.role ?? (bContinues ? '\u0000' : 'assistant');
  if (!na && !nb && !bContinues) return a.input;
  if (aRole !== bRole) return n + 1; // both open with <|im_start|>, the role differs
  n += OPENING_TOKENS;
  if (na && nb) {
    const x = t.tokens(a.texts[k]!);
    const y = t.tokens(b.texts[k]!);
    const m = Math.min(x.length, y.length);
    let c = 0;
    while (c < m && x[c] === y[c]) c++;
    n += c;
  }
  return n;
}
