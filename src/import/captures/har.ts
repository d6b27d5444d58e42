/**
 * HAR files (HTTP Archive 1.2, w3c.github.io/web-performance/specs/HAR/Overview.html): what a
 * browser's devtools export ("Save all as HAR") and Polly.js recordings (github.com/Netflix/pollyjs
 * `packages/@pollyjs/persister/src/har/{request,response}.js`: `postData.text`, `content.text`,
 * `_isBinary`; its node-http adapter keeps a chunked response as a JSON list of base64 chunks, gzip
 * as sent) hold, read for the model calls among them (http.ts). Per entry: `request.method`,
 * `request.url`, `request.postData.text`, `response.status`, `response.content.text` with
 * `content.encoding: "base64"` when the recorder encoded it, `startedDateTime`.
 *
 * Where a team finds them: `recordings/**\/recording.har` (Polly.js's default folder), or a file
 * saved from the browser's devtools Network panel.
 */
import { isObject, type Chunk } from '../read.ts';
import { bytesText, callsToRequests, type RecordedBody, type RecordedCall } from './http.ts';
import type { Capture } from './types.ts';

type Obj = Record<string, unknown>;

const entries = (v: Obj): unknown[] | undefined => (isObject(v.log) && Array.isArray(v.log.entries) ? v.log.entries : undefined);

/**
 * A base64 body: one base64 string, or — Polly.js's node-http adapter, for a response that came in
 * chunks — a JSON list of base64 chunks (`["H4sI…", …]`), joined; gzip is unzipped by bytesText.
 */
function base64Bytes(text: string): Uint8Array {
  if (text.trimStart().startsWith('[')) {
    try {
      const chunks: unknown = JSON.parse(text);
      if (Array.isArray(chunks) && chunks.every((x) => typeof x === 'string')) return Buffer.concat(chunks.map((x) => Buffer.from(x, 'base64')));
    } catch {
      // Not a list of chunks: one base64 string.
    }
  }
  return Buffer.from(text, 'base64');
}

function content(response: Obj, at: (string | number)[]): RecordedBody | undefined {
  const c = response.content;
  if (!isObject(c) || typeof c.text !== 'string' || c.text === '') return undefined;
  const text = c.encoding === 'base64' ? bytesText(base64Bytes(c.text)) : c.text;
  return { text, at: [...at, 'content', 'text'] };
}

function calls(chunk: Chunk): RecordedCall[] {
  const out: RecordedCall[] = [];
  entries(chunk.value)!.forEach((e, i) => {
    if (!isObject(e) || !isObject(e.request)) return;
    const at = ['log', 'entries', i];
    const req = e.request;
    const res = isObject(e.response) ? e.response : undefined;
    const post = isObject(req.postData) && typeof req.postData.text === 'string' && req.postData.text !== '' ? req.postData.text : undefined;
    const response = res && content(res, [...at, 'response']);
    const mime = res && isObject(res.content) && typeof res.content.mimeType === 'string' ? res.content.mimeType : undefined;
    const t = typeof e.startedDateTime === 'string' ? Date.parse(e.startedDateTime) : Number.NaN;
    out.push({
      chunk,
      at,
      method: String(req.method ?? ''),
      url: String(req.url ?? ''),
      ...(post !== undefined && { request: { text: post, at: [...at, 'request', 'postData', 'text'] } }),
      ...(response && { response }),
      ...(res && typeof res.status === 'number' && res.status > 0 && { status: res.status }),
      ...(mime !== undefined && { contentType: mime }),
      ...(!Number.isNaN(t) && { timestampMs: t }),
      headers: (Array.isArray(req.headers) && req.headers.length > 0) || (res !== undefined && Array.isArray(res.headers) && res.headers.length > 0),
    });
  });
  return out;
}

export const har: Capture = {
  id: 'har',
  title: 'HAR file',
  missing: [],
  detect: (chunks) => chunks.length === 1 && entries(chunks[0]!.value) !== undefined,
  requests(chunks, file, errors, leftOut) {
    const all = chunks.flatMap((c) => (entries(c.value) ? calls(c) : []));
    if (all.some((c) => c.timestampMs === undefined)) for (const c of all) delete c.timestampMs;
    return callsToRequests(all, ['entry', 'entries'], file, errors, leftOut);
  },
};
