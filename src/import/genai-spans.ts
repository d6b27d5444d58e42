/**
 * OpenTelemetry GenAI spans → one `otel-genai` request per inference span, in start-time order.
 * Two file shapes: OTLP JSON (`{"resourceSpans": …}`, otlp.ts), and the OpenTelemetry SDK's own
 * span JSON — what Python's `ConsoleSpanExporter` prints (`span.to_json()`: `name`, `context:
 * {trace_id, span_id}`, `start_time` ISO-8601 with microseconds, `attributes` a plain object,
 * `events: [{name, timestamp, attributes}]`; github.com/open-telemetry/opentelemetry-python
 * `opentelemetry-sdk/src/opentelemetry/sdk/trace/__init__.py` `ReadableSpan.to_json`, read
 * 2026-12-06), one object per span, pretty-printed one after another or one per line.
 *
 * A span's messages are read in whichever convention's shape it carries (genai-messages.ts); a
 * span with none (content capture off, or not an inference span) is left out and reported. The
 * model is `gen_ai.request.model`; the tools `gen_ai.tool.definitions` or OpenLLMetry's
 * `llm.request.functions.*`; the usage the adapter's (otel-genai.ts). The conventions record no cache
 * marker (`cache_control`), so every request says it lacks them (MARKERS_UNRECORDED): a request
 * that reads nothing is not said to ask for no caching when the span simply cannot show it.
 */
import { MARKERS_UNRECORDED } from '../economics/measured.ts';
import type { InputError } from '../scenarios/errors.ts';
import type { MeasuredUsage } from '../providers/types.ts';
import { eventMessages, indexedFunctions, indexedPrompt, messagesOf, type GenaiMessage } from './genai-messages.ts';
import type { LeftOutTally } from './left-out.ts';
import { anyValue, jsonAttribute, spansOf, type OtlpIssue } from './otlp.ts';
import { chunkPos, isObject, type Chunk } from './read.ts';
import { readSpanUsage, type UsageIssue } from './usage.ts';

type Obj = Record<string, unknown>;
type Path = (string | number)[];

/** A request rebuilt from a span (the importer's request, before secrets and checks). */
export interface SpanRequest {
  chunk: Chunk;
  at: Path;
  offset: number;
  body: Obj;
  timestampMs: number;
  measured?: MeasuredUsage;
  /** What the provider received that the span does not record (the payload's `unrecorded`). */
  unrecorded?: string[];
}

/** A span event's name and attributes, and where one of its attributes is in the chunk. */
interface SpanEvent {
  name: unknown;
  fields: Obj;
  fieldAt(key: string): Path;
}

interface Span {
  chunk: Chunk;
  at: Path;
  startNs: bigint;
  spanId: string;
  attrs: Map<string, unknown>;
  /** Where an attribute's value is in the chunk (the span when it has none). */
  attrAt(key: string): Path;
  events: SpanEvent[];
}

/** The OpenTelemetry SDK's span JSON (`span.to_json()`), not an OTLP document. */
export const isSdkSpan = (v: Obj): boolean => !('resourceSpans' in v) && isObject(v.context) && isObject(v.attributes) && typeof v.name === 'string';
/** A chunk this module reads: an OTLP document or an SDK span. */
export const isSpanDocument = (v: Obj): boolean => 'resourceSpans' in v || isSdkSpan(v);

/** An ISO-8601 instant with up to nanosecond digits → nanoseconds since the epoch. */
function isoNs(v: unknown): bigint | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})$/.exec(v);
  if (!m) return undefined;
  const s = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(s)) return undefined;
  return BigInt(s) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'));
}

function spansIn(chunks: readonly Chunk[], file: string, errors: InputError[]): Span[] {
  const out: Span[] = [];
  for (const c of chunks) {
    const issues: OtlpIssue[] = [];
    if ('resourceSpans' in c.value) {
      for (const s of spansOf(c.value, issues)) {
        const raw = s.path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], c.value) as Obj;
        const list = Array.isArray(raw.attributes) ? raw.attributes : [];
        const events = (Array.isArray(raw.events) ? raw.events : []).flatMap((e, ei): SpanEvent[] => {
          if (!isObject(e)) return [];
          const list = Array.isArray(e.attributes) ? e.attributes : [];
          return [
            {
              name: e.name,
              fields: Object.fromEntries(list.filter((a) => isObject(a) && typeof a.key === 'string').map((a) => [a.key as string, anyValue(a.value)])),
              fieldAt: (key) => {
                const i = list.findIndex((a: unknown) => isObject(a) && a.key === key);
                return i >= 0 ? [...s.path, 'events', ei, 'attributes', i, 'value'] : [...s.path, 'events', ei];
              },
            },
          ];
        });
        out.push({
          chunk: c,
          at: s.path,
          startNs: s.startNs,
          spanId: s.spanId,
          attrs: s.attributes,
          attrAt: (key) => {
            const i = list.findIndex((a: unknown) => isObject(a) && a.key === key);
            return i >= 0 ? [...s.path, 'attributes', i, 'value'] : s.path;
          },
          events,
        });
      }
    } else if (isSdkSpan(c.value)) {
      const v = c.value;
      const startNs = isoNs(v.start_time);
      if (startNs === undefined)
        issues.push({
          path: ['start_time'],
          message: '`start_time` is not an ISO-8601 instant',
          fix: 'import the span JSON as the SDK wrote it (e.g. "2026-12-01T10:00:00.123456Z")',
        });
      const attributes = v.attributes as Obj;
      const events = (Array.isArray(v.events) ? v.events : []).flatMap((e, ei): SpanEvent[] => {
        if (!isObject(e)) return [];
        const fields = isObject(e.attributes) ? e.attributes : {};
        return [{ name: e.name, fields, fieldAt: (key) => (key in fields ? ['events', ei, 'attributes', key] : ['events', ei]) }];
      });
      out.push({
        chunk: c,
        at: [],
        startNs: startNs ?? 0n,
        spanId: String((v.context as Obj).span_id ?? ''),
        attrs: new Map(Object.entries(attributes)),
        attrAt: (key) => (key in attributes ? ['attributes', key] : []),
        events,
      });
    } else
      issues.push({
        path: [],
        message: 'this line is neither an OTLP trace document (`resourceSpans`) nor a span (`name`, `context`, `attributes`)',
        fix: 'export the spans as OTLP JSON, or as the SDK prints them (span.to_json())',
      });
    for (const i of issues) errors.push({ pos: chunkPos(c, i.path, file), message: i.message, fix: i.fix });
  }
  return out;
}

/**
 * What a span whose `gen_ai.prompt` holds one message object, not the list the conventions ask
 * for, does not record. Mirascope's `with_otel` writes it so — `json.dumps(result.user_message_param)`,
 * the call's last user message (github.com/Mirascope/mirascope `mirascope/integrations/otel/_utils.py`
 * at 5971c07, read 2026-12-06) — so a system prompt or earlier turns the provider billed are not in it.
 */
export const ONE_MESSAGE_UNRECORDED = "the prompt's other messages (its `gen_ai.prompt` holds one message)";

/** What a provider's name looks like in `gen_ai.provider.name` / `gen_ai.system`: one word of the conventions' well-known values' kind. */
const PROVIDER_NAME = /^[A-Za-z0-9][\w.-]*$/;

type Input = { messages: GenaiMessage[]; at?: Path; unrecorded?: string[] } | { problem: string; at?: Path };

/** The span's input messages in whichever convention's shape it carries, where they are, or a problem there. */
function inputOf(span: Span): Input | undefined {
  const fromList = (value: unknown, key: string, at: Path, one = false): Input => {
    const parsed = jsonAttribute(value);
    if ('problem' in parsed) return { problem: `\`${key}\`: ${parsed.problem}`, at };
    // semconv ≤ 1.27's `gen_ai.prompt` as one message object (Mirascope): that message, and the rest said to be unrecorded.
    if (one && isObject(parsed.value) && 'role' in parsed.value) {
      const r = messagesOf([parsed.value]);
      return 'problem' in r ? { problem: `\`${key}\`: ${r.problem}`, at } : { messages: r.messages, at, unrecorded: [ONE_MESSAGE_UNRECORDED] };
    }
    const r = messagesOf(parsed.value);
    return 'problem' in r ? { problem: `\`${key}\`${r.index !== undefined ? ` message ${r.index}` : ''}: ${r.problem}`, at } : { messages: r.messages, at };
  };
  if (span.attrs.has('gen_ai.input.messages')) return fromList(span.attrs.get('gen_ai.input.messages'), 'gen_ai.input.messages', span.attrAt('gen_ai.input.messages'));
  const indexed = indexedPrompt(span.attrs);
  if (indexed) {
    const key = `gen_ai.prompt.${'problem' in indexed ? indexed.index : 0}.content`;
    return 'problem' in indexed ? { problem: `\`gen_ai.prompt.${indexed.index}\`: ${indexed.problem}`, at: span.attrAt(key) } : indexed;
  }
  if (span.attrs.has('gen_ai.prompt')) return fromList(span.attrs.get('gen_ai.prompt'), 'gen_ai.prompt', span.attrAt('gen_ai.prompt'), true);
  const promptEvent = span.events.find((e) => e.name === 'gen_ai.content.prompt' && 'gen_ai.prompt' in e.fields);
  if (promptEvent) return fromList(promptEvent.fields['gen_ai.prompt'], 'gen_ai.prompt', promptEvent.fieldAt('gen_ai.prompt'), true);
  const fromEvents = eventMessages(span.events);
  if (fromEvents) return { messages: fromEvents };
  // Logfire / pydantic-ai (instrumentation version 1): the message events as one JSON attribute.
  if (span.attrs.has('events')) {
    const parsed = jsonAttribute(span.attrs.get('events'));
    if ('value' in parsed && Array.isArray(parsed.value)) {
      const list = parsed.value.filter(isObject).map((e) => ({ name: e['event.name'], fields: e }));
      const msgs = eventMessages(list);
      if (msgs) return { messages: msgs, at: span.attrAt('events') };
    }
  }
  return undefined;
}

/** GenAI inference spans of the chunks, as `otel-genai` bodies, in start-time order; spans without input are left out. */
export function spansToRequests(chunks: readonly Chunk[], file: string, errors: InputError[], leftOut: LeftOutTally): { reqs: SpanRequest[]; skipped: number } {
  const found = spansIn(chunks, file, errors).map((span) => ({ span, input: inputOf(span) }));
  const withInput = found.filter((f) => f.input !== undefined);
  for (const f of found)
    if (!f.input)
      leftOut.add(
        'spans without recorded input messages',
        'no `gen_ai.input.messages`, `gen_ai.prompt` or message events: not a request to rebuild',
        chunkPos(f.span.chunk, f.span.at, file).line,
      );
  if (!withInput.length && !errors.length) {
    errors.push({
      pos: { file, line: chunks[0]?.line ?? 1, col: 1 },
      message: `no span records its input messages (\`gen_ai.input.messages\`, \`gen_ai.prompt\` or message events; ${found.length} span${found.length === 1 ? '' : 's'} read)`,
      fix: found.some((f) => f.span.attrs.has('openinference.span.kind'))
        ? 'these are OpenInference spans: import them with --format openinference (or without --format: they are detected)'
        : found.some((f) => f.span.attrs.has('ai.prompt.messages'))
          ? // The AI SDK records its prompt by default (ai-sdk.dev/docs/ai-sdk-core/telemetry, read 2026-12-07), in attributes of its own.
            'these are Vercel AI SDK telemetry spans (`ai.prompt.messages`), which this import does not read: record the calls with the AI SDK DevTools middleware and import its .devtools/generations.json (--format ai-sdk-devtools)'
          : 'turn on message content capture in your GenAI instrumentation (it is opt-in), so inference spans record their input messages',
    });
  }
  withInput.sort((a, b) =>
    a.span.startNs < b.span.startNs ? -1 : a.span.startNs > b.span.startNs ? 1 : a.span.spanId < b.span.spanId ? -1 : a.span.spanId > b.span.spanId ? 1 : 0,
  );
  let provider: { name: string; pos: InputError['pos'] } | undefined;
  const reqs: SpanRequest[] = [];
  withInput.forEach(({ span, input }, i) => {
    const { chunk, at } = span;
    const pos = (key?: string) => chunkPos(chunk, key ? span.attrAt(key) : at, file);
    const providerKey = span.attrs.has('gen_ai.provider.name') ? 'gen_ai.provider.name' : 'gen_ai.system';
    const name = span.attrs.get(providerKey);
    // A provider is a name ("openai", "aws.bedrock"); Mirascope's with_otel writes its prompt template into `gen_ai.system` ("" without one): not a provider.
    if (typeof name === 'string' && PROVIDER_NAME.test(name)) {
      if (!provider) provider = { name, pos: pos(providerKey) };
      else if (provider.name.toLowerCase() !== name.toLowerCase()) {
        errors.push({
          pos: pos(providerKey),
          message: `this span's provider is \`${name}\`, but an earlier span's (line ${provider.pos.line}) is \`${provider.name}\` — a scenario shows one provider's requests`,
          fix: 'export the spans of one provider (filter on gen_ai.provider.name), and import each provider separately',
        });
      }
    }
    const model = span.attrs.get('gen_ai.request.model');
    if (typeof model !== 'string' || model === '') {
      errors.push({ pos: pos(), message: 'this GenAI span has no `gen_ai.request.model`', fix: 'record the requested model on inference spans (gen_ai.request.model)' });
      return;
    }
    if (!input || 'problem' in input) {
      errors.push({
        pos: chunkPos(chunk, input?.at ?? at, file),
        message: input!.problem,
        fix: 'import the spans as the instrumentation recorded them: each message an object with its `role`',
      });
      return;
    }
    const body: Obj = { model };
    if (span.attrs.has('gen_ai.system_instructions')) {
      const parsed = jsonAttribute(span.attrs.get('gen_ai.system_instructions'));
      if ('problem' in parsed)
        errors.push({
          pos: pos('gen_ai.system_instructions'),
          message: `\`gen_ai.system_instructions\`: ${parsed.problem}`,
          fix: 'record it as JSON text or as a structured value, per the GenAI semantic conventions',
        });
      else body.system_instructions = parsed.value;
    }
    body.input_messages = input.messages;
    if (span.attrs.has('gen_ai.tool.definitions')) {
      const parsed = jsonAttribute(span.attrs.get('gen_ai.tool.definitions'));
      if ('problem' in parsed)
        errors.push({
          pos: pos('gen_ai.tool.definitions'),
          message: `\`gen_ai.tool.definitions\`: ${parsed.problem}`,
          fix: 'record it as JSON text or as a structured value, per the GenAI semantic conventions',
        });
      else body.tool_definitions = parsed.value;
    } else {
      const fns = indexedFunctions(span.attrs);
      if (fns) body.tool_definitions = fns;
    }
    const usageIssues: UsageIssue[] = [];
    const measured = readSpanUsage(span.attrs, usageIssues);
    for (const u of usageIssues) errors.push({ pos: pos(String(u.path[0])), message: `GenAI span usage: ${u.message}`, fix: u.fix });
    reqs.push({
      chunk,
      at,
      offset: i + 1,
      body,
      timestampMs: Number(span.startNs / 1_000_000n),
      ...(measured && { measured }),
      // The conventions have no attribute for a cache marker: whether the request as sent asked for caching is not in the span.
      unrecorded: [...(input.unrecorded ?? []), MARKERS_UNRECORDED],
    });
  });
  return { reqs, skipped: found.length - withInput.length };
}
