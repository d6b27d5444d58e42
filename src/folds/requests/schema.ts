/**
 * Payload schema of the `requests` fold's one event type, `request/sent`: `{format, body}` where
 * `body` is a provider request body as it was sent. Bodies are validated for what the fold reads
 * (the model, the messages and their content, the tool list) and nothing else: a real request
 * carries sampling parameters, metadata and provider extensions that do not reach the prompt, so
 * unknown fields of a body are allowed, while the payload itself is strict.
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

const payload = z.strictObject({ format: z.enum(FORMATS), body: z.record(str, z.unknown()) });

export interface SentPayload {
  format: RequestFormat;
  body: Record<string, unknown>;
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
  const bodyIssues = schemaIssues(BODY_SCHEMAS[p.format], p.body).map((i) => ({ ...i, path: ['body', ...i.path] }));
  if (bodyIssues.length) return bodyIssues;
  return p.format === 'openai-responses' ? responsesRules(p.body as { input: unknown }) : [];
}
