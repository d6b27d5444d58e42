/**
 * The `--format` values of request bodies and spans: each provider adapter's import name (its id,
 * or `otlp` for OpenTelemetry spans). Capture formats have their own (captures/index.ts CAPTURE_IDS).
 */
import { otelGenai } from '../providers/otel-genai.ts';
import { PROVIDERS, type ProviderId as RequestFormat } from '../providers/registry.ts';

export const INPUT_FORMATS: readonly string[] = PROVIDERS.map((p) => p.importName ?? p.id);
export type InputFormat = string;
/** The `--format` value that reads OTLP trace documents (the OpenTelemetry adapter's). */
export const OTLP = otelGenai.importName!;
/** The format id of a `--format` value. */
export const formatOf = (name: string): RequestFormat | undefined => PROVIDERS.find((p) => (p.importName ?? p.id) === name)?.id;
