/**
 * OpenAI GPT-5.6 explicit cache breakpoints, shared by both OpenAI mappings: a message whose text
 * a breakpoint ends in (or at the end of) is sent as content parts, split where the breakpoint
 * falls, the part that ends there carrying `prompt_cache_breakpoint: {mode: "explicit"}`. The
 * contract's `ttl` ('5m' / '1h', Anthropic's) is not one OpenAI offers (its breakpoints take 30 min
 * or 12 h, default the request's), so it is not sent. OpenAI accepts the marker on input content
 * only: a breakpoint on an assistant message or in the tool list is not sent (the reference page
 * says so, with its sources: OpenAI's prompt caching guide,
 * https://developers.openai.com/api/docs/guides/prompt-caching, read 2026-12-02; the field's shape
 * and "not on assistant output" from secondary sources it names).
 */
import type { Json, JsonObject } from '../types.ts';
import { segments, type Cut } from '../shared/split.ts';

export const EXPLICIT_BREAKPOINT: JsonObject = { mode: 'explicit' };

/**
 * The content of a message with breakpoints `cuts` as parts of `partType`, or undefined when no
 * breakpoint falls in it (the message keeps its string content). A breakpoint at the very start
 * belongs to the message before (`atStart` tells the caller).
 */
export function markedParts(text: string, cuts: readonly Cut[], partType: string): { parts?: JsonObject[]; atStart: boolean } {
  const atStart = cuts.some((c) => c.end === 0 || text === '');
  const kept = cuts.filter((c) => c.end > 0 && text !== '');
  if (!kept.length) return { atStart };
  const parts: JsonObject[] = segments(text, kept)
    .filter((s) => s.text !== '')
    .map((s) => ({ type: partType, text: s.text, ...(s.cut && { prompt_cache_breakpoint: EXPLICIT_BREAKPOINT }) }));
  if (kept.some((c) => c.end >= text.length)) parts.at(-1)!.prompt_cache_breakpoint = EXPLICIT_BREAKPOINT;
  return { parts, atStart };
}

/** Marks the end of an already written content value (a string becomes one part). */
export function markEnd(content: Json, partType: string): Json {
  if (typeof content === 'string') return content === '' ? content : [{ type: partType, text: content, prompt_cache_breakpoint: EXPLICIT_BREAKPOINT }];
  if (Array.isArray(content) && content.length) {
    const lastPart = content.at(-1);
    if (lastPart && typeof lastPart === 'object' && !Array.isArray(lastPart)) lastPart.prompt_cache_breakpoint = EXPLICIT_BREAKPOINT;
  }
  return content;
}
