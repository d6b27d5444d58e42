/**
 * A capture format: a file an agent or a tool writes as it runs (a Codex rollout, a Claude Code
 * transcript, …) that holds the requests only implicitly — a line per message or event, not a line
 * per request body. Its reader rebuilds each request the agent sent, in one provider's body format,
 * from the lines before it, and hands the import the same requests a body trace gives (index.ts):
 * from then on usage, secrets and the fold's checks are the importer's own. What a capture does not
 * record (a system prompt, the tool definitions) is listed in `missing` and said on the page;
 * nothing is invented to fill it. Nothing is skipped silently either: every line (or part of one) a
 * reader does not turn into a request — a line type that is not a request, a sub-agent's line it
 * does not follow, a line it cannot read — is counted in `leftOut` with what and why, and the import
 * prints it (left-out.ts).
 */
import type { ProviderId as RequestFormat } from '../../providers/registry.ts';
import type { MeasuredUsage, ProviderMiss } from '../../providers/types.ts';
import type { InputError } from '../../scenarios/errors.ts';
import type { LeftOutTally } from '../left-out.ts';
import type { Chunk } from '../read.ts';
import type { Conversation } from '../log/group.ts';

/** One request rebuilt from a capture. */
export interface CapturedRequest {
  /** The line that names it (errors point there), and the path of what it came from in that line. */
  chunk: Chunk;
  at: (string | number)[];
  /** The scenario event's offset (the capture line). */
  offset: number;
  body: Record<string, unknown>;
  timestampMs?: number;
  /** The usage in the provider's own response shape (read by usage.ts), and where it sits (in `chunk`, or its own line). */
  usage?: { value: unknown; at: (string | number)[]; chunk?: Chunk };
  /** The provider format this request names (a capture that records it), when the capture's is not fixed. */
  format?: RequestFormat;
  /** What the provider billed, when the capture records it already normalised (else `usage`). */
  measured?: MeasuredUsage;
  /** The provider's verdict on a cache miss, as its response carried it (Anthropic's `diagnostics.cache_miss_reason`). */
  providerMiss?: ProviderMiss;
  /** The body was assembled from several lines: a path inside it does not lead into `chunk`. */
  assembled: true;
  /** Where a path inside the body came from: its line and the path there (undefined: `chunk` at `at`). */
  origin?: (path: readonly (string | number)[]) => { chunk: Chunk; at: (string | number)[] } | undefined;
  /**
   * The conversation the capture says this request belongs to (its session key); absent: the
   * import groups it by the body's own key or its prefix chain (log/group.ts), over `messages`
   * when the body's message list is not `messages` / `input`.
   */
  conversation?: Conversation;
  /**
   * The conversation this one was started from, when the capture says so (a Claude Code sub-agent's
   * session, an OpenInference sub-agent's caller): imported with --out-dir, its scenario shares the parent's cache (`sharesCache:`, from
   * the parent's request before its first one); imported alone beside its parent's requests, it is
   * left out and said.
   */
  parent?: Conversation;
  messages?: readonly unknown[];
  /** What the page must say about this request beyond the capture's `missing` (e.g. usage not read rather than guessed). */
  note?: string;
  /** What this request's source does not record beyond the capture's `missing` (a span that holds one message of the prompt). */
  unrecorded?: string[];
}

export interface Capture {
  /** `--format` value. */
  id: string;
  title: string;
  /** The provider format of the rebuilt bodies (absent: each request's own `format`, or the bodies' shape, decides). */
  format?: RequestFormat;
  /** What the capture does not hold, for the page: "the system prompt", … (empty when complete). */
  missing: string[];
  /** Whether these lines are this capture (every line of its shape). */
  detect(chunks: readonly Chunk[]): boolean;
  /**
   * The requests, in order; problems are pushed, located at their line. Whatever the reader reads
   * past without making it (part of) a request is added to `leftOut` — what, why, the line — e.g.
   * `leftOut.add('`progress` lines', 'progress notes of the UI, not sent to the model', c.line)`.
   */
  requests(chunks: readonly Chunk[], file: string, errors: InputError[], leftOut: LeftOutTally): CapturedRequest[];
}
