/**
 * Reading a response usage's token counts, for every adapter's `usage`: a count is a whole number
 * ≥ 0 (absent → undefined, null → null), a details object is an object; anything else is an issue
 * with its path inside the usage, never thrown. OpenAI's two formats share `openaiUsage`: the input
 * count INCLUDES the cached and written tokens, which its details object holds
 * (developers.openai.com/api/docs/guides/prompt-caching).
 */
import type { MeasuredUsage, UsageIssue } from '../types.ts';
import { isObject, type Obj } from './normalise.ts';

/** A token count at `key`: absent → undefined; null → null; else a whole number ≥ 0, or an issue. */
export function countAt(o: Obj, key: string, path: (string | number)[], issues: UsageIssue[]): number | null | undefined {
  if (!(key in o)) return undefined;
  const v = o[key];
  if (v === null) return null;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  issues.push({
    path: [...path, key],
    message: `\`${key}\` must be a whole number of tokens (0 or more), got ${JSON.stringify(v)}`,
    fix: `write the count the provider returned, e.g. "${key}": 1024 — or leave \`${key}\` out if it was not reported`,
  });
  return undefined;
}

export function objectAt(o: Obj, key: string, path: (string | number)[], issues: UsageIssue[]): Obj | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (isObject(v)) return v;
  issues.push({
    path: [...path, key],
    message: `\`${key}\` must be an object of token counts`,
    fix: `write it as the provider returned it, e.g. "${key}": {"cached_tokens": 0}, or leave it out`,
  });
  return undefined;
}

/**
 * OpenAI: the input count includes cached (and written) tokens; the details object holds them. The
 * output count (`outputKey`) includes reasoning tokens, which are billed as output.
 */
export function openaiUsage(u: Obj, inputKey: string, detailsKey: string, outputKey: string, issues: UsageIssue[]): MeasuredUsage | undefined {
  const before = issues.length;
  const input = countAt(u, inputKey, [], issues);
  const output = countAt(u, outputKey, [], issues);
  const details = objectAt(u, detailsKey, [], issues);
  const cached = details ? countAt(details, 'cached_tokens', [detailsKey], issues) : undefined;
  const writes = details ? countAt(details, 'cache_write_tokens', [detailsKey], issues) : undefined;
  if (issues.length > before || input === undefined || input === null) return undefined;
  const out: MeasuredUsage = { inputTokens: input };
  if (typeof cached === 'number') out.cachedTokens = cached;
  if (typeof writes === 'number') out.cacheWriteTokens = writes;
  if (typeof output === 'number') out.outputTokens = output;
  if ((out.cachedTokens ?? 0) + (out.cacheWriteTokens ?? 0) > input) {
    issues.push({
      path: [inputKey],
      message: `\`${inputKey}\` (${input}) is less than ${detailsKey}.cached_tokens + cache_write_tokens (${(out.cachedTokens ?? 0) + (out.cacheWriteTokens ?? 0)}), but OpenAI counts cached and written tokens inside ${inputKey}`,
      fix: 'copy the usage exactly as the API returned it (a proxy that rewrote it into another provider’s counts cannot be read as OpenAI usage)',
    });
    return undefined;
  }
  return out;
}

/** A usage that lacks the format's input count: an issue naming the shape to copy. */
export function requireKey(u: Obj, key: string, shape: string, issues: UsageIssue[]): boolean {
  if (key in u) return true;
  issues.push({ path: [], message: `this usage has no \`${key}\``, fix: `copy the response's usage as the API returned it: ${shape}` });
  return false;
}
