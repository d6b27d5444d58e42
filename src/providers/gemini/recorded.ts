/**
 * Gemini generateContent calls in HTTP recordings (cassettes, HAR): the path that takes a
 * generateContent body on any host (the Gemini API's `/v1beta/models/{model}:generateContent` and
 * Vertex AI's `…/publishers/google/models/{model}:generateContent`, and their `streamGenerateContent`),
 * and a streamed response's usage: with `?alt=sse` every event is a GenerateContentResponse, and the
 * `usageMetadata` of the last one that carries it holds the request's totals
 * (ai.google.dev/api/generate-content, read 2026-12-06).
 */
import type { RecordedCalls, StreamEvent } from '../types.ts';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function streamUsage(events: readonly StreamEvent[]): { usage: Obj } | { problem: string } {
  let usage: Obj | undefined;
  for (const { data } of events) if (isObject(data) && isObject(data.usageMetadata)) usage = { ...data.usageMetadata };
  return usage ? { usage } : { problem: 'no event of the stream carries `usageMetadata`' };
}

export const geminiRecorded: RecordedCalls = {
  path: (p) => /\/models\/[^/]+:(generateContent|streamGenerateContent)$/.test(p),
  streamUsage,
};
