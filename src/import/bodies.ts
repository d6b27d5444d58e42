/**
 * Request bodies of a JSON Lines trace: each line a body as sent, bare, or wrapped with what was
 * around it — `{"timestamp", "headers", "body", "response" | "usage"}` (read.ts ENVELOPE_KEYS).
 * Credential headers are dropped here (reported, never stored); the response's usage is kept to be
 * read (usage.ts); a timestamp becomes the request's time.
 */
import type { InputError } from '../scenarios/errors.ts';
import { chunkPos, ENVELOPE_KEYS, isObject, type Chunk } from './read.ts';
import { providerMissOf } from './provider-miss.ts';
import { droppedAt, type DroppedSecret, type Obj, type Req } from './request.ts';
import { credentialHeader } from './secrets.ts';

function timestampMs(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v > 1e11 ? v : v * 1000;
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v)) {
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

/** Request bodies of JSON Lines chunks (bare or wrapped); headers are dropped here. */
export function bodiesOf(chunks: Chunk[], file: string, errors: InputError[], dropped: DroppedSecret[]): Req[] {
  const out: Req[] = [];
  for (const c of chunks) {
    const v = c.value;
    // A wrapped line may name the model (`"model"`) where the body does not carry it (Bedrock, Gemini: the model is in the URL).
    const wrapped = isObject(v.body) && !('messages' in v) && !('input' in v) && !('contents' in v);
    if (!wrapped) {
      out.push({ chunk: c, at: [], offset: c.line, body: v });
      continue;
    }
    const unknown = Object.keys(v).filter((k) => !ENVELOPE_KEYS.includes(k));
    for (const k of unknown) {
      errors.push({
        pos: chunkPos(c, [k], file, true),
        message: `unknown field \`${k}\` around a request body`,
        fix: `a wrapped request has only ${ENVELOPE_KEYS.join(', ')}: remove \`${k}\`, or put the bare body on the line`,
      });
    }
    if (v.headers !== undefined) {
      if (!isObject(v.headers))
        errors.push({
          pos: chunkPos(c, ['headers'], file),
          message: '`headers` must be a mapping of header names to values',
          fix: 'write e.g. {"content-type": "application/json"}, or leave `headers` out',
        });
      else
        for (const h of Object.keys(v.headers).sort())
          if (credentialHeader(h)) dropped.push(droppedAt({ where: `header ${h}`, what: 'a credential header' }, () => chunkPos(c, ['headers', h], file, true)));
    }
    const body = v.body as Obj;
    const req: Req = {
      chunk: c,
      at: ['body'],
      offset: c.line,
      body: typeof v.model === 'string' && !('model' in body) && !('modelId' in body) ? { ...body, model: v.model } : body,
    };
    if (v.response !== undefined && v.usage !== undefined) {
      errors.push({
        pos: chunkPos(c, ['usage'], file, true),
        message: 'this line has both `response` and `usage`: which one did the provider bill?',
        fix: 'keep one: the whole response ({"response": {"usage": {…}, …}}) or its usage alone ({"usage": {…}})',
      });
    } else if (v.usage !== undefined) req.usage = { value: v.usage, at: ['usage'] };
    else if (v.response !== undefined) {
      if (!isObject(v.response))
        errors.push({
          pos: chunkPos(c, ['response'], file),
          message: "`response` must be the provider's response object",
          fix: 'write the response body as the API returned it (its `usage` is read; nothing else of it is stored), or leave `response` out',
        });
      else if (v.response.usage !== undefined) req.usage = { value: v.response.usage, at: ['response', 'usage'] };
      else if (v.response.usageMetadata !== undefined) req.usage = { value: v.response.usageMetadata, at: ['response', 'usageMetadata'] };
      const miss = providerMissOf(v.response, c, ['response'], file, errors);
      if (miss) req.providerMiss = miss;
    }
    if (v.timestamp !== undefined) {
      const ms = timestampMs(v.timestamp);
      if (ms === undefined)
        errors.push({
          pos: chunkPos(c, ['timestamp'], file),
          message: `\`timestamp\` is not an ISO-8601 instant or a Unix time, got ${JSON.stringify(v.timestamp)}`,
          fix: 'write e.g. "2026-08-24T16:41:00.000Z", or Unix milliseconds like 1787589660000',
        });
      else req.timestampMs = ms;
    }
    out.push(req);
  }
  return out;
}
