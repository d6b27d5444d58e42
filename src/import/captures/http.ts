/**
 * Recorded HTTP calls (a VCR cassette's interactions, a HAR file's entries) → the requests a team's
 * test suite or browser sent to a model provider. Shared by the recording formats (vcr.ts, har.ts),
 * which only say where each call's method, URL, bodies and time are.
 *
 * Which calls are requests: a POST whose URL one provider adapter's `recorded.claims` claims, by its
 * path on any host (src/providers/*: Anthropic `/v1/messages`, OpenAI `/v1/chat/completions` and
 * `/v1/responses`, Gemini `…/models/{model}:generateContent`, Bedrock `/model/{modelId}/converse`, …);
 * where the provider takes the model in the URL, the adapter says which, and a body that names none
 * gets it as `model`, as those adapters read a captured body. A provider adapter that claims its calls
 * is read with no change here. Every other call — another endpoint (a file
 * upload, a token count, an API no adapter names), a GET, a call the provider answered with an
 * error (nothing billed), a call to another provider than the recording's first (a scenario shows
 * one provider's requests) — is left out and reported with why.
 *
 * Headers are never read, so never stored: the import says so once per recording (they are where
 * API keys travel). The request body is stored as recorded; the response is read only for what the
 * provider billed: its JSON `usage`, or, for a streamed response (server-sent events), the usage the
 * adapter's `streamUsage` finds in the events — and for the provider's verdict on a cache miss
 * (provider-miss.ts), read from the JSON response or from the finished response the adapter's
 * `streamResponse` finds in the stream. A response without usage gets a note on the page, never a
 * guess.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { InputError } from '../../scenarios/errors.ts';
import { PROVIDERS } from '../../providers/registry.ts';
import type { ProviderAdapter, StreamEvent } from '../../providers/types.ts';
import type { LeftOutTally } from '../left-out.ts';
import { providerMissOf } from '../provider-miss.ts';
import { chunkPos, isObject, type Chunk } from '../read.ts';
import type { CapturedRequest } from './types.ts';

type Path = (string | number)[];
type Obj = Record<string, unknown>;

/** A body as a recording holds it: text (JSON, or an event stream), or already parsed (pydantic-ai's `parsed_body`). */
export type RecordedBody = { text: string; at: Path } | { value: unknown; at: Path };

/** One recorded call, as a recording format reads it; paths lead into `chunk`. */
export interface RecordedCall {
  chunk: Chunk;
  /** Where the call is (its interaction or entry). */
  at: Path;
  method: string;
  url: string;
  request?: RecordedBody;
  status?: number;
  response?: RecordedBody;
  /** The response's content type, when recorded. */
  contentType?: string;
  timestampMs?: number;
  /** Whether the call recorded any header (never imported). */
  headers: boolean;
}

const adapters: readonly ProviderAdapter[] = PROVIDERS;

/** The format a POST to this URL sends: the first adapter, in registry order, whose `recorded.claims` claims it, with the model the URL names. */
function claimOf(url: URL): { adapter: ProviderAdapter; model?: string } | undefined {
  for (const adapter of adapters) {
    const claim = adapter.recorded?.claims(url);
    if (claim) return { adapter, ...claim };
  }
  return undefined;
}

/**
 * Recorded bytes as text, decompressed when a recorder kept the response as it came over the wire:
 * gzip (by its magic bytes), else brotli when the bytes are not UTF-8 text (brotli has no magic;
 * clients send `accept-encoding: gzip, deflate, br`).
 */
export function bytesText(b: Uint8Array): string {
  const buf = Buffer.from(b);
  if (buf[0] === 0x1f && buf[1] === 0x8b) {
    try {
      return gunzipSync(buf).toString('utf8');
    } catch {
      return buf.toString('utf8');
    }
  }
  const text = buf.toString('utf8');
  if (!text.includes('\uFFFD')) return text;
  try {
    return brotliDecompressSync(buf).toString('utf8');
  } catch {
    return text;
  }
}

/** A server-sent event stream → its events (`event:` name, `data:` lines joined and parsed as JSON where they are JSON). */
export function streamEvents(text: string): StreamEvent[] {
  const out: StreamEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (!data.length) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.join('\n'));
    } catch {
      parsed = undefined;
    }
    out.push({ ...(event !== undefined && { event }), data: parsed });
  }
  return out;
}

const looksLikeStream = (text: string, contentType: string | undefined): boolean => contentType?.includes('text/event-stream') === true || /^\s*(event|data):/.test(text);

/** The host and path of a URL, for the report ("api.anthropic.com/v1/files"); the query string is left off. */
function where(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  } catch {
    return url.split('?')[0]!;
  }
}

/** The recorded calls → the provider requests among them, in order; the rest left out. */
export function callsToRequests(
  calls: readonly RecordedCall[],
  [what, whats]: readonly [string, string],
  file: string,
  errors: InputError[],
  leftOut: LeftOutTally,
): CapturedRequest[] {
  const out: CapturedRequest[] = [];
  let headersSeen = 0;
  let first: ProviderAdapter | undefined;
  let firstHeaders = 0;
  for (const call of calls) {
    const line = chunkPos(call.chunk, call.at, file).line;
    if (call.headers) {
      if (!headersSeen) firstHeaders = line;
      headersSeen++;
    }
    let url: URL;
    try {
      url = new URL(call.url);
    } catch {
      errors.push({
        pos: chunkPos(call.chunk, call.at, file),
        message: `this ${what}'s URL is not a URL: ${JSON.stringify(call.url).slice(0, 120)}`,
        fix: 'import the recording as the tool wrote it',
      });
      continue;
    }
    const claim = call.method.toUpperCase() === 'POST' ? claimOf(url) : undefined;
    if (!claim) {
      leftOut.add(`${call.method.toUpperCase()} calls to ${where(call.url)}`, 'not a model request of a provider the import reads', line);
      continue;
    }
    const { adapter } = claim;
    if (call.status !== undefined && (call.status < 200 || call.status > 299)) {
      leftOut.add(`calls answered with HTTP ${call.status}`, 'the provider refused the request: nothing was billed and the model read nothing', line);
      continue;
    }
    if (first && adapter !== first) {
      leftOut.add(
        `calls to ${adapter.title}`,
        `a scenario shows one provider's requests, and this recording's first is ${first.title}: import the other provider's calls from a recording of their own`,
        line,
      );
      continue;
    }
    first ??= adapter;
    const sent = requestBody(call, what, file, errors);
    if (!sent) continue;
    // A provider that takes the model in the URL: a body that names none carries it as `model`, as its adapter reads a captured body.
    const named = adapter.model ? adapter.model(sent) : sent.model;
    const body = claim.model !== undefined && named === undefined ? { model: claim.model, ...sent } : sent;
    const usage = responseUsage(call, adapter);
    // The provider's own verdict on a cache miss, when the response carries it (provider-miss.ts); a streamed one's in its finished response.
    const response = jsonResponse(call, adapter);
    const miss = response === undefined ? undefined : providerMissOf(response, call.chunk, call.response!.at, file, errors);
    const bodyAt = call.request!.at;
    const structured = 'value' in call.request!;
    out.push({
      chunk: call.chunk,
      at: bodyAt,
      offset: line,
      body,
      format: adapter.id as CapturedRequest['format'],
      ...(call.timestampMs !== undefined && { timestampMs: call.timestampMs }),
      ...('usage' in usage && { usage: usage.usage }),
      ...('note' in usage && { note: usage.note }),
      ...(miss && { providerMiss: miss }),
      assembled: true,
      ...(structured && { origin: (p: readonly (string | number)[]) => ({ chunk: call.chunk, at: [...bodyAt, ...p] }) }),
    });
  }
  if (headersSeen) leftOut.add(`${whats}' headers`, 'never imported: headers carry API keys, and the model does not read them', firstHeaders, headersSeen);
  return out;
}

/**
 * The response as JSON when it may carry a cache diagnosis: as recorded, or — an event stream — the
 * finished response the adapter finds in its events (OpenAI Responses: `response.completed`'s
 * `response`); else undefined. A problem in it is located at the recorded body (a stream is text).
 */
function jsonResponse(call: RecordedCall, adapter: ProviderAdapter): unknown {
  const r = call.response;
  if (!r) return undefined;
  if ('value' in r) return r.value;
  if (!r.text.includes('diagnostics')) return undefined;
  if (looksLikeStream(r.text, call.contentType)) return adapter.recorded?.streamResponse?.(streamEvents(r.text));
  try {
    return JSON.parse(r.text);
  } catch {
    return undefined;
  }
}

function requestBody(call: RecordedCall, what: string, file: string, errors: InputError[]): Obj | undefined {
  const r = call.request;
  if (!r) {
    errors.push({
      pos: chunkPos(call.chunk, call.at, file),
      message: `this ${what} is a call to a model provider but records no request body`,
      fix: 'record the calls with their bodies (the recorder keeps them unless told not to)',
    });
    return undefined;
  }
  let value: unknown;
  if ('value' in r) value = r.value;
  else
    try {
      value = JSON.parse(r.text);
    } catch (e) {
      errors.push({
        pos: chunkPos(call.chunk, r.at, file),
        message: `this request body is not JSON (${(e as Error).message})`,
        fix: 'import the recording as the recorder wrote it: a provider request body is a JSON object',
      });
      return undefined;
    }
  if (!isObject(value)) {
    errors.push({
      pos: chunkPos(call.chunk, r.at, file),
      message: 'this request body is not a JSON object',
      fix: 'import the recording as the recorder wrote it: a provider request body is a JSON object',
    });
    return undefined;
  }
  return value;
}

/** Where a response keeps its usage: `usage`, else the field the adapter's usage reader recognises (Gemini's `usageMetadata`). */
function usageKey(response: unknown, adapter: ProviderAdapter): string | undefined {
  if (!isObject(response)) return undefined;
  if (response.usage !== undefined && response.usage !== null) return 'usage';
  return Object.keys(response).find((k) => isObject(response[k]) && adapter.usage?.looksLike(response[k] as Obj));
}

const NO_USAGE = 'the recorded response carries no `usage`, so nothing billed was imported for this request';

/** What the provider billed, in its response's shape (read by the adapter's usage reader), or a note why not. */
function responseUsage(call: RecordedCall, adapter: ProviderAdapter): { usage: CapturedRequest['usage'] } | { note: string } | Record<string, never> {
  const r = call.response;
  if (!r) return { note: 'the recording holds no response, so nothing billed was imported for this request' };
  if ('value' in r) {
    const key = usageKey(r.value, adapter);
    return key ? { usage: { value: (r.value as Obj)[key], at: [...r.at, key], chunk: call.chunk } } : { note: NO_USAGE };
  }
  if (looksLikeStream(r.text, call.contentType)) {
    if (!adapter.recorded?.streamUsage)
      return { note: `streamed response: the import does not read ${adapter.title}'s event stream, so nothing billed was imported for this request` };
    const found = adapter.recorded.streamUsage(streamEvents(r.text));
    return 'usage' in found
      ? { usage: { value: found.usage, at: r.at, chunk: call.chunk } }
      : { note: `streamed response: ${found.problem}, so nothing billed was imported for this request` };
  }
  let value: unknown;
  try {
    value = JSON.parse(r.text);
  } catch {
    return { note: 'the recorded response is neither JSON nor an event stream, so nothing billed was imported for this request' };
  }
  const key = usageKey(value, adapter);
  return key ? { usage: { value: (value as Obj)[key], at: r.at, chunk: call.chunk } } : { note: NO_USAGE };
}
