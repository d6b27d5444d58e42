/**
 * Anthropic Messages calls in HTTP recordings (cassettes, HAR): which path takes a Messages body,
 * and a streamed response's usage. Per the streaming documentation
 * (docs.anthropic.com/en/docs/build-with-claude/streaming, read 2026-12-06): `message_start`
 * carries the message with its `usage` (input, cache read and cache write tokens), and
 * `message_delta` carries `usage` whose counts "are cumulative" — the final output tokens, and on
 * newer API versions the input figures again. The two are laid over each other, later figures
 * winning, into one usage object of the non-streamed shape — the `message_delta` usage's
 * `iterations` list included (server-side compaction's steps, which the bill adds: anthropic.ts).
 *
 * The finished response a stream carries, for the provider's verdict on a cache miss: the message
 * `message_start` carries, with its `diagnostics` (cache diagnostics, platform.claude.com/docs/en/
 * build-with-claude/cache-diagnostics, read 2026-12-06: the API "attaches a diagnostics object to the
 * response"; that a stream attaches it to the message of `message_start` is said by a secondary
 * source, LangChain4j's Anthropic client, docs.langchain4j.dev AnthropicDiagnostics, read
 * 2026-12-06 — the stored copy of Anthropic's page does not show its streaming section).
 */
import type { RecordedCalls, StreamEvent } from '../types.ts';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function streamUsage(events: readonly StreamEvent[]): { usage: Obj } | { problem: string } {
  let usage: Obj | undefined;
  for (const { data } of events) {
    if (!isObject(data)) continue;
    if (data.type === 'message_start' && isObject(data.message) && isObject(data.message.usage)) usage = { ...data.message.usage };
    else if (data.type === 'message_delta' && isObject(data.usage) && usage)
      for (const [k, v] of Object.entries(data.usage)) if (v !== null && (typeof v === 'number' || isObject(v) || Array.isArray(v))) usage[k] = v;
  }
  return usage ? { usage } : { problem: 'the event stream has no `message_start` event with the message’s `usage`' };
}

/** The message of the stream's `message_start` event (the response a non-streamed call returns, before its content). */
function started(events: readonly StreamEvent[]): Obj | undefined {
  const start = events.find((e) => isObject(e.data) && e.data.type === 'message_start' && isObject(e.data.message));
  return start ? ((start.data as Obj).message as Obj) : undefined;
}

export const anthropicRecorded: RecordedCalls = {
  claims: (url) => (/\/v1\/messages$/.test(url.pathname) ? {} : undefined),
  streamUsage,
  streamResponse: started,
};
