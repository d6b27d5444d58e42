/**
 * Every request of a trace, read and checked as a whole before it is split into conversations: the
 * kind of input chosen (a capture format, OTLP spans, or request bodies), its requests read
 * (captures/, genai-spans.ts, bodies.ts), their one provider format (choose-format.ts), and the usage
 * each carries read into measured figures (usage.ts). Problems are pushed, located; nothing is
 * returned then.
 */
import type { InputError } from '../scenarios/errors.ts';
import { otelGenai } from '../providers/otel-genai.ts';
import type { ProviderId as RequestFormat } from '../providers/registry.ts';
import { bodiesOf } from './bodies.ts';
import { captureOf } from './captures/index.ts';
import type { Capture } from './captures/types.ts';
import { captureFormat, chooseFormat } from './choose-format.ts';
import { formatOf, OTLP, type InputFormat } from './input-formats.ts';
import { LeftOutTally, type LeftOut } from './left-out.ts';
import { chunkPos, type Chunk } from './read.ts';
import type { DroppedSecret, Req } from './request.ts';
import { isSpanDocument, spansToRequests } from './genai-spans.ts';
import { readUsage, type UsageIssue } from './usage.ts';

/** What gathering needs of the import's options. */
export interface GatherOptions {
  file: string;
  format?: InputFormat;
  /** A capture format's id (captures/index.ts CAPTURES), as `--format` names it; detected when absent. */
  capture?: string;
}

/** The requests of a trace, read and checked as a whole, before they are split into conversations. */
export interface Gathered {
  reqs: Req[];
  format: RequestFormat;
  capture?: Capture;
  isOtlp: boolean;
  skippedSpans: number;
  /** What was read past without becoming a request (of the whole trace, not one conversation). */
  leftOut: LeftOut[];
  /** Secrets dropped while reading (credential headers), before the bodies are scrubbed. */
  dropped: DroppedSecret[];
}

/** Every request of the chunks, its format and usage; problems are pushed (located), nothing returned then. */
export function gather(chunks: Chunk[], opts: GatherOptions, errors: InputError[]): Gathered | undefined {
  const { file } = opts;
  const dropped: DroppedSecret[] = [];
  const leftOut = new LeftOutTally();
  // A capture is recognised first: an OpenInference export is OTLP JSON too, but not GenAI spans.
  const capture = opts.format === OTLP ? undefined : captureOf(chunks, opts.capture);
  const otlp = chunks.filter((c) => isSpanDocument(c.value));
  const isOtlp = !capture && (opts.format === OTLP || otlp.length > 0);
  if (isOtlp && otlp.length < chunks.length) {
    const odd = chunks.find((c) => !isSpanDocument(c.value))!;
    const other = otlp[0];
    errors.push({
      pos: { file, line: odd.line, col: 1 },
      message: other
        ? `this line is a request body, but line ${other.line} is an OTLP trace document or span — mixed inputs`
        : 'this is neither an OTLP trace document (no `resourceSpans`) nor a span',
      fix: other
        ? 'import the OTLP export and the request bodies from separate files'
        : "export the trace as OTLP JSON (or the SDK's span JSON), or pass the --format of the request bodies instead of otlp",
    });
    return undefined;
  }
  let reqs: Req[];
  let format: RequestFormat | undefined;
  let skippedSpans = 0;
  if (capture) {
    reqs = capture.requests(chunks, file, errors, leftOut);
    format = capture.format ?? (errors.length || !reqs.length ? undefined : captureFormat(reqs, file, errors));
    if (!reqs.length && !errors.length)
      errors.push({
        pos: { file, line: chunks[0]?.line ?? 1, col: 1 },
        message: `this ${capture.title} holds no request (no model reply)${
          leftOut.list().length
            ? `; read past: ${leftOut
                .list()
                .map((e) => `${e.count} ${e.what} (${e.why})`)
                .join(', ')}`
            : ''
        }`,
        fix: 'import a capture of a session in which the model answered at least once',
      });
  } else if (isOtlp) {
    ({ reqs, skipped: skippedSpans } = spansToRequests(chunks, file, errors, leftOut));
    format = otelGenai.id;
  } else {
    reqs = bodiesOf(chunks, file, errors, dropped);
    if (errors.length) return undefined;
    format = opts.format ? formatOf(opts.format) : chooseFormat(reqs, file, errors);
  }
  if (errors.length || !format) return undefined;
  if (!isOtlp) {
    for (const r of reqs) {
      if (!r.usage) continue;
      const issues: UsageIssue[] = [];
      const measured = readUsage(format, r.usage.value, issues);
      for (const u of issues)
        errors.push({ pos: chunkPos(r.usage.chunk ?? r.chunk, [...r.usage.at, ...u.path], file, u.key), message: `response usage: ${u.message}`, fix: u.fix });
      if (measured) r.measured = measured;
    }
    if (errors.length) return undefined;
  }
  return { reqs, format, ...(capture && { capture }), isOtlp, skippedSpans, leftOut: leftOut.list(), dropped };
}
