/**
 * The provider's own verdict on a request's cache miss, read from the response a capture keeps, in
 * the two documented shapes:
 * - `diagnostics.cache_miss_reason` on the response (a Claude Code transcript keeps the response as
 *   its line's `message`): `{type, cache_missed_input_tokens?}`, or null when the comparison found no
 *   divergence (platform.claude.com/docs/en/build-with-claude/cache-diagnostics, read 2026-12-06).
 * - `prompt_cache_diagnostics` on a Responses API response, when the request set
 *   `prompt_cache_options.comparison_response_id` (developers.openai.com/api/docs/guides/prompt-caching/diagnostics,
 *   read 2026-12-06: "Check prompt_cache_diagnostics on the current response. If diagnostics identify a
 *   cache miss, the result includes a reason"): a union on `type` — `cache_miss` with `reason` and
 *   `cache_missed_tokens` (and `comparison_reusable_tokens`), or `cache_hit`,
 *   `comparison_response_not_found`, `unavailable`. A miss is stored by its `reason`; a hit, like a null
 *   `cache_miss_reason`, is no miss; the other two by their `type` (they say nothing about the request).
 * A streamed response's verdict is read from the finished response its events carry (its adapter's
 * `streamResponse`, captures/http.ts: OpenAI Responses' `response.completed`). Stored on the
 * request's payload as `providerMiss`; a value in another shape is an error at its line, never
 * guessed at.
 */
import type { ProviderMiss } from '../providers/types.ts';
import type { InputError } from '../scenarios/errors.ts';
import { chunkPos, isObject, type Chunk } from './read.ts';

const FIX = 'import the response as the API returned it: diagnostics.cache_miss_reason is {"type": "messages_changed", "cache_missed_input_tokens": 1234} or null';

const DIAGNOSTICS_FIX =
  'import the response as the API returned it: prompt_cache_diagnostics is {"type": "cache_miss", "reason": "input_changed", "cache_missed_tokens": 1234} or {"type": "cache_hit"}';

const wholeCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** A Responses API response's `prompt_cache_diagnostics`, or undefined (none, or a hit). */
function promptCacheDiagnostics(d: unknown, c: Chunk, at: (string | number)[], file: string, errors: InputError[]): ProviderMiss | undefined {
  if (d === undefined || d === null) return undefined;
  const where = [...at, 'prompt_cache_diagnostics'];
  if (!isObject(d) || typeof d.type !== 'string' || d.type === '') {
    errors.push({ pos: chunkPos(c, where, file), message: '`prompt_cache_diagnostics` must be an object with a `type`', fix: DIAGNOSTICS_FIX });
    return undefined;
  }
  if (d.type === 'cache_hit') return undefined;
  if (d.type !== 'cache_miss') return { type: d.type };
  if (typeof d.reason !== 'string' || d.reason === '') {
    errors.push({ pos: chunkPos(c, [...where, 'reason'], file), message: 'a `cache_miss` in `prompt_cache_diagnostics` must say its `reason`', fix: DIAGNOSTICS_FIX });
    return undefined;
  }
  const tokens = d.cache_missed_tokens;
  if (tokens !== undefined && tokens !== null && !wholeCount(tokens)) {
    errors.push({
      pos: chunkPos(c, [...where, 'cache_missed_tokens'], file),
      message: `\`cache_missed_tokens\` must be a whole number of tokens, got ${JSON.stringify(tokens)}`,
      fix: DIAGNOSTICS_FIX,
    });
    return undefined;
  }
  return { type: d.reason, ...(wholeCount(tokens) && { missedInputTokens: tokens }) };
}

/** The verdict in `response` (at `at` in chunk `c`), or undefined when it carries none. */
export function providerMissOf(response: unknown, c: Chunk, at: (string | number)[], file: string, errors: InputError[]): ProviderMiss | undefined {
  if (isObject(response) && 'prompt_cache_diagnostics' in response) return promptCacheDiagnostics(response.prompt_cache_diagnostics, c, at, file, errors);
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
