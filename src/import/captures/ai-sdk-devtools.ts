/**
 * AI SDK DevTools captures (`.devtools/generations.json`) → the provider requests an AI SDK app
 * sent. The file is one JSON document, `{"runs": [...], "steps": [...]}`; each step is one model
 * call with `started_at`, `provider` (e.g. `openai.responses`, `anthropic.messages`), `raw_request`
 * — the provider request body as sent, as JSON text — and `usage`, the AI SDK's normalised usage as
 * JSON text: `{"inputTokens": {"total", "noCache", "cacheRead", "cacheWrite"}, "outputTokens": …}`
 * (`total` counts every input token, cached and written ones included).
 *
 * Sources (read 2026-12-03): vercel/ai, `packages/devtools/src/db.ts` (the `Run` and `Step` records,
 * the file's location and shape) and `packages/devtools/src/middleware.ts` (what each step stores:
 * `raw_request` is `JSON.stringify(request.body)`, `usage` the call's usage), as stored in the
 * repository for @ai-sdk/devtools 0.0.x / AI SDK 6–7; `packages/provider` `LanguageModelV3Usage` for
 * the usage fields. An older flat usage (`{"inputTokens": 10, "cachedInputTokens": 4}`) is read too.
 *
 * Nothing is rebuilt: each step's request body is the provider's own, so the capture is complete.
 * Steps without a `raw_request` (a call that failed before sending, or aborted) are left out; the
 * steps are ordered by `started_at` (then run and step number). The provider format is the one the
 * step's `provider` names (the adapters' `aiSdkProviders`) when it names one, else the body's shape decides.
 */
import { formatOfAiSdkProvider, PROVIDERS } from '../../providers/registry.ts';
import type { ProviderAdapter } from '../../providers/types.ts';
import type { InputError } from '../../scenarios/errors.ts';
import { candidates } from '../detect.ts';
import { measuredFrom } from '../usage.ts';
import { chunkPos, isObject, type Chunk } from '../read.ts';
import type { Capture, CapturedRequest } from './types.ts';

type Obj = Record<string, unknown>;

/** The formats the AI SDK names, for a fix: their adapters' titles. */
const NAMED = (PROVIDERS as readonly ProviderAdapter[])
  .filter((p) => p.aiSdkProviders?.length)
  .map((p) => `${p.title} (${p.aiSdkProviders!.join(', ')})`)
  .join(', ');

const FIX = 'import .devtools/generations.json as the DevTools middleware wrote it, unedited';

function parsedJson(c: Chunk, at: (string | number)[], what: string, file: string, errors: InputError[]): unknown {
  const text = at.reduce<unknown>((o, k) => (isObject(o) || Array.isArray(o) ? (o as Record<string | number, unknown>)[k] : undefined), c.value);
  if (text === null || text === undefined) return undefined;
  if (typeof text !== 'string') {
    errors.push({ pos: chunkPos(c, at, file), message: `\`${at.at(-1)}\` must be ${what} as JSON text`, fix: FIX });
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    errors.push({ pos: chunkPos(c, at, file), message: `\`${at.at(-1)}\` is not JSON text`, fix: FIX });
    return undefined;
  }
}

/** A count, or an issue; absent and null are undefined. */
function count(v: unknown, name: string, c: Chunk, at: (string | number)[], file: string, errors: InputError[]): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  errors.push({ pos: chunkPos(c, at, file), message: `usage: \`${name}\` must be a whole number of tokens (0 or more), got ${JSON.stringify(v)}`, fix: FIX });
  return undefined;
}

/** The AI SDK usage → measured figures (V3 nested, or the older flat shape). */
function measuredOf(u: unknown, c: Chunk, at: (string | number)[], file: string, errors: InputError[]): CapturedRequest['measured'] {
  if (!isObject(u)) return undefined;
  const input = u.inputTokens;
  const [total, read, write] = isObject(input)
    ? [
        count(input.total, 'inputTokens.total', c, at, file, errors),
        count(input.cacheRead, 'inputTokens.cacheRead', c, at, file, errors),
        count(input.cacheWrite, 'inputTokens.cacheWrite', c, at, file, errors),
      ]
    : [count(input, 'inputTokens', c, at, file, errors), count(u.cachedInputTokens, 'cachedInputTokens', c, at, file, errors), undefined];
  if (total === undefined) return undefined;
  const output = isObject(u.outputTokens) ? count(u.outputTokens.total, 'outputTokens.total', c, at, file, errors) : count(u.outputTokens, 'outputTokens', c, at, file, errors);
  if ((read ?? 0) + (write ?? 0) > total) {
    errors.push({
      pos: chunkPos(c, at, file),
      message: `usage: the cached (${read ?? 0}) and written (${write ?? 0}) input tokens add up to more than the total (${total})`,
      fix: `${FIX}: inputTokens.total counts every input token, cached and written ones included`,
    });
    return undefined;
  }
  return measuredFrom(total, read, write, output);
}

export const aiSdkDevtools: Capture = {
  id: 'ai-sdk-devtools',
  title: 'AI SDK DevTools capture',
  missing: [],

  detect(chunks) {
    return chunks.length === 1 && Array.isArray(chunks[0]!.value.runs) && Array.isArray(chunks[0]!.value.steps);
  },

  requests(chunks: readonly Chunk[], file: string, errors: InputError[]): CapturedRequest[] {
    const c = chunks[0];
    if (chunks.length !== 1 || !c || !Array.isArray(c.value.steps)) {
      errors.push({ pos: { file, line: chunks[1]?.line ?? 1, col: 1 }, message: 'an AI SDK DevTools capture is one JSON document with `runs` and `steps`', fix: FIX });
      return [];
    }
    const steps = (c.value.steps as unknown[])
      .map((s, i) => ({ s, i }))
      .filter((x): x is { s: Obj; i: number } => {
        if (isObject(x.s)) return true;
        errors.push({ pos: chunkPos(c, ['steps', x.i], file), message: 'a step must be an object', fix: FIX });
        return false;
      });
    const time = (s: Obj): number => (typeof s.started_at === 'string' ? Date.parse(s.started_at) : Number.NaN);
    steps.sort((a, b) => {
      const ta = time(a.s);
      const tb = time(b.s);
      if (ta !== tb && !Number.isNaN(ta) && !Number.isNaN(tb)) return ta - tb;
      return String(a.s.run_id) < String(b.s.run_id) ? -1 : String(a.s.run_id) > String(b.s.run_id) ? 1 : Number(a.s.step_number) - Number(b.s.step_number) || a.i - b.i;
    });
    const out: CapturedRequest[] = [];
    for (const { s, i } of steps) {
      const body = parsedJson(c, ['steps', i, 'raw_request'], 'the provider request body', file, errors);
      if (body === undefined) continue;
      if (!isObject(body)) {
        errors.push({ pos: chunkPos(c, ['steps', i, 'raw_request'], file), message: '`raw_request` must be a request body (a JSON object)', fix: FIX });
        continue;
      }
      const named = typeof s.provider === 'string' ? formatOfAiSdkProvider(s.provider) : undefined;
      const fits = candidates(body);
      if ('problem' in fits || (named && !fits.includes(named))) {
        errors.push({
          pos: chunkPos(c, ['steps', i, 'raw_request'], file),
          message: `this step's request is not a body the \`requests\` fold reads${'problem' in fits ? `: ${fits.problem}` : ` as ${s.provider}`}`,
          fix: `capture calls of a provider whose raw body the import reads: ${NAMED}; a gateway or another provider’s body is not read`,
        });
        continue;
      }
      const started = time(s);
      const usage = parsedJson(c, ['steps', i, 'usage'], 'the call’s usage', file, errors);
      const measured = measuredOf(usage, c, ['steps', i, 'usage'], file, errors);
      out.push({
        chunk: c,
        at: ['steps', i, 'raw_request'],
        offset: out.length + 1,
        body,
        format: named ?? (fits.length === 1 ? fits[0]! : undefined),
        ...(!Number.isNaN(started) && { timestampMs: started }),
        ...(measured && { measured }),
        assembled: true,
      });
    }
    return out;
  },
};
