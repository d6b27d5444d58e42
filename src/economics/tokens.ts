/**
 * Token counts of a request as the provider receives it: each message's content (and files) plus
 * the chat framing around it, from gpt-tokenizer's BPE encodings. Pure and browser-safe (no node:).
 *
 * - OpenAI models: exact. o200k_base (gpt-4o, 4.1, 5.x) or cl100k_base (gpt-4, 3.5); the framing
 *   is gpt-tokenizer's own chat encoding (`<|im_start|>role<|im_sep|>content<|im_end|>` per
 *   message, and `<|im_start|>assistant<|im_sep|>` priming the reply), measured once per role.
 * - Anthropic and unknown providers: ≈. There is no offline Claude tokenizer (Anthropic's own
 *   `@anthropic-ai/tokenizer` says it is inaccurate since Claude 3; exact counts need the
 *   `count_tokens` API, which a build never calls), and we had no Claude-counted text to measure a
 *   correction factor against, so we could not calibrate one. We use the o200k_base count with the
 *   same framing — a modern BPE of the same family of vocabulary sizes — and mark every such
 *   figure approximate. Files attached to a message are counted as their JSON, also ≈.
 *
 * Each distinct text is encoded once per process (memo per encoding): a corpus repeats the same
 * system prompt and messages across every request and scenario.
 *
 * An encoding's tables (its byte-pair ranks: 2.4 MB of JavaScript for o200k_base, 1.2 MB for
 * cl100k_base) are loaded on first use, not with this module. In Node the first tokenizer(e) reads
 * them synchronously (the package's CommonJS build). A browser gets them as files of their own,
 * fetched as they are: the playground's worker passes their URLs to loadEncodings() before it
 * counts (src/playground/economics.ts). Bundled into the worker instead, every site build parsed
 * and minified megabytes of rank tables — a third of its client build.
 */
import type { RawBytePairRanks as Ranks } from 'gpt-tokenizer/BytePairEncodingCore';
import { GptEncoding } from 'gpt-tokenizer/GptEncoding';
import type { RenderedMessage } from '../folds/types.ts';
import { CHAT_FRAMING, type Encoding } from '../providers/shared/catalog.ts';

type Api = GptEncoding;

const loaded: Partial<Record<Encoding, Api>> = {};

const apiFrom = (e: Encoding, ranks: Ranks): Api => GptEncoding.getEncodingApi(e, () => ranks);

/** The encodings `profiles` count with: o200k_base always (the approximate counts use it too). */
function encodingsOf(profiles: Iterable<{ tokenizer: Encoding | 'approx' }>): Set<Encoding> {
  const out = new Set<Encoding>(['o200k_base']);
  for (const { tokenizer: e } of profiles) if (e !== 'approx') out.add(e);
  return out;
}

/**
 * Loads, in a browser, the encodings `profiles` count with that are not loaded yet, each from the
 * URL of its rank table (a module whose default export is the ranks); before tokenizer().
 */
export async function loadEncodings(profiles: Iterable<{ tokenizer: Encoding | 'approx' }>, urls: Record<Encoding, string>): Promise<void> {
  for (const e of encodingsOf(profiles)) {
    if (loaded[e]) continue;
    const mod = (await import(/* @vite-ignore */ urls[e])) as { default: Ranks };
    loaded[e] = apiFrom(e, mod.default);
  }
}

/** An encoding's API: loaded, or (in Node) loaded now; in a browser an unloaded one is a mistake of the caller. */
function apiOf(e: Encoding): Api {
  let api = loaded[e];
  if (!api) {
    const mod = globalThis.process?.getBuiltinModule?.('node:module') as typeof import('node:module') | undefined;
    if (!mod) throw new Error(`the ${e} encoding is not loaded: await loadEncodings(profiles, urls) before counting with it`);
    api = loaded[e] = apiFrom(e, (mod.createRequire(import.meta.url)(`gpt-tokenizer/bpeRanks/${e}`) as { default: Ranks }).default);
  }
  return api;
}

/**
 * A run of one kind of character — letters, white space, or punctuation and symbols — longer than
 * this is encoded in pieces of this length. The tokenizer first cuts a text where the kind changes
 * (its pre-tokenizing regular expression), and its byte-pair merge is quadratic in the length of
 * each piece: a run of 200,000 letters (a zero-filled image as base64, a genome, a hash pasted
 * without spaces) took 11 s to count and 400,000 took 44 s; 50,000 quotes, backslashes or spaces
 * took about as long as letters; 50,000,000 letters overflowed the expression. In pieces the count
 * takes linear time and is ≈ (a merge across a piece's edge is missed), so the text is marked
 * approximate (Tokenizer.approximated). Digits need nothing: the expression takes at most three.
 */
export const LONG_RUN = 4096;
const LETTER = /[\p{L}\p{M}]/u;
const DIGIT = /\p{N}/u;
const SPACE = /\s/u;

/** The kind of the character at `i` (its code unit `c`): 1 letter, 2 white space, 3 other, 0 a digit (never long). */
function kindAt(text: string, i: number, c: number): number {
  if (c < 128) {
    const l = c | 32;
    if (l >= 97 && l <= 122) return 1;
    if (c >= 48 && c <= 57) return 0;
    return c === 32 || (c >= 9 && c <= 13) ? 2 : 3;
  }
  const ch = String.fromCodePoint(text.codePointAt(i)!);
  return LETTER.test(ch) ? 1 : DIGIT.test(ch) ? 0 : SPACE.test(ch) ? 2 : 3;
}

/**
 * The runs of one kind of character longer than LONG_RUN in `text`, as [start, end) — found in one
 * pass over its characters, not by a regular expression (a greedy one overflowed its stack on a run
 * of 50,000,000, and a counted one scans each run again from every position).
 */
export function longRuns(text: string): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  let kind = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : -1;
    if (c >= 0xdc00 && c <= 0xdfff) continue; // the second half of a pair, classed with the first
    const k = c < 0 ? -1 : kindAt(text, i, c);
    if (k === kind) continue;
    if (kind > 0 && i - start > LONG_RUN) out.push([start, i]);
    start = i;
    kind = k;
  }
  return out;
}

/** One encoding's memoised counts. */
export class Tokenizer {
  readonly encoding: Encoding;
  private readonly api: Api;
  private readonly chatModel: (typeof CHAT_FRAMING)[Encoding];
  private readonly memo = new Map<string, Uint32Array>();
  /** The texts counted in pieces (LONG_RUN): their counts are ≈. */
  private readonly pieced = new Set<string>();
  private readonly frames = new Map<string, number>();
  /** Tokens that prime the reply after the last message. */
  readonly priming: number;

  constructor(encoding: Encoding) {
    this.encoding = encoding;
    this.api = apiOf(encoding);
    this.chatModel = CHAT_FRAMING[encoding];
    this.priming = this.api.encodeChat([], this.chatModel).length;
  }

  /** The tokens of a text (memoised; special-token text is encoded as plain text). */
  tokens(text: string): Uint32Array {
    let t = this.memo.get(text);
    if (!t) {
      const runs = text.length > LONG_RUN ? longRuns(text) : [];
      t = runs.length ? this.inPieces(text, runs) : Uint32Array.from(this.encode(text));
      this.memo.set(text, t);
    }
    return t;
  }

  /** Whether any text so far was counted in pieces (nothing else need be asked while none was). */
  get piecedAny(): boolean {
    return this.pieced.size > 0;
  }

  /** Whether the count of `text` is ≈ because a long run of one kind of character in it was encoded in pieces (LONG_RUN). */
  approximated(text: string): boolean {
    this.tokens(text);
    return this.pieced.has(text);
  }

  private encode(text: string): number[] {
    return this.api.encode(text, { disallowedSpecial: new Set() });
  }

  /** `text` encoded with each of its `runs` (longRuns) in pieces of LONG_RUN (never inside a surrogate pair). */
  private inPieces(text: string, runs: readonly [number, number][]): Uint32Array {
    const out: number[] = [];
    const push = (ids: number[]): void => {
      for (const id of ids) out.push(id);
    };
    let at = 0;
    for (const [start, end] of runs) {
      if (start > at) push(this.encode(text.slice(at, start)));
      for (let i = start; i < end; ) {
        let j = Math.min(i + LONG_RUN, end);
        const c = text.charCodeAt(j - 1);
        if (j < end && c >= 0xd800 && c <= 0xdbff) j++;
        push(this.encode(text.slice(i, j)));
        i = j;
      }
      at = end;
    }
    if (at < text.length) push(this.encode(text.slice(at)));
    this.pieced.add(text);
    return Uint32Array.from(out);
  }

  count(text: string): number {
    return this.tokens(text).length;
  }

  /** Framing tokens one message of this role adds around its content. */
  framing(role: string): number {
    let n = this.frames.get(role);
    if (n === undefined) {
      n = this.api.encodeChat([{ role: role as 'user', content: '' }], this.chatModel).length - this.priming;
      this.frames.set(role, n);
    }
    return n;
  }

  /** Distinct texts encoded so far. */
  get size(): number {
    return this.memo.size;
  }
}

/**
 * The tokenizers, one per encoding for the whole process, not per copy of this module: `astro dev`
 * and a build with an adapter load it twice (the integration's corpus check, and the prerendered
 * pages' bundle, whose what-if counts the same messages again — with a memo of its own that was
 * every message encoded twice; a build without an adapter shares one copy, integration/shared-modules.ts).
 * Kept on globalThis like the integration's shared state (integration/shared-state.ts; this layer
 * cannot import it), under a key that names this module's Tokenizer shape: bump it when the class's
 * members change, so two versions of the package in one process never share one.
 */
const SHARED = Symbol.for('prompt-fold-explainer/economics/tokenizers@1');
const tokenizers = ((globalThis as Record<symbol, unknown>)[SHARED] ??= new Map<Encoding, Tokenizer>()) as Map<Encoding, Tokenizer>;

/** The process-wide tokenizer of an encoding (one memo per build). */
export function tokenizer(encoding: Encoding): Tokenizer {
  let t = tokenizers.get(encoding);
  if (!t) tokenizers.set(encoding, (t = new Tokenizer(encoding)));
  return t;
}

/** The text of a message as counted: its content, then its files as JSON (≈). */
export function messageText(m: RenderedMessage): string {
  return m.files?.length ? `${m.content}\n${JSON.stringify(m.files)}` : m.content;
}

/** Tokens of one message: framing + content (an opaque message: the tokens it carries, RenderedMessage.tokens). */
export function messageTokens(t: Tokenizer, m: RenderedMessage): number {
  return t.framing(m.role) + (m.tokens ?? t.count(messageText(m)));
}

/** Tokens of a whole request: every message plus the reply priming. */
export function requestTokens(t: Tokenizer, messages: readonly RenderedMessage[]): number {
  return messages.reduce((n, m) => n + messageTokens(t, m), t.priming);
}
