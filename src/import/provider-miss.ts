/**
 * The provider's own verdict on a request's cache miss, read from the response a capture keeps:
 * Anthropic's cache diagnostics — `diagnostics.cache_miss_reason` on the response (a Claude Code
 * transcript keeps the response as its line's `message`), `{type, cache_missed_input_tokens?}`, or
 * null when the comparison found no divergence (platform.claude.com/docs/en/build-with-claude/
 * cache-diagnostics, read 2026-12-06). Stored on the request's payload as `providerMiss`; a value
 * in another shape is an error at its line, never guessed at.
 */
import type { ProviderMiss } from '../providers/types.ts';
import type { InputError } from '../scenarios/errors.ts';
import { chunkPos, isObject, type Chunk } from './read.ts';

const FIX = 'import the response as the API returned it: diagnostics.cache_miss_reason is {"type": "messages_changed", "cache_missed_input_tokens": 1234} or null';

/** The verdict in `response` (at `at` in chunk `c`), or undefined when it carries none. */
export function providerMissOf(response: unknown, c: Chunk, at: (string | number)[], file: string, errors: InputError[]): ProviderMiss | undefined {
  if (!isObject(response) || !isObject(response.diagnostics)) return undefined;
  const reason = response.diagnostics.cache_miss_reason;
  if (reason === undefined || reason === null) return undefined;
  const where = [...at, 'diagnostics', 'cache_miss_reason'];
  if (!isObject(reason) || typeof reason.type !== 'string' || reason.type === '') {
    errors.push({ pos: chunkPos(c, where, file), message: '`diagnostics.cache_miss_reason` must be an object with a `type`', fix: FIX });
    return undefined;
  }
  const tokens = reason.cache_missed_input_tokens;
  if (tokens !== undefined && tokens !== null && !(typeof tokens === 'number' && Number.isInteger(tokens) && tokens >= 0)) {
    errors.push({
      pos: chunkPos(c, [...where, 'cache_missed_input_tokens'], file),
      message: `\`cache_missed_input_tokens\` must be a whole number of tokens, got ${JSON.stringify(tokens)}`,
      fix: FIX,
    });
    return undefined;
  }
  return { type: reason.type, ...(typeof tokens === 'number' && { missedInputTokens: tokens }) };
}
