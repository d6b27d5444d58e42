/**
 * Gemini generateContent calls in HTTP recordings (cassettes, HAR): the path that takes a
 * generateContent body on any host (the Gemini API's `/v1beta/models/{model}:generateContent` and
 * Vertex AI's `…/publishers/google/models/{model}:generateContent`, and their `streamGenerateContent`)
 * and the model it names (ai.google.dev/api/generate-content: "Format: models/{model}"),
 * and a streamed response's usage: with `?alt=sse` every event is a GenerateContentResponse, and the
 * `usageMetadata` of the last one that carries it holds the request's totals
 * (ai.google.dev/api/generate-content, read 2026-12-06).
 */
import { decodedSegment } from '../shared/url.ts';
import type { RecordedCalls, StreamEvent } from '../types.ts';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function streamUsage(events: readonly StreamEvent[]): { usage: Obj } | { problem: string } {
  let usage: Obj | undefined;
  for (const { data } of events) if (isObject(data) && isObject(data.usageMetadata)) usage = { ...data.usageMetadata };
  return usage ? { usage } : { problem: 'no event of the stream carries `usageMetadata`' };
}

/** `…/models/{model}:generateContent` (or `:streamGenerateContent`): the model is the segment before the method. */
const CALL = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

export const geminiRecorded: RecordedCalls = {
  claims(url) {
    const m = CALL.exec(url.pathname);
    return m ? { model: decodedSegment(m[1]!) } : undefined;
  },
  streamUsage,
};
