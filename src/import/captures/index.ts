/**
 * The capture formats `npm run import` reads besides request bodies and OTLP GenAI spans, in the order
 * they are tried when `--format` does not name one. Each is one module in this folder, and then each
 * provider's own log of the calls it served, which its adapter reads (provider-log.ts).
 */
import { LOGGING_PROVIDERS } from '../../providers/registry.ts';
import type { Chunk } from '../read.ts';
import { aiSdkDevtools } from './ai-sdk-devtools.ts';
import { aiSdkTelemetry } from './ai-sdk-telemetry.ts';
import { claudeCode } from './claude-code.ts';
import { codexRollout } from './codex.ts';
import { har } from './har.ts';
import { openinference } from './openinference.ts';
import { providerLogCapture } from './provider-log.ts';
import type { Capture } from './types.ts';
import { vcrCassette } from './vcr.ts';

export const CAPTURES: readonly Capture[] = [
  codexRollout,
  claudeCode,
  aiSdkDevtools,
  openinference,
  aiSdkTelemetry,
  vcrCassette,
  har,
  ...LOGGING_PROVIDERS.map(providerLogCapture),
];

export const CAPTURE_IDS = CAPTURES.map((c) => c.id);

/** The capture named by `id`, or the one these lines are (undefined: request bodies or OTLP). */
export function captureOf(chunks: readonly Chunk[], id: string | undefined): Capture | undefined {
  if (id !== undefined) return CAPTURES.find((c) => c.id === id);
  return chunks.length ? CAPTURES.find((c) => c.detect(chunks)) : undefined;
}
