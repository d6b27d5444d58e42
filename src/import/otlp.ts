/**
 * OpenTelemetry traces in OTLP JSON → one request per GenAI inference span. Read per the GenAI
 * semantic conventions (opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/, read
 * 2026-12-01): `gen_ai.input.messages` ([{role, parts: [{type, content | …}]}]),
 * `gen_ai.system_instructions` ([{type: "text", content}]), `gen_ai.tool.definitions`,
 * `gen_ai.request.model` and `gen_ai.provider.name`. The message attributes are JSON strings or
 * structured OTLP values (arrayValue / kvlistValue); both are read. Spans without
 * `gen_ai.input.messages` (content capture off, or not an inference span) are skipped and counted.
 * A span's `gen_ai.usage.*` attributes (what the provider billed) are read by usage.ts.
 */

export interface OtlpSpan {
  /** Path of the span inside the OTLP document (to locate it in the file). */
  path: (string | number)[];
  startNs: bigint;
  spanId: string;
  /** The trace it belongs to, and its parent span in that trace ('' for a root span), as OTLP JSON writes them (hex). */
  traceId: string;
  parentSpanId: string;
  /** The span's name ('' when it has none). */
  name: string;
  attributes: Map<string, unknown>;
}

export interface OtlpIssue {
  path: (string | number)[];
  message: string;
  fix: string;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An OTLP AnyValue as a plain JS value. */
export function anyValue(v: unknown): unknown {
  if (!isObject(v)) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  if ('bytesValue' in v) return v.bytesValue;
  if ('arrayValue' in v) return ((isObject(v.arrayValue) && Array.isArray(v.arrayValue.values) ? v.arrayValue.values : []) as unknown[]).map(anyValue);
  if ('kvlistValue' in v) {
    const o: Obj = {};
    for (const kv of (isObject(v.kvlistValue) && Array.isArray(v.kvlistValue.values) ? v.kvlistValue.values : []) as Obj[]) o[String(kv.key)] = anyValue(kv.value);
    return o;
  }
  return undefined;
}

/** Every span of an ExportTraceServiceRequest document, or an issue when it is not one. */
export function spansOf(doc: Obj, issues: OtlpIssue[]): OtlpSpan[] {
  const out: OtlpSpan[] = [];
  if (!Array.isArray(doc.resourceSpans)) {
    issues.push({
      path: ['resourceSpans'],
      message: '`resourceSpans` must be a list',
      fix: 'export the trace as OTLP JSON (an ExportTraceServiceRequest: {"resourceSpans": [...]})',
    });
    return out;
  }
  doc.resourceSpans.forEach((rs: unknown, i: number) => {
    const scopes = isObject(rs) && Array.isArray(rs.scopeSpans) ? rs.scopeSpans : [];
    scopes.forEach((ss: unknown, j: number) => {
      const spans = isObject(ss) && Array.isArray(ss.spans) ? ss.spans : [];
      spans.forEach((s: unknown, k: number) => {
        if (!isObject(s)) return;
        const attributes = new Map<string, unknown>();
        for (const a of Array.isArray(s.attributes) ? s.attributes : []) if (isObject(a) && typeof a.key === 'string') attributes.set(a.key, anyValue(a.value));
        let startNs = 0n;
        try {
          startNs = BigInt(String(s.startTimeUnixNano ?? '0'));
        } catch {
          issues.push({
            path: ['resourceSpans', i, 'scopeSpans', j, 'spans', k, 'startTimeUnixNano'],
            message: '`startTimeUnixNano` is not a whole number of nanoseconds',
            fix: 'write it as a decimal string, e.g. "1764577200000000000"',
          });
        }
        out.push({
          path: ['resourceSpans', i, 'scopeSpans', j, 'spans', k],
          startNs,
          spanId: String(s.spanId ?? ''),
          traceId: String(s.traceId ?? ''),
          parentSpanId: String(s.parentSpanId ?? ''),
          name: typeof s.name === 'string' ? s.name : '',
          attributes,
        });
      });
    });
  });
  return out;
}

/** A message attribute: a JSON string parsed, a structured value as is. */
export function jsonAttribute(v: unknown): { value: unknown } | { problem: string } {
  if (typeof v !== 'string') return { value: v };
  try {
    return { value: JSON.parse(v) };
  } catch (e) {
    return { problem: `it is a string but not JSON (${(e as Error).message})` };
  }
}
