/**
 * VCR cassettes: the YAML files a test suite's HTTP recorder writes, read for the model calls they
 * recorded (http.ts). Four writers' shapes, read from their sources (2026-12-06, cassetter 2026-12-07):
 *
 * - vcrpy (and pytest-recording, which uses it; github.com/kevin1024/vcrpy `vcr/serializers/yamlserializer.py`,
 *   `vcr/request.py`, `vcr/stubs`): `version: 1`, `interactions: [{request: {method, uri, body, headers},
 *   response: {status: {code, message}, headers, body: {string}}}]`; a request body is a string (or
 *   null), a response body `{string: …}`; bytes that are not UTF-8 — a gzip response kept encoded —
 *   are written `!!binary` (base64), and are gunzipped here when they are gzip;
 * - pydantic-ai's serializer on top of vcrpy (github.com/pydantic/pydantic-ai `tests/json_body_serializer.py`):
 *   a JSON body is written parsed, as `parsed_body:` beside the request or response; headers are
 *   filtered; some cassettes carry `recorded_at`;
 * - Ruby VCR (github.com/vcr/vcr `lib/vcr/structs.rb`): `http_interactions: [{request: {method, uri,
 *   body: {encoding, string}, headers}, response: {status: {code, message}, headers, body: {encoding,
 *   string | base64_string}}, recorded_at: "Tue, 01 Nov 2011 04:58:44 GMT"}]`, `recorded_with`;
 * - cassetter, which replaced vcrpy in pydantic-ai's tests in March 2026 (github.com/Kludex/cassetter
 *   `crates/cassetter-core/src/protocol/http.rs`, read 2026-12-07): `interactions: [{request: {method,
 *   uri, headers, body}, response: {status: 200, headers, body}, recorded_at}]`, a body tagged by its
 *   kind — `{type: json, content: <the parsed value>}`, `{type: text, content: "…"}`, `{type: binary,
 *   content: [bytes]}` or `{type: none}`. Read as vcrpy's, these calls had "no request body".
 *
 * A call's time is its `recorded_at` where the writer keeps one, else the response's `Date` header
 * (the one header read: when the provider answered, to the second — so a request's time is late by
 * its latency, the same for each; rfc-editor.org/rfc/rfc9110#section-6.6.1, read 2026-12-07).
 *
 * Where a team finds them: `tests/cassettes/**.yaml` (pytest-recording), `fixtures/vcr_cassettes/*.yml`
 * (Ruby VCR), `tests/models/cassettes/` (pydantic-ai: cassetter's since March 2026, vcrpy's before).
 */
import { isObject, type Chunk } from '../read.ts';
import { bytesText, callsToRequests, type RecordedBody, type RecordedCall } from './http.ts';
import type { Capture } from './types.ts';

type Obj = Record<string, unknown>;
type Path = (string | number)[];

const listOf = (v: Obj): { key: string; list: unknown[] } | undefined =>
  Array.isArray(v.interactions)
    ? { key: 'interactions', list: v.interactions }
    : Array.isArray(v.http_interactions)
      ? { key: 'http_interactions', list: v.http_interactions }
      : undefined;

/** A recorded body in any of the writers' shapes → its text (or parsed value), with where it is. */
function bodyOf(side: Obj, at: Path): RecordedBody | undefined {
  if (side.parsed_body !== undefined) return { value: side.parsed_body, at: [...at, 'parsed_body'] };
  const b = side.body;
  if (typeof b === 'string') return b === '' ? undefined : { text: b, at: [...at, 'body'] };
  if (b instanceof Uint8Array) return { text: bytesText(b), at: [...at, 'body'] };
  if (isObject(b)) {
    if (typeof b.string === 'string') return b.string === '' ? undefined : { text: b.string, at: [...at, 'body', 'string'] };
    if (b.string instanceof Uint8Array) return { text: bytesText(b.string), at: [...at, 'body', 'string'] };
    if (typeof b.base64_string === 'string') return { text: bytesText(Buffer.from(b.base64_string, 'base64')), at: [...at, 'body', 'base64_string'] };
    // cassetter's tagged body.
    if (b.type === 'json' && b.content !== undefined) return { value: b.content, at: [...at, 'body', 'content'] };
    if (b.type === 'text' && typeof b.content === 'string') return b.content === '' ? undefined : { text: b.content, at: [...at, 'body', 'content'] };
    if (b.type === 'binary' && Array.isArray(b.content) && b.content.every((x) => typeof x === 'number'))
      return { text: bytesText(Uint8Array.from(b.content as number[])), at: [...at, 'body', 'content'] };
  }
  return undefined;
}

function header(side: Obj, name: string): string | undefined {
  if (!isObject(side.headers)) return undefined;
  const k = Object.keys(side.headers).find((h) => h.toLowerCase() === name);
  const v = k === undefined ? undefined : side.headers[k];
  return typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;
}

function status(response: Obj): number | undefined {
  const s = response.status;
  if (typeof s === 'number') return s;
  if (isObject(s) && typeof s.code === 'number') return s.code;
  return undefined;
}

function timeOf(v: unknown): number | undefined {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? undefined : v.getTime();
  if (typeof v !== 'string') return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

function calls(chunk: Chunk): RecordedCall[] {
  const { key, list } = listOf(chunk.value)!;
  const out: RecordedCall[] = [];
  list.forEach((it, i) => {
    if (!isObject(it) || !isObject(it.request)) return;
    const at: Path = [key, i];
    const req = it.request;
    const res = isObject(it.response) ? it.response : undefined;
    const request = bodyOf(req, [...at, 'request']);
    const response = res && bodyOf(res, [...at, 'response']);
    const code = res && status(res);
    const contentType = res && header(res, 'content-type');
    // When it was recorded (Ruby VCR, cassetter), else the response's `Date` header — when the provider sent its answer, to the
    // second (RFC 9110, the Date field): vcrpy writes no time of its own, and a cassette re-recorded weeks apart reads as one instant without it.
    const t = timeOf(it.recorded_at) ?? (res && timeOf(header(res, 'date')));
    out.push({
      chunk,
      at,
      method: String(req.method ?? ''),
      url: String(req.uri ?? ''),
      ...(request && { request }),
      ...(response && { response }),
      ...(code !== undefined && { status: code }),
      ...(contentType !== undefined && { contentType }),
      ...(t !== undefined && { timestampMs: t }),
      headers: (isObject(req.headers) && Object.keys(req.headers).length > 0) || (res !== undefined && isObject(res.headers) && Object.keys(res.headers).length > 0),
    });
  });
  return out;
}

export const vcrCassette: Capture = {
  id: 'vcr',
  title: 'VCR cassette',
  missing: [],
  detect: (chunks) => chunks.length === 1 && ((l) => l !== undefined && l.list.length > 0 && l.list.every((x) => isObject(x) && isObject(x.request)))(listOf(chunks[0]!.value)),
  requests(chunks, file, errors, leftOut) {
    const all = chunks.flatMap((c) => (listOf(c.value) ? calls(c) : []));
    // All or none of the calls must be timed (the import's rule): a cassette with `recorded_at` on some only is read untimed.
    if (all.some((c) => c.timestampMs === undefined)) for (const c of all) delete c.timestampMs;
    return callsToRequests(all, ['interaction', 'interactions'], file, errors, leftOut);
  },
};
