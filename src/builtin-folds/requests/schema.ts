/**
 * Payload schema of the `requests` fold's one event type, `request/sent`: `{format, body}` where
 * `body` is a provider request body as it was sent, and `format` names its adapter
 * (src/providers/registry.ts). Bodies are validated by the adapter's schema and rules, for what the
 * fold reads (the model, the messages and their content, the tool list) and nothing else: a real
 * request carries sampling parameters, metadata and provider extensions that do not reach the
 * prompt, so unknown fields of a body are allowed, while the payload itself is strict.
 *
 * A request that extends the previous one may be written as `extends:` instead of `body:` — only
 * what it adds (AUTHORED; resolve.ts rebuilds the whole body before validation, so everything after
 * the loader reads `{format, body}`).
 *
 * `measured` (optional) is what the provider reported it billed for this request — the response's
 * usage as `npm run import` normalised it (src/import/usage.ts): all input tokens, those read from
 * the cache, those written to it, and the output tokens. A figure the provider did not report is
 * left out. The fold never
 * reads it; the economics compare it with their model (src/economics/measured.ts).
 * `unrecorded` (optional) lists what the provider received that the capture did not record (a
 * capture's `missing`: a Claude Code transcript holds no system prompt or tool definitions), so the
 * economics explain a billed figure the body cannot account for by that first.
 */
import * as z from 'zod';
import type { Issue } from '../../folds/types.ts';
import { bodyIssues, PROVIDER_IDS, type ProviderId } from '../../providers/registry.ts';
import type { MeasuredUsage, ProviderMiss } from '../../providers/types.ts';
import { DELTA } from '../../providers/body-delta.ts';
import { locateInDelta } from './resolve.ts';

/** The formats a payload may name: the registered provider adapters' ids (src/providers/registry.ts). */
export const FORMATS = PROVIDER_IDS;
export type RequestFormat = ProviderId;

const str = z.string();
const count = z.int().nonnegative();
const measured: z.ZodType<MeasuredUsage> = z.strictObject({
  inputTokens: count.meta({ description: 'Every input token of the request, cached and written ones included.' }),
  cachedTokens: count.optional().meta({ description: 'Input tokens read from the cache (left out: not reported).' }),
  cacheWriteTokens: count.optional().meta({ description: 'Input tokens written to the cache (left out: not reported).' }),
  cacheWrite1hTokens: count.optional().meta({ description: 'Of cacheWriteTokens, those written with a 1-hour retention (left out: not reported).' }),
  outputTokens: count.optional().meta({ description: 'Output tokens billed, reasoning included (left out: not reported).' }),
});
export type { MeasuredUsage };

export const PAYLOAD = z.strictObject({
  format: z.enum(FORMATS),
  measured: measured.optional().meta({ description: 'What the provider billed (the response usage, normalised on import).' }),
  providerMiss: z
    .strictObject({
      type: str.min(1).meta({ description: 'The provider’s reason, as it wrote it (e.g. model_changed, system_changed, tools_changed, messages_changed, …).' }),
      missedInputTokens: count.optional().meta({ description: 'Input tokens the provider says the miss cost.' }),
    })
    .optional()
    .meta({ description: 'The provider’s own verdict on a cache miss of this request (its cache diagnostics, e.g. diagnostics.cache_miss_reason), imported beside `measured`.' }),
  unrecorded: z
    .array(str.min(1))
    .optional()
    .meta({ description: 'What the provider received that the capture did not record (e.g. "the tool definitions"): the billed usage counts it, the body does not hold it.' }),
  body: z.record(str, z.unknown()),
});

/**
 * The payload as written: the whole `body`, or `extends:` — what the request adds to the previous
 * request of the stream (src/providers/body-delta.ts; resolve.ts rebuilds the body before validation).
 */
export const AUTHORED = z.union([
  PAYLOAD,
  // Every field of the whole form but `body` (an import writes `unrecorded` and `providerMiss` beside `extends:` too).
  PAYLOAD.omit({ body: true }).extend({
    extends: DELTA.meta({
      description: 'What this request adds to the previous request of the stream (its body rebuilt from that one’s): kept and appended messages, changed top-level fields.',
    }),
  }),
]);

export interface SentPayload {
  format: RequestFormat;
  measured?: MeasuredUsage;
  /** What the capture did not record of the request (a Claude Code transcript: the system prompt and tools). */
  unrecorded?: string[];
  /** The provider's verdict on a cache miss of this request (economics/provider-verdict.ts compares it with ours). */
  providerMiss?: ProviderMiss;
  body: Record<string, unknown>;
}

/** Measured figures are parts of the input: what was read and written cannot exceed it. */
function measuredRules(m: MeasuredUsage | undefined): Issue[] {
  if (!m) return [];
  const parts = (m.cachedTokens ?? 0) + (m.cacheWriteTokens ?? 0);
  if (m.cacheWrite1hTokens !== undefined && m.cacheWrite1hTokens > (m.cacheWriteTokens ?? 0))
    return [
      {
        path: ['measured', 'cacheWrite1hTokens'],
        message: `\`measured.cacheWrite1hTokens\` (${m.cacheWrite1hTokens}) is more than cacheWriteTokens (${m.cacheWriteTokens ?? 0}): the 1-hour writes are part of the writes`,
        fix: "write every cache write in cacheWriteTokens and the 1-hour ones among them in cacheWrite1hTokens (a usage's 1-hour cache writes, e.g. cache_creation.ephemeral_1h_input_tokens), or re-import the trace",
      },
    ];
  if (parts <= m.inputTokens) return [];
  return [
    {
      path: ['measured', 'inputTokens'],
      message: `\`measured.inputTokens\` (${m.inputTokens}) is less than cachedTokens + cacheWriteTokens (${parts}): it counts every input token, cached and written ones included`,
      fix: "write the request's total input tokens in inputTokens (a usage that counts cache reads and writes apart: its input_tokens + cache_read_input_tokens + cache_creation_input_tokens), or re-import the trace",
    },
  ];
}

/**
 * What the payload's schema cannot say (defineFold's `checkEvent`): the measured figures add up, and
 * the body is one its adapter reads — for a body rebuilt from `extends:`, each problem located where
 * the delta writes that part (resolve.ts).
 */
export function payloadRules(_type: string, value: unknown): Issue[] {
  const p = value as SentPayload;
  const usageIssues = measuredRules(p.measured);
  if (usageIssues.length) return usageIssues;
  return bodyIssues(p.format, p.body).map((i) => locateInDelta(p, { ...i, path: ['body', ...i.path] }));
}
