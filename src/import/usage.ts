/**
 * What the provider billed, read from a trace: a response's `usage` (or a GenAI span's usage
 * attributes) → one measured shape, `{inputTokens, cachedTokens?, cacheWriteTokens?}`, where
 * `inputTokens` is EVERY input token of the request (cached and written ones included) and a
 * figure the provider did not report is left out. Each provider counts differently, so each
 * shape has its own mapping (sources read 2026-12-02):
 *
 * - Anthropic Messages (platform.claude.com/docs/en/build-with-claude/prompt-caching, "Tracking
 *   cache performance"): `input_tokens` counts only the tokens after the last cache breakpoint —
 *   NOT the ones read or written — so inputTokens = input_tokens + cache_read_input_tokens +
 *   cache_creation_input_tokens; cachedTokens = cache_read_input_tokens; cacheWriteTokens =
 *   cache_creation_input_tokens, or the sum of its `cache_creation: {ephemeral_5m_input_tokens,
 *   ephemeral_1h_input_tokens}` breakdown (both given: they must agree). Absent or null read /
 *   creation counts are 0 (Anthropic's input_tokens already excludes them).
 * - OpenAI Chat Completions (developers.openai.com/api/docs/guides/prompt-caching): `prompt_tokens`
 *   INCLUDES the cached tokens → inputTokens = prompt_tokens; cachedTokens =
 *   prompt_tokens_details.cached_tokens; cacheWriteTokens = prompt_tokens_details.cache_write_tokens
 *   (reported by the GPT-5.6 family and later, whose writes are billed; left out when absent).
 * - OpenAI Responses: the same with `input_tokens` and `input_tokens_details.{cached_tokens,
 *   cache_write_tokens}`.
 * - OpenTelemetry GenAI spans, per the GenAI semantic conventions registry
 *   (github.com/open-telemetry/semantic-conventions-genai, main after PR #440, Aug 2026 — schema
 *   gen-ai/1.42.0; the group publishes no tagged release): `gen_ai.usage.input_tokens` (which
 *   SHOULD include cached and written tokens), `gen_ai.usage.cache_read.input_tokens`,
 *   `gen_ai.usage.cache_write.input_tokens`; the deprecated `gen_ai.usage.cache_creation.input_tokens`
 *   (semconv v1.40.0, renamed by #440) is read when the new name is absent.
 *
 * Problems come back as issues with a path inside the usage value, never thrown; the caller
 * turns them into `file:line:col` errors.
 */
import type { MeasuredUsage, RequestFormat } from '../folds/requests/schema.ts';
import { isObject } from './read.ts';

export type { MeasuredUsage };

export interface UsageIssue {
  /** Path inside the usage object (for OTLP: the attribute's key). */
  path: (string | number)[];
  message: string;
  fix: string;
  /** The issue is about a field's name, not its value. */
  key?: boolean;
}

type Obj = Record<string, unknown>;

/** The field that names each shape's input count, to tell a usage of another provider. */
const INPUT_KEY: Record<Exclude<RequestFormat, 'otel-genai'>, string> = {
  anthropic: 'input_tokens',
  'openai-chat': 'prompt_tokens',
  'openai-responses': 'input_tokens',
};
const NAMES: Record<Exclude<RequestFormat, 'otel-genai'>, string> = {
  anthropic: 'Anthropic Messages',
  'openai-chat': 'OpenAI Chat Completions',
  'openai-responses': 'OpenAI Responses',
};
const TITLES: Record<Exclude<RequestFormat, 'otel-genai'>, string> = {
  anthropic: 'an Anthropic Messages usage ({"input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"})',
  'openai-chat': 'an OpenAI Chat Completions usage ({"prompt_tokens", "prompt_tokens_details": {"cached_tokens"}})',
  'openai-responses': 'an OpenAI Responses usage ({"input_tokens", "input_tokens_details": {"cached_tokens"}})',
};

/** A token count at `path`: absent → undefined; null → null; else a whole number ≥ 0, or an issue. */
function countAt(o: Obj, key: string, path: (string | number)[], issues: UsageIssue[]): number | null | undefined {
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

function objectAt(o: Obj, key: string, path: (string | number)[], issues: UsageIssue[]): Obj | undefined {
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

function anthropicUsage(u: Obj, issues: UsageIssue[]): MeasuredUsage | undefined {
  const before = issues.length;
  const input = countAt(u, 'input_tokens', [], issues);
  const read = countAt(u, 'cache_read_input_tokens', [], issues) ?? 0;
  let created = countAt(u, 'cache_creation_input_tokens', [], issues);
  const breakdown = objectAt(u, 'cache_creation', [], issues);
  if (breakdown) {
    const m5 = countAt(breakdown, 'ephemeral_5m_input_tokens', ['cache_creation'], issues) ?? 0;
    const h1 = countAt(breakdown, 'ephemeral_1h_input_tokens', ['cache_creation'], issues) ?? 0;
    if (issues.length === before) {
      if (created === undefined || created === null) created = m5 + h1;
      else if (created !== m5 + h1)
        issues.push({
          path: ['cache_creation'],
          message: `\`cache_creation\` adds up to ${m5 + h1} tokens (5 min: ${m5}, 1 h: ${h1}), but \`cache_creation_input_tokens\` is ${created}`,
          fix: 'copy the usage exactly as the API returned it: cache_creation_input_tokens is the sum of ephemeral_5m_input_tokens and ephemeral_1h_input_tokens',
        });
    }
  }
  if (issues.length > before || input === undefined || input === null) return undefined;
  const writes = created ?? 0;
  return { inputTokens: input + read + writes, cachedTokens: read, cacheWriteTokens: writes };
}

/** OpenAI: the input count includes cached (and written) tokens; the details object holds them. */
function openaiUsage(u: Obj, inputKey: string, detailsKey: string, issues: UsageIssue[]): MeasuredUsage | undefined {
  const before = issues.length;
  const input = countAt(u, inputKey, [], issues);
  const details = objectAt(u, detailsKey, [], issues);
  const cached = details ? countAt(details, 'cached_tokens', [detailsKey], issues) : undefined;
  const writes = details ? countAt(details, 'cache_write_tokens', [detailsKey], issues) : undefined;
  if (issues.length > before || input === undefined || input === null) return undefined;
  const out: MeasuredUsage = { inputTokens: input };
  if (typeof cached === 'number') out.cachedTokens = cached;
  if (typeof writes === 'number') out.cacheWriteTokens = writes;
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

/**
 * A response usage object → measured figures, for requests of `format`. An issue when a figure
 * is not a token count, when the shape is another provider's, or when the counts contradict each other.
 */
export function readUsage(format: Exclude<RequestFormat, 'otel-genai'>, usage: unknown, issues: UsageIssue[]): MeasuredUsage | undefined {
  if (!isObject(usage)) {
    issues.push({ path: [], message: 'the usage must be an object of token counts', fix: `write the response's \`usage\` as the API returned it: ${TITLES[format]}` });
    return undefined;
  }
  const key = INPUT_KEY[format];
  // Anthropic and Responses usages share `input_tokens`; their other fields tell them apart.
  const shape: keyof typeof INPUT_KEY | undefined =
    'prompt_tokens' in usage || 'prompt_tokens_details' in usage
      ? 'openai-chat'
      : 'input_tokens_details' in usage
        ? 'openai-responses'
        : 'cache_read_input_tokens' in usage || 'cache_creation_input_tokens' in usage || 'cache_creation' in usage
          ? 'anthropic'
          : undefined;
  if (shape && shape !== format) {
    issues.push({
      path: [],
      message: `this is ${TITLES[shape].split(' (')[0]}, but the requests are ${NAMES[format]} requests`,
      fix: `give each request the usage of its own response: ${TITLES[format]}`,
    });
    return undefined;
  }
  if (!(key in usage)) {
    issues.push({ path: [], message: `this usage has no \`${key}\``, fix: `copy the response's usage as the API returned it: ${TITLES[format]}` });
    return undefined;
  }
  if (format === 'anthropic') return anthropicUsage(usage, issues);
  return format === 'openai-chat' ? openaiUsage(usage, 'prompt_tokens', 'prompt_tokens_details', issues) : openaiUsage(usage, 'input_tokens', 'input_tokens_details', issues);
}

/** The GenAI semantic conventions' usage attributes read from a span (see the header for the version). */
export const OTEL_USAGE = {
  input: 'gen_ai.usage.input_tokens',
  cacheRead: 'gen_ai.usage.cache_read.input_tokens',
  cacheWrite: 'gen_ai.usage.cache_write.input_tokens',
  /** Deprecated name of cacheWrite (renamed by semantic-conventions-genai#440); read when cacheWrite is absent. */
  cacheCreation: 'gen_ai.usage.cache_creation.input_tokens',
} as const;

/**
 * A span's usage attributes → measured figures; undefined (and no issue) when it carries none.
 * Issues name the attribute as their one-element path.
 */
export function readSpanUsage(attributes: ReadonlyMap<string, unknown>, issues: UsageIssue[]): MeasuredUsage | undefined {
  const keys = Object.values(OTEL_USAGE).filter((k) => attributes.has(k));
  if (!keys.length) return undefined;
  const before = issues.length;
  const attr = (key: string): number | undefined => {
    if (!attributes.has(key)) return undefined;
    const v = attributes.get(key);
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
    issues.push({
      path: [key],
      message: `\`${key}\` must be a whole number of tokens (0 or more), got ${JSON.stringify(v)}`,
      fix: 'record it as an int attribute ({"intValue": "1024"})',
    });
    return undefined;
  };
  const input = attr(OTEL_USAGE.input);
  const read = attr(OTEL_USAGE.cacheRead);
  const writes = attributes.has(OTEL_USAGE.cacheWrite) ? attr(OTEL_USAGE.cacheWrite) : attr(OTEL_USAGE.cacheCreation);
  if (issues.length > before) return undefined;
  if (input === undefined) {
    issues.push({
      path: [keys[0]!],
      message: `this span has \`${keys[0]}\` but no \`${OTEL_USAGE.input}\``,
      fix: `record ${OTEL_USAGE.input} (all input tokens, cached ones included) on inference spans, or none of the usage attributes`,
    });
    return undefined;
  }
  if ((read ?? 0) + (writes ?? 0) > input) {
    issues.push({
      path: [OTEL_USAGE.input],
      message: `\`${OTEL_USAGE.input}\` (${input}) is less than the cache read + write tokens (${(read ?? 0) + (writes ?? 0)}): the instrumentation reports the provider's uncached count (Anthropic's input_tokens), not the convention's total`,
      fix: `upgrade the instrumentation to one that follows the current GenAI conventions (${OTEL_USAGE.input} includes cached and written tokens), or add the cache tokens to it before importing`,
    });
    return undefined;
  }
  return { inputTokens: input, ...(read !== undefined && { cachedTokens: read }), ...(writes !== undefined && { cacheWriteTokens: writes }) };
}
