/**
 * OpenTelemetry GenAI spans: the adapter. The OTLP importer (src/import/otlp.ts) turns each
 * inference span into a body `{model, system_instructions?, input_messages, tool_definitions?}`
 * per the GenAI semantic conventions (opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/,
 * read 2026-12-01). No wire view (a span is a record of a request, not an API), no cache rules of
 * its own (the model's provider caches it). Usage is read from the span's attributes, per the
 * GenAI semantic conventions registry (github.com/open-telemetry/semantic-conventions-genai, main
 * after PR #440, Aug 2026 — schema gen-ai/1.42.0; no tagged release): `gen_ai.usage.input_tokens`
 * (which SHOULD include cached and written tokens), `gen_ai.usage.cache_read.input_tokens`,
 * `gen_ai.usage.cache_write.input_tokens`; the deprecated `gen_ai.usage.cache_creation.input_tokens`
 * (semconv v1.40.0, renamed by #440) is read when the new name is absent; `gen_ai.usage.output_tokens`
 * → outputTokens. Older names, read when the current one is absent (OTEL_USAGE_LEGACY):
 * `gen_ai.usage.prompt_tokens` / `completion_tokens` (semconv ≤ 1.26, renamed to input / output
 * tokens in 1.27), and OpenLLMetry's `gen_ai.usage.cache_read_input_tokens` /
 * `cache_creation_input_tokens` (github.com/traceloop/openllmetry, the Anthropic instrumentation's
 * `_set_token_usage`, read 2026-12-06, records `input_tokens` as uncached + read + written, the
 * convention's meaning; an input count below the cache counts is refused as today).
 */
import * as z from 'zod';
import { message, partsText, toolsMessage, fnTool, type Obj } from './shared/normalise.ts';
import type { MeasuredUsage, NormalMessage, ProviderAdapter, UsageIssue } from './types.ts';

const str = z.string();
const typed = z.looseObject({ type: str.min(1) });
const otelMessage = z.looseObject({ role: str.min(1), parts: z.array(typed) });
type OtelMessage = z.infer<typeof otelMessage>;

/** The GenAI semantic conventions' usage attributes read from a span (see the header for the version). */
export const OTEL_USAGE = {
  input: 'gen_ai.usage.input_tokens',
  cacheRead: 'gen_ai.usage.cache_read.input_tokens',
  cacheWrite: 'gen_ai.usage.cache_write.input_tokens',
  /** Deprecated name of cacheWrite (renamed by semantic-conventions-genai#440); read when cacheWrite is absent. */
  cacheCreation: 'gen_ai.usage.cache_creation.input_tokens',
  /** Output tokens (reasoning included). */
  output: 'gen_ai.usage.output_tokens',
} as const;

/** Older names of the usage attributes, each read when the current one is absent (see the header). */
export const OTEL_USAGE_LEGACY = {
  input: 'gen_ai.usage.prompt_tokens',
  output: 'gen_ai.usage.completion_tokens',
  cacheRead: 'gen_ai.usage.cache_read_input_tokens',
  cacheWrite: 'gen_ai.usage.cache_creation_input_tokens',
} as const;

/** A span's usage attributes (as an object by attribute key) → measured figures; issues name the attribute as the span spells it. */
function readSpanUsage(given: Obj, issues: UsageIssue[]): MeasuredUsage | undefined {
  // An empty string is no count: Mirascope's `with_otel` writes "" for one the response did not report
  // (github.com/Mirascope/mirascope `mirascope/integrations/otel/_utils.py` at 5971c07, read 2026-12-06).
  const usageKeys = new Set<string>([...Object.values(OTEL_USAGE), ...Object.values(OTEL_USAGE_LEGACY)]);
  const attributes: Obj = Object.fromEntries(Object.entries(given).filter(([k, v]) => !(v === '' && usageKeys.has(k))));
  // An older name stands in for the current one it was renamed to, when the current one is absent.
  const spelled = new Map<string, string>();
  for (const [figure, old] of Object.entries(OTEL_USAGE_LEGACY)) {
    const current = OTEL_USAGE[figure as keyof typeof OTEL_USAGE_LEGACY];
    const taken = figure === 'cacheWrite' ? current in attributes || OTEL_USAGE.cacheCreation in attributes : current in attributes;
    if (old in attributes && !taken) {
      attributes[current] = attributes[old];
      spelled.set(current, old);
    }
  }
  const before = issues.length;
  const measured = readCurrent(attributes, issues);
  for (const issue of issues.slice(before)) {
    const old = spelled.get(String(issue.path[0]));
    if (old) issue.path = [old, ...issue.path.slice(1)];
    for (const [current, name] of spelled) issue.message = issue.message.replaceAll(`\`${current}\``, `\`${name}\``);
  }
  return measured;
}

/** The usage attributes under their current names → measured figures. */
function readCurrent(attributes: Obj, issues: UsageIssue[]): MeasuredUsage | undefined {
  const keys = Object.values(OTEL_USAGE).filter((k) => k !== OTEL_USAGE.output && k in attributes);
  // Output tokens alone are no input figures to compare with the model: nothing is measured.
  if (!keys.length) return undefined;
  const before = issues.length;
  const attr = (key: string): number | undefined => {
    if (!(key in attributes)) return undefined;
    const v = attributes[key];
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
  const output = attr(OTEL_USAGE.output);
  const writes = OTEL_USAGE.cacheWrite in attributes ? attr(OTEL_USAGE.cacheWrite) : attr(OTEL_USAGE.cacheCreation);
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
  return {
    inputTokens: input,
    ...(read !== undefined && { cachedTokens: read }),
    ...(writes !== undefined && { cacheWriteTokens: writes }),
    ...(output !== undefined && { outputTokens: output }),
  };
}

function normalise(body: Obj): NormalMessage[] {
  const out = toolsMessage(body.tool_definitions, (t) => (t.type === 'function' ? fnTool(t.name, t.description, t.parameters) : undefined));
  for (const p of (body.system_instructions as Obj[] | undefined) ?? []) out.push(message('system', partsText([p], ['text'], 'content', {})));
  for (const m of body.input_messages as OtelMessage[]) out.push(message(m.role, partsText(m.parts, ['text'], 'content', { tool_call_response: 'response' })));
  return out;
}

export const otelGenai: ProviderAdapter<'otel-genai'> = {
  id: 'otel-genai',
  title: 'OpenTelemetry GenAI span',
  importName: 'otlp',
  provider: 'opentelemetry',
  messageList: 'input_messages',
  schema: z.strictObject({
    model: str.min(1),
    system_instructions: z.array(typed).optional(),
    input_messages: z.array(otelMessage).min(1),
    tool_definitions: z.array(z.unknown()).optional(),
  }),
  normalise,
  usage: {
    shape: 'GenAI span usage attributes (gen_ai.usage.input_tokens, gen_ai.usage.cache_read.input_tokens, gen_ai.usage.cache_write.input_tokens)',
    looksLike: (u) => [...Object.values(OTEL_USAGE), ...Object.values(OTEL_USAGE_LEGACY)].some((k) => k in u),
    read: readSpanUsage,
  },
  defaultBreakpoints: () => [],
  catalog: [],
  cacheStrategies: [],
};
