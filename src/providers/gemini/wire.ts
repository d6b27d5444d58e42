/**
 * Fold request → Gemini generateContent request body (POST …/models/{model}:generateContent on
 * the Gemini API, or …/publishers/google/models/{model}:generateContent on Vertex AI; the model is
 * in the URL, not the body).
 * - The leading system messages become `systemInstruction.parts` (one text part each).
 * - Every other message a `contents` entry of `parts`: `assistant` as role `model`, everything else
 *   as `user` (a later system message, `developer`, a tool message answering no call), consecutive
 *   ones of the same role merged.
 * - Tool turns: an assistant message's `toolCalls` become `functionCall` parts; a `tool` message with
 *   a `toolCallId` a `functionResponse` part (named after the call it answers) of the next user turn.
 * - The tool list becomes `tools: [{functionDeclarations: [...]}]`.
 * - No cache markers: Gemini caches implicitly, so a request's breakpoints are not sent.
 */
import { asFunctionTool } from '../../folds/tools.ts';
import { splitTools } from '../shared/split.ts';
import type { Json, JsonObject, WireFace, WireSource } from '../types.ts';

export function toGemini(src: WireSource): JsonObject {
  const { tools, messages } = splitTools({ ...src, breakpoints: [] });
  const names = new Map<string, string>();
  const system: JsonObject[] = [];
  const contents: { role: 'user' | 'model'; parts: JsonObject[] }[] = [];
  let leading = true;
  for (const m of messages) {
    if (leading && m.role === 'system') {
      if (m.content !== '') system.push({ text: m.content });
      continue;
    }
    leading = false;
    const parts: JsonObject[] = [];
    if (m.role === 'tool' && m.toolCallId !== undefined) {
      parts.push({ functionResponse: { name: names.get(m.toolCallId) ?? m.toolCallId, response: { content: m.content } } });
    } else {
      if (m.content !== '') parts.push({ text: m.content });
      for (const c of m.toolCalls ?? []) {
        names.set(c.id, c.name);
        parts.push({ functionCall: { name: c.name, args: c.input as Json } });
      }
    }
    if (!parts.length) continue;
    const role = m.role === 'assistant' ? 'model' : 'user';
    const turn = contents.at(-1);
    if (turn && turn.role === role) turn.parts.push(...parts);
    else contents.push({ role, parts });
  }
  const body: JsonObject = {};
  if (system.length) body.systemInstruction = { parts: system };
  body.contents = contents;
  if (tools) {
    const declarations = tools.flatMap((t): Json[] => {
      const f = asFunctionTool(t);
      return f ? [f as unknown as JsonObject] : [];
    });
    if (declarations.length) body.tools = [{ functionDeclarations: declarations }];
  }
  return body;
}

/** generateContent's wire face (the adapter, ../gemini.ts, takes it whole). */
export const GEMINI_WIRE: WireFace<'gemini'> = {
  id: 'gemini',
  title: 'Google Gemini generateContent (Gemini API, Vertex AI)',
  write: toGemini,
  endpoint: {
    url: 'https://generativelanguage.googleapis.com/v1beta/models/$GEMINI_MODEL:generateContent',
    keyVar: 'GEMINI_API_KEY',
    headers: ['x-goog-api-key: $GEMINI_API_KEY', 'Content-Type: application/json'],
    credentialHeaders: ['x-goog-api-key'],
  },
};
