/** Token counts equal gpt-tokenizer's own, on fixed strings and on whole chats with their framing. */
import { describe, expect, it, vi } from 'vitest';
import { decode as o200kDecode, encode as o200kEncode, encodeChat as o200kChat } from 'gpt-tokenizer/encoding/o200k_base';
import { encode as clEncode, encodeChat as clChat } from 'gpt-tokenizer/encoding/cl100k_base';
import type { RenderedMessage } from '../folds/types.ts';
import { LONG_RUN, longRuns, messageTokens, requestTokens, tokenizer } from './tokens.ts';

const msg = (role: string, content: string): RenderedMessage => ({ role, content, parts: [{ text: content, from: [] }] });
const TEXTS = [
  'hello world',
  'Reply in Markdown with short paragraphs; name the files you changed.',
  '<section key="identity">\nYou are the agent.\n</section>',
  'naïve café — ✂ 日本語',
  '',
];

describe('token counts', () => {
  it('count fixed strings exactly as the tokenizer does (o200k_base and cl100k_base)', () => {
    for (const t of TEXTS) {
      expect(tokenizer('o200k_base').count(t)).toBe(o200kEncode(t).length);
      expect(tokenizer('cl100k_base').count(t)).toBe(clEncode(t).length);
    }
    // A known count, so a change of the library or its data shows up here.
    expect(tokenizer('o200k_base').count('hello world')).toBe(2);
  });

  it('count a chat, framing included, exactly as the tokenizer’s chat encoding', () => {
    const chat = [msg('system', TEXTS[1]!), msg('developer', TEXTS[2]!), msg('user', TEXTS[3]!), msg('assistant', TEXTS[0]!)];
    const asChat = chat.map((m) => ({ role: m.role as 'user', content: m.content }));
    expect(requestTokens(tokenizer('o200k_base'), chat)).toBe(o200kChat(asChat, 'gpt-4o').length);
    expect(requestTokens(tokenizer('cl100k_base'), chat)).toBe(clChat(asChat, 'gpt-4').length);
    // Framing per message: <|im_start|>role<|im_sep|> … <|im_end|>; the reply is primed with 3 tokens.
    expect(messageTokens(tokenizer('o200k_base'), msg('user', 'hello world'))).toBe(4 + 2);
    expect(tokenizer('o200k_base').priming).toBe(3);
  });

  it('encodes each distinct text once (memo), and treats special-token text as plain text', () => {
    const t = tokenizer('o200k_base');
    const a = t.tokens('a text seen twice');
    expect(t.tokens('a text seen twice')).toBe(a);
    expect(t.count('<|im_end|>')).toBe(o200kEncode('<|im_end|>', { disallowedSpecial: new Set() }).length);
    expect(t.count('<|im_end|>')).toBeGreaterThan(1);
  });
});

const SHARED = Symbol.for('prompt-fold-explainer/economics/tokenizers@1');

/** Where a browser gets the rank tables: their files, as the playground's `?url` imports point at them. */
const RANK_URLS = { o200k_base: import.meta.resolve('gpt-tokenizer/bpeRanks/o200k_base'), cl100k_base: import.meta.resolve('gpt-tokenizer/bpeRanks/cl100k_base') };

describe('a long run of letters', () => {
  it('is found in one pass: ASCII, other scripts, letters past U+FFFF and combining marks; a run of exactly LONG_RUN is not long', () => {
    const run = (n: number, ch = 'a') => ch.repeat(n);
    expect(longRuns(`x ${run(LONG_RUN)} y`)).toEqual([]);
    expect(longRuns(`x ${run(LONG_RUN + 1)} y`)).toEqual([[2, LONG_RUN + 3]]);
    expect(longRuns(`${run(LONG_RUN + 1)}`)).toEqual([[0, LONG_RUN + 1]]); // at the very end
    expect(longRuns(`${run(5000, '中')}。${run(5000, 'ä')}`)).toEqual([
      [0, 5000],
      [5001, 10001],
    ]);
    const astral = '\u{1D400}'.repeat(3000); // MATHEMATICAL BOLD CAPITAL A, a letter of two UTF-16 units
    expect(longRuns(`1${astral}2`)).toEqual([[1, 6001]]);
    expect(longRuns(`${'e\u0301'.repeat(2100)}`)).toEqual([[0, 4200]]); // e + COMBINING ACUTE ACCENT
    expect(longRuns('words, numbers 123 and punctuation. '.repeat(500))).toEqual([]);
  });

  it('is any one kind of character the tokenizer keeps in one piece: spaces and punctuation too, not digits', () => {
    expect(longRuns(`a${' '.repeat(5000)}b`)).toEqual([[1, 5001]]);
    expect(longRuns(`a${'\n\t '.repeat(2000)}b`)).toEqual([[1, 6001]]);
    expect(longRuns(`a${'"'.repeat(5000)}b${'{\\'.repeat(3000)}`)).toEqual([
      [1, 5001],
      [5002, 11002],
    ]);
    expect(longRuns('1'.repeat(50_000))).toEqual([]); // the tokenizer takes digits three at a time
    expect(longRuns('a"'.repeat(50_000))).toEqual([]);
    const t = tokenizer('o200k_base');
    for (const text of [`say: ${'"'.repeat(60_000)}`, `say: ${' '.repeat(60_000)}.`]) {
      expect(t.approximated(text)).toBe(true);
      expect(o200kDecode([...t.tokens(text)])).toBe(text);
    }
  });

  it('is encoded in pieces, so it takes linear time, and its count is marked ≈; every other text is counted whole and exact', () => {
    const t = tokenizer('o200k_base');
    // A zero-filled buffer as base64 is one run of "A": 200,000 of them took 11 s in one piece.
    const blob = `image: ${'A'.repeat(200_000)} end`;
    const ids = t.tokens(blob);
    expect(t.approximated(blob)).toBe(true);
    expect(t.piecedAny).toBe(true);
    // The pieces' tokens still spell the text, byte for byte.
    expect(o200kDecode([...ids])).toBe(blob);
    // Each piece is encoded as the tokenizer encodes it alone.
    const pieces = ['image: ', ...Array.from({ length: Math.ceil(200_000 / LONG_RUN) }, (_, i) => 'A'.repeat(Math.min(LONG_RUN, 200_000 - i * LONG_RUN))), ' end'];
    expect(ids.length).toBe(pieces.reduce((n, p) => n + o200kEncode(p).length, 0));
    const prose = 'lorem ipsum dolor sit amet, '.repeat(2000);
    expect(t.count(prose)).toBe(o200kEncode(prose).length);
    expect(t.approximated(prose)).toBe(false);
  });

  it('is never cut inside a pair of UTF-16 units: the pieces decode to the text', () => {
    const t = tokenizer('o200k_base');
    // One unit before the run puts a pair across the LONG_RUN boundary.
    const text = `a${'\u{1D400}'.repeat(3000)}`;
    expect(t.approximated(text)).toBe(true);
    expect(o200kDecode([...t.tokens(text)])).toBe(text);
  });
});

describe('the encodings, loaded on first use', () => {
  /** tokens.ts afresh (nothing loaded yet), as a browser sees it when `browser`: no Node to load an encoding with. */
  async function fresh(browser: boolean): Promise<typeof import('./tokens.ts')> {
    vi.resetModules();
    // The tokenizers are shared by every copy of the module in the process: forget them too.
    delete (globalThis as Record<symbol, unknown>)[SHARED];
    if (browser) vi.spyOn(process, 'getBuiltinModule').mockReturnValue(undefined as never);
    return import('./tokens.ts');
  }

  it('in a browser, counting before loadEncodings() is an error naming the fix; after it, exact', async () => {
    try {
      const t = await fresh(true);
      for (const e of ['o200k_base', 'cl100k_base'] as const)
        expect(() => t.tokenizer(e)).toThrow(`the ${e} encoding is not loaded: await loadEncodings(profiles, urls) before counting with it`);
      // Only what the profiles count with: approximate counts use o200k_base; cl100k_base is not asked for here.
      await t.loadEncodings([{ tokenizer: 'approx' }], RANK_URLS);
      for (const text of TEXTS) expect(t.tokenizer('o200k_base').count(text)).toBe(o200kEncode(text).length);
      expect(() => t.tokenizer('cl100k_base')).toThrow('the cl100k_base encoding is not loaded');
      await t.loadEncodings([{ tokenizer: 'approx' }, { tokenizer: 'o200k_base' }, { tokenizer: 'cl100k_base' }], RANK_URLS);
      for (const text of TEXTS) expect(t.tokenizer('cl100k_base').count(text)).toBe(clEncode(text).length);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('is one tokenizer (one memo) for every copy of the module in the process, as a build loads two', async () => {
    vi.resetModules();
    const a = await import('./tokens.ts');
    vi.resetModules();
    const b = await import('./tokens.ts');
    expect(b).not.toBe(a);
    expect(b.tokenizer('o200k_base')).toBe(a.tokenizer('o200k_base'));
    const seen = a.tokenizer('o200k_base').tokens('counted by the first copy');
    expect(b.tokenizer('o200k_base').tokens('counted by the first copy')).toBe(seen);
  });

  it('in Node, loaded at the first count without loadEncodings()', async () => {
    const t = await fresh(false);
    for (const text of TEXTS) expect(t.tokenizer('cl100k_base').count(text)).toBe(clEncode(text).length);
    for (const text of TEXTS) expect(t.tokenizer('o200k_base').count(text)).toBe(o200kEncode(text).length);
  });
});
