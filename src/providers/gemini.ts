/**
 * Google Gemini generateContent (the Gemini API and Vertex AI): the adapter. A body has
 * `contents` of `user` / `model` turns made of `parts` (`{text}`, `{functionCall}`,
 * `{functionResponse}`, `{inlineData}` …), an optional `systemInstruction` (`{parts}`),
 * `tools[].functionDeclarations`, and may name an explicit cache (`cachedContent:
 * "cachedContents/…"`) whose content — a prefix of the prompt — is not in the body: it reads as one
 * leading message naming the cache, and the bill's `cachedContentTokenCount` says how many tokens it
 * held. No cache markers: caching is implicit (gemini/cache.ts). The model is in the URL: a captured
 * body carries it as `model` (the SDKs' shape; npm run import puts a wrapped line's `"model"` there).
 * Usage (`usageMetadata`): `promptTokenCount` INCLUDES `cachedContentTokenCount`, which — like every
 * count at 0 — the response leaves out when nothing was read from the cache: proto3's JSON mapping
 * omits a field at its default value, and reads a missing or null one as that default
 * (protobuf.dev/programming-guides/proto3/#json, read 2026-12-07).
 *
 * What the API accepts beyond the reference's spelling, read as it reads it: a field under its
 * original proto name (`system_instruction`, `function_declarations`, `parameters_json_schema`,
 * `cached_content`, `tool_config`) as well as its lowerCamelCase JSON name — proto3's JSON mapping:
 * "Parsers accept both the lowerCamelCase name … and the original proto field name"
 * (protobuf.dev/programming-guides/proto3/#json, read 2026-12-06); and `tools` as one Tool object
 * instead of the reference's list (ai.google.dev/api/generate-content: `tools[]`), which is how
 * pydantic-ai's GeminiModel sends it (pydantic_ai_slim/pydantic_ai/models/gemini.py `_GeminiTools`,
 * before its V2) and which the API answered with 200 in that project's recorded calls
 * (tests/models/cassettes/test_gemini/, read 2026-12-06).
 */
import * as z from 'zod';
import { GEMINI_CATALOG, GEMINI_FALLBACK, GEMINI_RULES } from './gemini/catalog.ts';
import { geminiImplicitCache } from './gemini/cache.ts';
import { GEMINI_WIRE } from './gemini/wire.ts';
import { geminiRecorded } from './gemini/recorded.ts';
import { fnTool, isObject, tagged, toolsMessage, type Obj } from './shared/normalise.ts';
import { countAt, requireKey } from './shared/usage.ts';
import type { MeasuredUsage, NormalMessage, ProviderAdapter, UsageIssue } from './types.ts';

const str = z.string();
const part = z.record(str, z.unknown());
const content = z.looseObject({ role: z.enum(['user', 'model']).optional(), parts: z.array(part).min(1) });
type Content = z.infer<typeof content>;
const instruction = z.looseObject({ parts: z.array(part) });
const tool = z.looseObject({});

/** The role a neutral message gets for a Gemini role. */
const roleOf = (r: string | undefined): string => (r === 'model' ? 'assistant' : 'user');

function partText(p: Obj): string {
  if (typeof p.text === 'string') return p.text;
  const [kind] = Object.keys(p);
  if (kind === undefined) return '[]';
  return tagged(kind, isObject(p[kind]) ? (p[kind] as Obj) : { value: p[kind] });
}

/** A field's original proto name (`systemInstruction` → `system_instruction`). */
const protoName = (camel: string): string => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A field by its JSON name, else its original proto name: the API reads both. */
const field = (o: Obj, camel: string): unknown => o[camel] ?? o[protoName(camel)];

/** The request's Tool objects: its list, or the one object it sent. */
const toolsOf = (body: Obj): unknown[] => (Array.isArray(body.tools) ? body.tools : isObject(body.tools) ? [body.tools] : []);

function normalise(body: Obj): NormalMessage[] {
  const declarations = toolsOf(body).flatMap((t) => {
    const d = isObject(t) ? field(t, 'functionDeclarations') : undefined;
    return Array.isArray(d) ? d : [];
  });
  const out = toolsMessage(declarations, (t) => fnTool(t.name, t.description, t.parameters ?? field(t, 'parametersJsonSchema')));
  const cached = field(body, 'cachedContent');
  if (typeof cached === 'string') out.push({ role: 'system', text: tagged('cachedContent', { name: cached }) });
  const system = field(body, 'systemInstruction');
  if (isObject(system) && Array.isArray(system.parts)) out.push({ role: 'system', text: (system.parts as Obj[]).map(partText).join('\n') });
  for (const c of body.contents as Content[]) out.push({ role: roleOf(c.role), text: c.parts.map(partText).join('\n') });
  return out;
}

const SHAPE = 'a Gemini usageMetadata ({"promptTokenCount", "cachedContentTokenCount", "candidatesTokenCount"})';

function readUsage(u: Obj, issues: UsageIssue[]): MeasuredUsage | undefined {
  if (!requireKey(u, 'promptTokenCount', SHAPE, issues)) return undefined;
  const before = issues.length;
  const prompt = countAt(u, 'promptTokenCount', [], issues);
  const cached = countAt(u, 'cachedContentTokenCount', [], issues);
  const candidates = countAt(u, 'candidatesTokenCount', [], issues);
  const thoughts = countAt(u, 'thoughtsTokenCount', [], issues);
  if (issues.length > before || prompt === undefined || prompt === null) return undefined;
  if ((cached ?? 0) > prompt) {
    issues.push({
      path: ['cachedContentTokenCount'],
      message: `cachedContentTokenCount (${cached}) is more than promptTokenCount (${prompt}), but Gemini counts the cached tokens inside the prompt`,
      fix: 'copy the usageMetadata exactly as the API returned it',
    });
    return undefined;
  }
  // promptTokenCount includes the cached tokens (GEMINI_RULES.promptIncludesCached); no write is billed;
  // thinking tokens bill as output (the pricing page: output "including thinking tokens").
  const output = typeof candidates === 'number' ? candidates + (thoughts ?? 0) : undefined;
  // The API writes JSON by proto3's mapping, which leaves out a field at its default: no `cachedContentTokenCount` is 0
  // cached tokens, not a figure unreported (a published Gemini 2.5 Flash cassette carries it on its hit, not on its misses).
  return { inputTokens: prompt, cachedTokens: cached ?? 0, cacheWriteTokens: 0, ...(output !== undefined && { outputTokens: output }) };
}

export const gemini: ProviderAdapter<'gemini'> = {
  ...GEMINI_WIRE,
  provider: 'google',
  providerTitle: 'Google Gemini',
  catalogNote:
    'Token counts approximate (≈). Caching: implicit (no markers, no write price, no guaranteed retention) above each model’s minimum; an explicit cache’s storage is billed per token-hour.',
  docHosts: ['ai.google.dev', 'docs.cloud.google.com'],
  sideBySide: ['google-gemini-2.5-pro', 'google-gemini-4-argon'],
  messageList: 'contents',
  detect(body) {
    if ('previous_interaction_id' in body)
      return 'it continues a stored Gemini interaction (`previous_interaction_id`): the prefix it reads is on the server, not in the body, so it cannot be modelled — capture generateContent requests, which carry the whole conversation';
    if (!('contents' in body)) return 'it has no `contents`';
    return true;
  },
  schema: z.looseObject({
    model: str.min(1).optional(),
    contents: z.array(content).min(1),
    systemInstruction: instruction.optional(),
    system_instruction: instruction.optional(),
    tools: z.union([z.array(tool), tool]).optional(),
    cachedContent: str.min(1).optional(),
    cached_content: str.min(1).optional(),
  }),
  rules(body) {
    return typeof body.model === 'string'
      ? []
      : [
          {
            path: [],
            message: 'this Gemini body names no model (generateContent takes it in the URL, not the body)',
            fix: 'add the model as `model` (e.g. "model": "gemini-2.5-pro"), or import the capture with a wrapped line\'s "model"',
          },
        ];
  },
  normalise,
  model: (body) => (typeof body.model === 'string' ? body.model.replace(/^models\//, '') : undefined),
  usage: {
    shape: SHAPE,
    looksLike: (u) => 'promptTokenCount' in u || 'cachedContentTokenCount' in u,
    read: readUsage,
  },
  recorded: geminiRecorded,
  defaultBreakpoints: () => [],
  catalog: GEMINI_CATALOG,
  fallback: GEMINI_FALLBACK,
  cacheStrategies: [geminiImplicitCache],
  messagePath(body, index) {
    const offset = normalise(body).length - (body.contents as Content[]).length;
    return index >= offset ? ['contents', index - offset] : [];
  },
  lint(body) {
    if (typeof field(body, 'cachedContent') !== 'string') return [];
    return (['systemInstruction', 'tools', 'toolConfig'] as const)
      .flatMap((k) => [...new Set([k, protoName(k)])].filter((sent) => sent in body).map((sent) => [k, sent] as const))
      .map(([k, sent]) => ({
        path: [sent],
        rule: 'cache-conflict' as const,
        message: `${sent} beside a cachedContent: the request takes them from the cache, and the API rejects the request`,
        fix: `put the ${k === 'systemInstruction' ? 'system instruction' : 'tools'} into the cache when creating it (cachedContents.create), and leave ${sent} out of the request`,
        source: GEMINI_RULES.cachedContentExcludes,
      }));
  },
};
