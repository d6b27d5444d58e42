/**
 * Google Gemini generateContent (the Gemini API and Vertex AI): the adapter. A body has
 * `contents` of `user` / `model` turns made of `parts` (`{text}`, `{functionCall}`,
 * `{functionResponse}`, `{inlineData}` …), an optional `systemInstruction` (`{parts}`),
 * `tools[].functionDeclarations`, and may name an explicit cache (`cachedContent:
 * "cachedContents/…"`) whose content — a prefix of the prompt — is not in the body: it reads as one
 * leading message naming the cache, and the bill's `cachedContentTokenCount` says how many tokens it
 * held. No cache markers: caching is implicit (gemini/cache.ts). The model is in the URL: a captured
 * body carries it as `model` (the SDKs' shape; npm run import puts a wrapped line's `"model"` there).
 * Usage (`usageMetadata`): `promptTokenCount` INCLUDES `cachedContentTokenCount`.
 */
import * as z from 'zod';
import { GEMINI_CATALOG, GEMINI_FALLBACK, GEMINI_RULES } from './gemini/catalog.ts';
import { geminiImplicitCache } from './gemini/cache.ts';
import { toGemini } from './gemini/wire.ts';
import { geminiRecorded } from './gemini/recorded.ts';
import { fnTool, isObject, tagged, toolsMessage, type Obj } from './shared/normalise.ts';
import { countAt, requireKey } from './shared/usage.ts';
import type { MeasuredUsage, NormalMessage, ProviderAdapter, UsageIssue } from './types.ts';

const str = z.string();
const part = z.record(str, z.unknown());
const content = z.looseObject({ role: z.enum(['user', 'model']).optional(), parts: z.array(part).min(1) });
type Content = z.infer<typeof content>;

/** The role a neutral message gets for a Gemini role. */
const roleOf = (r: string | undefined): string => (r === 'model' ? 'assistant' : 'user');

function partText(p: Obj): string {
  if (typeof p.text === 'string') return p.text;
  const [kind] = Object.keys(p);
  if (kind === undefined) return '[]';
  return tagged(kind, isObject(p[kind]) ? (p[kind] as Obj) : { value: p[kind] });
}

function normalise(body: Obj): NormalMessage[] {
  const tools = Array.isArray(body.tools) ? body.tools.flatMap((t) => (isObject(t) && Array.isArray(t.functionDeclarations) ? t.functionDeclarations : [])) : [];
  const out = toolsMessage(tools, (t) => fnTool(t.name, t.description, t.parameters ?? t.parametersJsonSchema));
  if (typeof body.cachedContent === 'string') out.push({ role: 'system', text: tagged('cachedContent', { name: body.cachedContent }) });
  if (isObject(body.systemInstruction) && Array.isArray(body.systemInstruction.parts))
    out.push({ role: 'system', text: (body.systemInstruction.parts as Obj[]).map(partText).join('\n') });
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
  return { inputTokens: prompt, ...(typeof cached === 'number' && { cachedTokens: cached }), cacheWriteTokens: 0, ...(output !== undefined && { outputTokens: output }) };
}

export const gemini: ProviderAdapter<'gemini'> = {
  id: 'gemini',
  title: 'Google Gemini generateContent (Gemini API, Vertex AI)',
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
    systemInstruction: z.looseObject({ parts: z.array(part) }).optional(),
    tools: z.array(z.looseObject({})).optional(),
    cachedContent: str.min(1).optional(),
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
  write: toGemini,
  endpoint: {
    url: 'https://generativelanguage.googleapis.com/v1beta/models/$GEMINI_MODEL:generateContent',
    keyVar: 'GEMINI_API_KEY',
    headers: ['x-goog-api-key: $GEMINI_API_KEY', 'Content-Type: application/json'],
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
    if (typeof body.cachedContent !== 'string') return [];
    return (['systemInstruction', 'tools', 'toolConfig'] as const)
      .filter((k) => k in body)
      .map((k) => ({
        path: [k],
        rule: 'cache-conflict' as const,
        message: `${k} beside a cachedContent: the request takes them from the cache, and the API rejects the request`,
        fix: `put the ${k === 'systemInstruction' ? 'system instruction' : 'tools'} into the cache when creating it (cachedContents.create), and leave ${k} out of the request`,
        source: GEMINI_RULES.cachedContentExcludes,
      }));
  },
};
