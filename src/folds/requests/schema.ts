/**
 * Payload schema of the `requests` fold's one event type, `request/sent`: `{format, body}` where
 * `body` is a provider request body as it was sent. Bodies are validated for what the fold reads
 * (the model, the messages and their content, the tool list) and nothing else: a real request
 * carries sampling parameters, metadata and provider extensions that do not reach the prompt, so
 * unknown fields of a body are allowed, while the payload itself is strict.
 *
 * `measured` (optional) is what the provider reported it billed for this request — the response's
 * usage as `npm run import` normalised it (src/import/usage.ts): all input tokens, those read from
 * the cache, those written to it. A figure the provider did not report is left out. The fold never
 * reads it; the economics compare it with their model (src/economics/measured.ts).
 */
import * as z from 'zod';
import { schemaIssues } from '../validate.ts';
import type { Issue } from '../types.ts';

export const FORMATS = ['openai-chat', 'openai-responses', 'anthropic', 'otel-genai'] as const;
export type RequestFormat = (typeof FORMATS)[number];

const str = z.string();
const model = str.min(1);
/** A typed content part / block / item: its `type` is all the fold needs to know to print it. */
const typed = z.looseObject({ type: str.min(1) });

const chatMessage = z.looseObject({
  role: str.min(1),
  content: z.union([str, z.array(typed), z.null()]).optional(),
  tool_calls: z.array(z.looseObject({ id: str.optional(), type: str.optional(), function: z.looseObject({ name: str, arguments: str.optional() }).optional() })).optional(),
  tool_call_id: str.optional(),
});
export type ChatMessage = z.infer<typeof chatMessage>;

const responsesItem = z.looseObject({
  type: str.min(1).optional(),
  role: str.min(1).optional(),
  content: z.union([str, z.array(typed)]).optional(),
});
export type ResponsesItem = z.infer<typeof responsesItem>;

const anthropicMessage = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.union([str, z.array(typed)]),
});
export type AnthropicMessage = z.infer<typeof anthropicMessage>;

const otelMessage = z.looseObject({ role: str.min(1), parts: z.array(typed) });
export type OtelMessage = z.infer<typeof otelMessage>;

export const BODY_SCHEMAS: Record<RequestFormat, z.ZodType> = {
  'openai-chat': z.looseObject({ model, messages: z.array(chatMessage).min(1), tools: z.array(z.unknown()).optional() }),
  'openai-responses': z.looseObject({
    model,
    instructions: z.union([str, z.null()]).optional(),
    input: z.union([str, z.array(responsesItem).min(1)]),
    tools: z.array(z.unknown()).optional(),
  }),
  anthropic: z.looseObject({
    model,
    system: z.union([str, z.array(z.looseObject({ type: z.literal('text'), text: str }))]).optional(),
    messages: z.array(anthropicMessage).min(1),
    tools: z.array(z.unknown()).optional(),
  }),
  'otel-genai': z.strictObject({
    model,
    system_instructions: z.array(typed).optional(),
    input_messages: z.array(otelMessage).min(1),
    tool_definitions: z.array(z.unknown()).optional(),
  }),
};

const count = z.int().nonnegative();
const measured = z.strictObject({
  inputTokens: count.meta({ description: 'Every input token of the request, cached and written ones included.' }),
  cachedTokens: count.optional().meta({ description: 'Input tokens read from the cache (left out: not reported).' }),
  cacheWriteTokens: count.optional().meta({ description: 'Input tokens written to the cache (left out: not reported).' }),
});
export type MeasuredUsage = z.infer<typeof measured>;

const payload = z.strictObject({
  format: z.enum(FORMATS),
  measured: measured.optional().meta({ description: 'What the provider billed (the response usage, normalised on import).' }),
  body: z.record(str, z.unknown()),
});

export interface SentPayload {
  format: RequestFormat;
  measured?: MeasuredUsage;
  body: Record<string, unknown>;
}

/** Measured figures are parts of the input: what was read and written cannot exceed it. */
function measuredRules(m: MeasuredUsage | undefined): Issue[] {
  if (!m) return [];
  const parts = (m.cachedTokens ?? 0) + (m.cacheWriteTokens ?? 0);
  if (parts <= m.inputTokens) return [];
  return [
    {
      path: ['measured', 'inputTokens'],
      message: `\`measured.inputTokens\` (${m.inputTokens}) is less than cachedTokens + cacheWriteTokens (${parts}): it counts every input token, cached and written ones included`,
      fix: "write the request's total input tokens in inputTokens (an Anthropic usage's input_tokens + cache_read_input_tokens + cache_creation_input_tokens), or re-import the trace",
    },
  ];
}

/** Rules a schema cannot say: a Responses input item is a message (has a role) or has a type. */
function responsesRules(body: { input: unknown }): Issue[] {
  if (!Array.isArray(body.input)) return [];
  return (body.input as ResponsesItem[]).flatMap((item, i) =>
    item.role === undefined && item.type === undefined
      ? [
          {
            path: ['body', 'input', i],
            message: `input item ${i} has neither \`role\` nor \`type\``,
            fix: 'give a message its `role` (user, assistant, system, developer), or another item its `type`',
          },
        ]
      : [],
  );
}

export function validatePayload(type: string, value: unknown): Issue[] {
  if (type !== 'request/sent') return [{ path: [], message: `unknown event type \`${type}\``, fix: 'use `request/sent`' }];
  const issues = schemaIssues(payload, value);
  if (issues.length) return issues;
  const p = value as SentPayload;
  const usageIssues = measuredRules(p.measured);
  if (usageIssues.length) return usageIssues;
  const bodyIssues = schemaIssues(BODY_SCHEMAS[p.format], p.body).map((i) => ({ ...i, path: ['body', ...i.path] }));
  if (bodyIssues.length) return bodyIssues;
  return p.format === 'openai-responses' ? responsesRules(p.body as { input: unknown }) : [];
}
