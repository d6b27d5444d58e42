/**
 * AI SDK telemetry (`experimental_telemetry: { isEnabled: true }`), exported as OTLP JSON → the
 * requests of each model call. The AI SDK records a call (`generateText`, `streamText`, …) as a span
 * with one child span per model request — `ai.generateText.doGenerate`, `ai.streamText.doStream`,
 * `ai.generateObject.doGenerate`, `ai.streamObject.doStream` — carrying the SDK-level prompt, not
 * the provider body. Read in github.com/vercel/ai at commit 01ab106e549d9bd8f582a2b42480235bac2e0d4a
 * (AI SDK 6, `packages/ai/src/generate-text/generate-text.ts`, read 2026-12-07); the other three
 * request spans as Arize-ai/openinference's recording of AI SDK spans shows them
 * (`js/packages/openinference-vercel/test/__fixtures__/v6-spans/all-spans.json` at 1fe497f1d):
 *
 * - `ai.model.provider` (`anthropic.messages`, `openai.responses`, …: the adapters' `aiSdkProviders`)
 *   and `ai.model.id`; `ai.prompt.messages`, the language-model prompt as JSON text (messages of
 *   `{role: system | user | assistant | tool, content, providerOptions}`); `ai.prompt.tools`, one JSON
 *   text per tool; `ai.prompt.toolChoice`; `gen_ai.request.max_tokens`, the call's `maxOutputTokens`;
 * - usage: the provider's own, where its package keeps it in `ai.response.providerMetadata`
 *   (Anthropic's, see providerUsage); else `ai.usage.inputTokens` ("total", every input token,
 *   cached and written ones included), `ai.usage.inputTokenDetails.cacheReadTokens` and
 *   `.cacheWriteTokens`; `ai.usage.outputTokens`. AI SDK 4 and 5 wrote `ai.usage.promptTokens` /
 *   `ai.usage.inputTokens` and `ai.usage.cachedInputTokens` as each provider package filled them
 *   (`@ai-sdk/anthropic` 5: Anthropic's `input_tokens`, the uncached rest), so a span without the
 *   version-6 details or the provider's own usage carries no measured figures, and the page says
 *   why, rather than a guessed split;
 * - `ai.telemetry.metadata.*` is what the application passed as `metadata`: a `sessionId` there names
 *   the conversation; without one the import groups calls by their prefix chain.
 *
 * Where the provider's adapter knows how its AI SDK package builds the body (`fromAiSdkPrompt`:
 * Anthropic), the request is that body — the prompt's cache markers (`providerOptions.anthropic.
 * cacheControl`) become `cache_control` — and it says what the span does not record: the parameters
 * the package adds, provider-defined tools. Otherwise it is rebuilt as an OpenTelemetry GenAI body
 * (`otel-genai`) and says it lacks the body as sent and its markers. Spans that are not model
 * requests (the call's own span, tool calls, embeddings) are left out and counted.
 */
import { MARKERS_UNRECORDED, PARAMETERS_UNRECORDED } from '../../economics/measured.ts';
import { formatOfAiSdkProvider, providerOf } from '../../providers/registry.ts';
import type { InputError } from '../../scenarios/errors.ts';
import type { Conversation } from '../log/group.ts';
import { jsonAttribute, spansOf, type OtlpSpan } from '../otlp.ts';
import { chunkPos, isObject, type Chunk } from '../read.ts';
import { measuredFrom } from '../usage.ts';
import type { Capture, CapturedRequest } from './types.ts';

type Obj = Record<string, unknown>;
type Path = (string | number)[];

/** The spans that are one model request each. */
export const AI_SDK_REQUEST_SPANS = ['ai.generateText.doGenerate', 'ai.streamText.doStream', 'ai.generateObject.doGenerate', 'ai.streamObject.doStream'] as const;

const FIX = 'export the AI SDK’s spans as OTLP JSON, unedited, with inputs recorded (`experimental_telemetry: { isEnabled: true }`; `recordInputs` is on by default)';

export const AI_SDK_AMBIGUOUS =
  'the span records its input tokens without the AI SDK 6 cache split (`ai.usage.inputTokenDetails.cacheReadTokens` / `cacheWriteTokens`); before version 6 whether `ai.usage.promptTokens` / `inputTokens` includes cached tokens depended on the provider package, so no measured figures were imported for it';

/** What a request rebuilt as a provider-neutral body does not record. */
export const AI_SDK_BODY_UNRECORDED =
  'the request body as sent (rebuilt from the AI SDK’s prompt, `ai.prompt.messages`, as an OpenTelemetry GenAI body: the provider package’s own conversion is not recorded)';

/** What a body rebuilt by the provider's adapter does not record when the call advertised provider-defined tools. */
const PROVIDER_TOOLS_UNRECORDED = 'the provider-defined tools (`ai.prompt.tools` entries of type `provider`), as the provider package sends them';

const op = (s: OtlpSpan): string => {
  const v = s.attributes.get('ai.operationId');
  return typeof v === 'string' ? v : '';
};
const isRequest = (s: OtlpSpan): boolean => (AI_SDK_REQUEST_SPANS as readonly string[]).includes(op(s));

/** Where an attribute's value is in the document (the span's `attributes` list). */
function attrPath(c: Chunk, span: OtlpSpan, key: string): Path {
  const raw = span.path.reduce<unknown>((o, k) => (isObject(o) || Array.isArray(o) ? (o as Record<string | number, unknown>)[k] : undefined), c.value);
  const list = isObject(raw) && Array.isArray(raw.attributes) ? raw.attributes : [];
  const i = list.findIndex((a) => isObject(a) && a.key === key);
  return i < 0 ? span.path : [...span.path, 'attributes', i, 'value'];
}

/** A count attribute: a whole number ≥ 0, or an error at it; absent is undefined. */
function count(c: Chunk, span: OtlpSpan, key: string, file: string, errors: InputError[]): number | undefined {
  const v = span.attributes.get(key);
  if (v === undefined) return undefined;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  errors.push({ pos: chunkPos(c, attrPath(c, span, key), file), message: `\`${key}\` must be a whole number of tokens (0 or more), got ${JSON.stringify(v)}`, fix: FIX });
  return undefined;
}

/** The usage: measured figures where the span has AI SDK 6's cache split, else a note saying why none. */
function usageOf(c: Chunk, span: OtlpSpan, file: string, errors: InputError[]): { measured?: CapturedRequest['measured']; note?: string } {
  const total = count(c, span, 'ai.usage.inputTokens', file, errors);
  const read = count(c, span, 'ai.usage.inputTokenDetails.cacheReadTokens', file, errors);
  const write = count(c, span, 'ai.usage.inputTokenDetails.cacheWriteTokens', file, errors);
  const output = count(c, span, 'ai.usage.outputTokens', file, errors) ?? count(c, span, 'ai.usage.completionTokens', file, errors);
  const legacy = span.attributes.has('ai.usage.promptTokens') || span.attributes.has('ai.usage.cachedInputTokens');
  if (total === undefined || (read === undefined && write === undefined)) return total !== undefined || legacy ? { note: AI_SDK_AMBIGUOUS } : {};
  if ((read ?? 0) + (write ?? 0) > total) {
    errors.push({
      pos: chunkPos(c, attrPath(c, span, 'ai.usage.inputTokens'), file),
      message: `usage: the cached (${read ?? 0}) and written (${write ?? 0}) input tokens add up to more than \`ai.usage.inputTokens\` (${total})`,
      fix: `${FIX}: in AI SDK 6 \`ai.usage.inputTokens\` counts every input token, cached and written ones included`,
    });
    return {};
  }
  return { measured: measuredFrom(total, read, write, output) };
}

/**
 * The provider's own usage, where its AI SDK package keeps the response's `usage` whole in the
 * call's provider metadata (`ai.response.providerMetadata`, JSON text): `@ai-sdk/anthropic` does,
 * as `anthropic.usage` (vercel/ai's `packages/anthropic/src/anthropic-messages-language-model.ts`:
 * `usage: response.usage as JSONObject`, in AI SDK 5 and 6 alike) — read by the adapter's own usage
 * reader, whatever the SDK's version.
 */
function providerUsage(c: Chunk, span: OtlpSpan, provider: string): CapturedRequest['usage'] | undefined {
  const r = jsonAttribute(span.attributes.get('ai.response.providerMetadata'));
  if (!('value' in r) || !isObject(r.value)) return undefined;
  const meta = r.value[provider];
  return isObject(meta) && isObject(meta.usage) ? { value: meta.usage, at: attrPath(c, span, 'ai.response.providerMetadata') } : undefined;
}

/** A JSON-text attribute parsed (a list of JSON texts each parsed), or an error at it. */
function parsed(c: Chunk, span: OtlpSpan, key: string, file: string, errors: InputError[]): unknown {
  const v = span.attributes.get(key);
  if (v === undefined) return undefined;
  const one = (x: unknown): unknown => {
    const r = jsonAttribute(x);
    if ('problem' in r) {
      errors.push({ pos: chunkPos(c, attrPath(c, span, key), file), message: `\`${key}\`: ${r.problem}`, fix: FIX });
      return undefined;
    }
    return r.value;
  };
  return Array.isArray(v) ? v.map(one) : one(v);
}

/** An SDK prompt part → an OpenTelemetry GenAI part. */
function genaiPart(p: Obj): Obj {
  if (p.type === 'text') return { type: 'text', content: p.text };
  if (p.type === 'reasoning') return { type: 'reasoning', content: p.text };
  if (p.type === 'tool-call') return { type: 'tool_call', id: p.toolCallId, name: p.toolName, arguments: p.input };
  if (p.type === 'tool-result') return { type: 'tool_call_response', id: p.toolCallId, response: isObject(p.output) ? p.output.value : p.output };
  if (p.type === 'file')
    return typeof p.data === 'string' && /^https?:\/\//i.test(p.data)
      ? { type: 'uri', mime_type: p.mediaType, uri: p.data }
      : { type: 'blob', mime_type: p.mediaType, content: p.data };
  return p;
}

/** The prompt and tools as an OpenTelemetry GenAI body (the `otel-genai` adapter's). */
function genaiBody(model: string, prompt: Obj[], tools: Obj[]): Obj {
  const system = prompt.filter((m) => m.role === 'system').map((m) => ({ type: 'text', content: m.content }));
  const input_messages = prompt
    .filter((m) => m.role !== 'system')
    .map((m) => ({ role: m.role, parts: (Array.isArray(m.content) ? m.content : [{ type: 'text', text: m.content }]).filter(isObject).map(genaiPart) }));
  const fns = tools.filter((t) => t.type === 'function').map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.inputSchema ?? t.parameters }));
  return { model, ...(system.length && { system_instructions: system }), input_messages, ...(fns.length && { tool_definitions: fns }) };
}

/** The conversation a span's call belongs to: the `sessionId` the application passed as telemetry metadata, if any. */
function conversationOf(span: OtlpSpan): Conversation | undefined {
  const session = span.attributes.get('ai.telemetry.metadata.sessionId');
  return typeof session === 'string' && session !== '' ? { by: 'ai.telemetry.metadata.sessionId', key: session } : undefined;
}

export const aiSdkTelemetry: Capture = {
  id: 'ai-sdk-telemetry',
  title: 'AI SDK telemetry export',
  missing: [],

  detect(chunks) {
    if (!chunks.length || !chunks.every((c) => 'resourceSpans' in c.value)) return false;
    const spans = chunks.flatMap((c) => spansOf(c.value, []));
    // Spans an OpenInference processor rewrote are that capture's (openinference.ts).
    // A request span without its prompt (`recordInputs: false`) is still the AI SDK's: its reader says what to turn on.
    return spans.some(isRequest) && !spans.some((s) => s.attributes.has('openinference.span.kind'));
  },

  requests(chunks, file, errors, leftOut) {
    const all = chunks.flatMap((c) => spansOf(c.value, []).map((span) => ({ c, span })));
    const lineOf = (x: { c: Chunk; span: OtlpSpan }) => chunkPos(x.c, x.span.path, file).line;
    const calls: { c: Chunk; span: OtlpSpan }[] = [];
    for (const x of all) {
      if (!isRequest(x.span))
        leftOut.add(`\`${op(x.span) || x.span.name || 'unnamed'}\` spans`, 'not a model request: the AI SDK records each request as a `doGenerate` / `doStream` span', lineOf(x));
      else if (!x.span.attributes.has('ai.prompt.messages')) {
        // Requests the application sent, with nothing to rebuild: said on their conversation's page too.
        const conversation = conversationOf(x.span);
        leftOut.add(
          'model requests without `ai.prompt.messages`',
          'recorded without inputs (`recordInputs: false`): sent to the model, but nothing to rebuild them from',
          lineOf(x),
          1,
          conversation ? { conversation } : {},
        );
      } else calls.push(x);
    }
    if (!calls.length) {
      errors.push({ pos: { file, line: chunks[0]?.line ?? 1, col: 1 }, message: 'no AI SDK model request span records its prompt (`ai.prompt.messages`)', fix: FIX });
      return [];
    }
    calls.sort((a, b) => (a.span.startNs < b.span.startNs ? -1 : a.span.startNs > b.span.startNs ? 1 : 0));
    const out: CapturedRequest[] = [];
    for (const { c, span } of calls) {
      const before = errors.length;
      const model = span.attributes.get('ai.model.id');
      if (typeof model !== 'string' || model === '')
        errors.push({ pos: chunkPos(c, span.path, file), message: 'this model request span names no model (`ai.model.id`)', fix: FIX });
      const prompt = parsed(c, span, 'ai.prompt.messages', file, errors);
      if (errors.length === before && (!Array.isArray(prompt) || !prompt.every(isObject)))
        errors.push({ pos: chunkPos(c, attrPath(c, span, 'ai.prompt.messages'), file), message: '`ai.prompt.messages` must be a list of messages as JSON text', fix: FIX });
      const toolsRaw = parsed(c, span, 'ai.prompt.tools', file, errors);
      const tools = (Array.isArray(toolsRaw) ? toolsRaw : []).filter(isObject);
      const toolChoice = parsed(c, span, 'ai.prompt.toolChoice', file, errors);
      const provider = span.attributes.get('ai.model.provider');
      const format = typeof provider === 'string' ? formatOfAiSdkProvider(provider) : undefined;
      const adapter = format && providerOf(format);
      // The bill as the provider wrote it, where the span keeps it (a body in the provider's own format reads it); else the SDK's counts.
      const raw = adapter?.fromAiSdkPrompt ? providerUsage(c, span, adapter.provider) : undefined;
      const usage = raw ? { usage: raw } : usageOf(c, span, file, errors);
      if (errors.length > before) continue;
      const maxTokens = span.attributes.get('gen_ai.request.max_tokens');
      const promptAt = attrPath(c, span, 'ai.prompt.messages');
      const providerTools = tools.filter((t) => t.type !== undefined && t.type !== 'function');
      const rebuilt = adapter?.fromAiSdkPrompt
        ? {
            body: adapter.fromAiSdkPrompt({
              model: model as string,
              prompt: prompt as Obj[],
              tools: tools.filter((t) => t.type === undefined || t.type === 'function'),
              ...(toolChoice !== undefined && { toolChoice }),
              ...(typeof maxTokens === 'number' && { maxTokens }),
            }),
            format: format!,
            unrecorded: [PARAMETERS_UNRECORDED, ...(providerTools.length ? [PROVIDER_TOOLS_UNRECORDED] : [])],
          }
        : { body: genaiBody(model as string, prompt as Obj[], tools), format: 'otel-genai' as const, unrecorded: [AI_SDK_BODY_UNRECORDED, MARKERS_UNRECORDED] };
      const conversation = conversationOf(span);
      out.push({
        chunk: c,
        at: span.path,
        offset: out.length + 1,
        body: rebuilt.body as Obj,
        format: rebuilt.format,
        unrecorded: rebuilt.unrecorded,
        ...(span.startNs > 0n && { timestampMs: Number(span.startNs / 1_000_000n) }),
        ...('usage' in usage && { usage: usage.usage }),
        ...('measured' in usage && usage.measured && { measured: usage.measured }),
        ...('note' in usage && usage.note && { note: usage.note }),
        ...(conversation && { conversation }),
        assembled: true,
        // A path inside the body was rebuilt from the prompt's JSON text: the attribute is where it is.
        origin: () => ({ chunk: c, at: promptAt }),
      });
    }
    return out;
  },
};
