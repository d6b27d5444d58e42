/**
 * OpenAI calls in HTTP recordings (cassettes, HAR): the paths of the two formats, and a streamed
 * response's usage, per the API reference (platform.openai.com/docs/api-reference, read
 * 2026-12-06). Chat Completions: with `stream_options: {"include_usage": true}` the stream ends
 * with a chunk whose `usage` is the whole request's (and `choices` empty); without it the stream
 * carries no usage at all. Responses: the `response.completed` event (or `response.incomplete`)
 * carries the finished `response` with its `usage` — the Response object a non-streamed call
 * returns, so with its `prompt_cache_diagnostics` when the request asked for a comparison
 * (developers.openai.com/api/docs/guides/prompt-caching/diagnostics, read 2026-12-06: "available
 * in the Responses API"; Chat Completions documents no such field, so none is read from its chunks).
 */
import type { RecordedCalls, StreamEvent } from '../types.ts';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const chatRecorded: RecordedCalls = {
  claims: (url) => (/\/v1\/chat\/completions$/.test(url.pathname) ? {} : undefined),
  streamUsage(events: readonly StreamEvent[]) {
    const last = events.findLast((e) => isObject(e.data) && isObject(e.data.usage));
    return last
      ? { usage: (last.data as Obj).usage as Obj }
      : { problem: 'the stream carries no usage: the request did not ask for it (`stream_options: {"include_usage": true}`)' };
  },
};

/** The finished response of a Responses stream: the last `response.completed` (or `response.incomplete`) event's `response`. */
function finished(events: readonly StreamEvent[]): Obj | undefined {
  const done = events.findLast((e) => isObject(e.data) && (e.data.type === 'response.completed' || e.data.type === 'response.incomplete') && isObject(e.data.response));
  return done ? ((done.data as Obj).response as Obj) : undefined;
}

export const responsesRecorded: RecordedCalls = {
  claims: (url) => (/\/v1\/responses$/.test(url.pathname) ? {} : undefined),
  streamUsage(events: readonly StreamEvent[]) {
    const usage = finished(events)?.usage;
    return isObject(usage) ? { usage } : { problem: 'the event stream has no `response.completed` event with the response’s `usage`' };
  },
  streamResponse: finished,
};
