/**
 * What the provider billed, read from a trace: a response's `usage` (or a GenAI span's usage
 * attributes) → one measured shape, `{inputTokens, cachedTokens?, cacheWriteTokens?}`, where
 * `inputTokens` is EVERY input token of the request (cached and written ones included) and a
 * figure the provider did not report is left out. Each format's mapping, with its sources, is its
 * adapter's `usage` (src/providers/<id>.ts); this module picks the adapter and names another
 * format's usage when a trace mixes them.
 *
 * Problems come back as issues with a path inside the usage value, never thrown; the caller
 * turns them into `file:line:col` errors.
 */
import { otelGenai } from '../providers/otel-genai.ts';
import { PROVIDERS, providerOf, type ProviderId as RequestFormat } from '../providers/registry.ts';
import type { MeasuredUsage, ProviderAdapter, UsageIssue } from '../providers/types.ts';
import { isObject } from './read.ts';

export type { MeasuredUsage, UsageIssue };
export { OTEL_USAGE } from '../providers/otel-genai.ts';

const adapters: readonly ProviderAdapter[] = PROVIDERS;

/**
 * A response usage object → measured figures, for requests of `format`. An issue when a figure
 * is not a token count, when the shape is another format's, or when the counts contradict each other.
 */
export function readUsage(format: RequestFormat, usage: unknown, issues: UsageIssue[]): MeasuredUsage | undefined {
  const adapter: ProviderAdapter = providerOf(format);
  const reader = adapter.usage!;
  if (!isObject(usage)) {
    issues.push({ path: [], message: 'the usage must be an object of token counts', fix: `write the response's \`usage\` as the API returned it: ${reader.shape}` });
    return undefined;
  }
  // Formats share field names (Anthropic and Responses both have `input_tokens`); the fields only one has tell them apart.
  const shape = reader.alsoReads?.(usage) ? adapter : adapters.find((p) => p.usage?.looksLike(usage));
  if (shape && shape !== adapter) {
    issues.push({
      path: [],
      message: `this is ${shape.usage!.shape.split(' (')[0]}, but the requests are ${adapter.title} requests`,
      fix: `give each request the usage of its own response: ${reader.shape}`,
    });
    return undefined;
  }
  return reader.read(usage, issues);
}

/** The figures a capture read as counts (an input count that includes its cached and written tokens), each optional one left out where it was not reported. */
export function measuredFrom(input: number, cached: number | undefined, written: number | undefined, output: number | undefined): MeasuredUsage {
  return {
    inputTokens: input,
    ...(cached !== undefined && { cachedTokens: cached }),
    ...(written !== undefined && { cacheWriteTokens: written }),
    ...(output !== undefined && { outputTokens: output }),
  };
}

/**
 * A span's usage attributes → measured figures; undefined (and no issue) when it carries none.
 * Issues name the attribute as their one-element path.
 */
export function readSpanUsage(attributes: ReadonlyMap<string, unknown>, issues: UsageIssue[]): MeasuredUsage | undefined {
  const u = Object.fromEntries(attributes);
  return otelGenai.usage!.looksLike(u) ? otelGenai.usage!.read(u, issues) : undefined;
}
