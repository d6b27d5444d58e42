/**
 * An opaque value of a captured request: bytes the provider reads but nobody else can (OpenAI's
 * encrypted reasoning, `encrypted_content`). Counting its base64 as prompt text is wrong by a
 * large factor (a few hundred reasoning tokens are kilobytes of base64), so an import stores it as
 * this record instead of the bytes: how long it was, a digest (two different values never look the
 * same to the prefix comparison), and the tokens the provider billed for it when the capture's own
 * counters say so (a Codex rollout's `reasoning_output_tokens` of the call that produced it). The
 * adapter then counts the item as those tokens (NormalMessage.tokens); without them, as none, and
 * the page says the capture does not show its size.
 */
import { isObject } from './normalise.ts';

export interface Opaque {
  /** What it is, said on the page: "encrypted reasoning". */
  opaque: string;
  /** Its length in characters, as captured. */
  characters: number;
  /** FNV-1a of the captured value, hex: equal values, equal digests. */
  digest: string;
  /** The tokens the provider billed for it, when the capture records them. */
  tokens?: number;
}

/** 32-bit FNV-1a of a string's UTF-16 code units, as 8 hex digits (a digest for identity, not security). */
export function digestOf(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** The record an import stores in place of an opaque value. */
export function opaqueOf(what: string, value: string, tokens?: number): Opaque {
  return { opaque: what, characters: value.length, digest: digestOf(value), ...(tokens !== undefined && { tokens }) };
}

export function isOpaque(v: unknown): v is Opaque {
  return isObject(v) && typeof v.opaque === 'string' && typeof v.characters === 'number' && typeof v.digest === 'string';
}
