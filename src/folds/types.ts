/**
 * The fold interface: what every fold (built-in or a project's own) provides, and the shapes it
 * produces. A fold is a pure, browser-safe value — no node:, no Astro — that turns an ordered event
 * list into the request the model would read at any offset, with provenance for every character.
 *
 * The scenario engine (src/scenarios) validates event payloads through the fold, then the prompt
 * layer (src/prompt) prints and annotates the snapshots a fold returns.
 */

/** One event of a stream, as the fold sees it. Offsets strictly increase. */
export interface StreamEvent {
  offset: number;
  type: string;
  /** ISO-8601 instant. */
  createdAt: string;
  payload: unknown;
}

/** A piece of a message's content and the event offsets it came from ([] = the fold's own text). */
export interface Part {
  text: string;
  from: number[];
}

/** A message of a rendered request. `content` is exactly the parts' texts joined. */
export interface RenderedMessage {
  role: string;
  content: string;
  files?: unknown[];
  parts: Part[];
  /**
   * Optional, on an `assistant` message: the tool calls it makes, after its text. The wire views
   * send them as tool calls (Anthropic `tool_use` blocks, OpenAI `tool_calls` / `function_call`
   * items) so that the `tool` messages answering them go out as tool results. The printed request
   * shows them after the content (`toolCalls:`, one JSON line per call). Put the call here only:
   * text in `content` is sent as well, as the turn's text before its calls.
   */
  toolCalls?: ToolCall[];
  /**
   * Optional, on a `tool` message: the id of the call (a `toolCalls` entry of an earlier assistant
   * message) it answers. With it the wire views send the message as a tool result (Anthropic
   * `tool_result` block, OpenAI `tool` message / `function_call_output`); without it, as user text.
   */
  toolCallId?: string;
  /**
   * Optional: the tokens the message counts as when its content only describes what the provider
   * read (an imported opaque item, e.g. encrypted reasoning: the tokens billed for it). Absent: the
   * content is counted.
   */
  tokens?: number;
}

/** A tool call an assistant message makes (see RenderedMessage.toolCalls). */
export interface ToolCall {
  /** Unique within the request; the answering `tool` message names it in `toolCallId`. Stable across requests (the cache compares bytes). */
  id: string;
  /** The tool's name ([A-Za-z0-9_-], at most 64 characters: what both providers accept). */
  name: string;
  /** The call's arguments as a JSON object (what the tool receives); {} when the fold has none. */
  input: Record<string, unknown>;
}

/**
 * A cache breakpoint the request carries: the provider may write (and later read) a cache entry for
 * the prefix of the request that ends here — Anthropic's `cache_control` on a tool, system block or
 * message block, OpenAI GPT-5.6's `prompt_cache_breakpoint` on a content part. Positions are in
 * the rendered messages, so the pane, the fixtures, the wire views and the economics all read the
 * same marker.
 *
 * The prefix is every message before `message`, plus the first `end` characters of it. A wire view
 * sends the marker on the block that ends there, splitting a text block at `end` when the position
 * falls inside one; in the `requests` fold's `tools` message a position at the end of one tool's
 * entry names that tool.
 */
export interface Breakpoint {
  /** Index into the snapshot's `messages` of the message the cached prefix ends in. */
  message: number;
  /** Characters of that message's `content` the prefix covers (0…content.length); absent: the whole message. */
  end?: number;
  /** Retention the marker asks for (Anthropic `ttl`): '5m' or '1h'; absent: the provider's default. */
  ttl?: '5m' | '1h';
}

/** Why a request event rendered nothing (the fold did not accept it). */
export interface Rejection {
  reason: string;
}

/**
 * The request as of one event. For a request event the fold accepted, `request` carries its model
 * and `messages` are exactly what was sent; for any other event, `messages` are what the model would
 * read if a request were accepted right after it (no new send stamp), and `request` is absent.
 */
export interface Snapshot {
  offset: number;
  messages: RenderedMessage[];
  request?: { model: string };
  rejected?: Rejection;
  /**
   * Optional: where this request carries cache breakpoints, in order of position (message, then
   * `end`; two markers may share a position — e.g. a trace's explicit marker and its automatic one
   * on the same block). Absent or empty: the request carries none, and the economics use the
   * provider profile's default placement — for a fold's own request only (docs/cache-economics.md, "What the provider would cache":
   * a request `asSent` gets none). Read for accepted requests only. The pipeline checks
   * what a fold returns (breakpoints.ts): a message index out of range, an `end` outside the
   * content, an unknown `ttl` or positions out of order are reported as an error naming the fold
   * and the request. Keep them few: Anthropic accepts at most 4 per request.
   */
  breakpoints?: Breakpoint[];
  /**
   * The request is one as it was sent (an imported trace: the `requests` fold), so its breakpoints
   * are the whole truth: none means it asks for no caching, and the economics apply no default
   * placement (docs/cache-economics.md, "What the provider would cache" — a provider caches nothing the request does not ask for,
   * unless its caching is automatic). Absent: a fold's own request, whose missing breakpoints get
   * the provider's common strategy.
   */
  asSent?: true;
}

/** A problem with an event's payload or the fold options, located by a path inside the value. */
export interface Issue {
  /** Path inside the payload (or options) — e.g. ["actor", "type"]; [] means the value itself. */
  path: (string | number)[];
  message: string;
  fix: string;
}

/** A long piece of fold boilerplate that fixtures and pages print as a one-line stand-in. */
export interface Abridgement {
  text: string;
  standIn: string;
}

/**
 * An event as a scenario author wrote it, before the fold's `expand` hook: one authored event may
 * stand for several stream events (a batch syntax).
 */
export interface AuthoredEvent {
  offset: number;
  type: string;
  createdAt: string;
  /** Milliseconds since the scenario's time zero. */
  elapsedMs: number;
  payload: Record<string, unknown>;
}

/** One stream event an authored event expands into; offsets run consecutively from the authored one. */
export interface ExpandedEvent {
  payload: Record<string, unknown>;
  /**
   * Where this event's own fields are written inside the authored payload (e.g. ["sections", 2]);
   * payload paths of its issues that start with one of `ownFields` are located under it.
   */
  at?: (string | number)[];
  /** Payload fields written per expanded event (under `at`); every other field is shared by the batch. */
  ownFields?: readonly string[];
}

/** The result of `expand`: the stream events, or the problems that keep it from expanding. */
export interface Expansion {
  events: ExpandedEvent[];
  /** The authored event was a batch (its cards say so, even for a batch of one). */
  batch?: boolean;
  /** Problems with the authored payload (paths inside it). Non-empty: `events` is ignored. */
  issues?: Issue[];
}

/** One event's payload after `resolve`: `payload` as the pipeline reads it, or (non-empty) `issues`, which win. */
export interface Resolution {
  payload?: Record<string, unknown>;
  issues?: Issue[];
}

/** How an event is shown on its timeline card. */
export interface EventDescription {
  /** One line of plain text (the site shortens it). */
  preview?: string;
  /** Short labels, e.g. `key=identity`, `⚠ rewrite`. */
  badges?: string[];
  /** Other events this one points at, e.g. `{label: 'supersedes', offset: 12}`. */
  links?: { label: string; offset: number }[];
}

/** A JSON Schema (draft 2020-12) object, as plain data. */
export type JsonSchema = Record<string, unknown>;

/** What a hook returns: the value, or a Promise of it — every hook of a fold may be asynchronous. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * A fold. Every function member may return a value or a Promise (MaybePromise): the pipeline calls
 * each through src/folds/hooks.ts, which awaits it and turns a throw into an error located at the
 * scenario event being folded.
 */
export interface Fold<Options extends object = Record<string, unknown>> {
  /** Stable id a scenario names in `fold:`; [a-z0-9-]+. */
  id: string;
  title: string;
  /** One sentence: what platform or design this fold models. */
  description: string;
  /** Default options; a scenario's `options:` are shallow-merged over these. */
  defaults: Options;
  /** Event types this fold consumes; anything else is an input error. */
  eventTypes: readonly string[];
  /** Event types that are sends: each one in a scenario is a request the fixtures pin. */
  requestTypes: readonly string[];
  /** Validate options after merging; [] when fine. */
  validateOptions(options: Options): MaybePromise<Issue[]>;
  /** Validate one event's payload (its type is already known to be in eventTypes); [] when fine. */
  validateEvent(type: string, payload: unknown): MaybePromise<Issue[]>;
  /**
   * Reduce `events` once (in order) and return a snapshot for every event whose offset is in `at`
   * (in event order). Events are already validated. Must cost O(events + output).
   */
  snapshots(events: readonly StreamEvent[], options: Options, at: ReadonlySet<number>): MaybePromise<Snapshot[]>;

  // ── Optional hooks (every one has a generic default; see src/folds/hooks.ts) ─────────────────

  /** Boilerplate stand-ins for these options (long fixed texts printed abridged). Default: none. */
  abridgements?(options: Options): MaybePromise<Abridgement[]>;

  /**
   * Expand one authored event into stream events — a fold's own batch syntax. Default: the event
   * as written. Runs before validation; the expanded events are what `validateEvent` sees.
   */
  expand?(event: AuthoredEvent): MaybePromise<Expansion>;
  /**
   * Fill derived payload fields an author may omit (e.g. an expiry computed from createdAt).
   * Default: the payload unchanged. Runs after expand, before validation.
   */
  derive?(event: AuthoredEvent): MaybePromise<Record<string, unknown>>;
  /**
   * Resolve payloads written relative to an earlier event of the stream — the `requests` fold's
   * `extends:`, a request stored as what it adds to the previous one. Called once per chain (a
   * base's events first) with every event after expand and derive, before validation; returns, in
   * the same order, each event's payload as the rest of the pipeline reads it, or the issues (paths
   * inside the payload as written) that keep it from resolving. Default: every payload as written.
   */
  resolve?(events: readonly AuthoredEvent[]): MaybePromise<Resolution[]>;
  /**
   * Describe every event of a chain for its card, in order (one pass, so a fold can say what an
   * event supersedes). Default: a preview from the payload's first text field, no badges.
   */
  describe?(events: readonly StreamEvent[], options: Options): MaybePromise<EventDescription[]>;
  /**
   * The JSON Schema of each event type's payload, for the generated payload reference and the
   * editor schema. Default: none (the reference lists the types without fields).
   */
  payloadSchemas?(): MaybePromise<Readonly<Record<string, JsonSchema>>>;
  /** JSON Schema of the options object. */
  optionsSchema?(): MaybePromise<JsonSchema>;
  /** Rules the schemas cannot show (ordering, settlement, …), as short Markdown paragraphs. */
  rules?: readonly string[];
}

/** Any fold, whatever its options type. */
// biome-ignore lint/suspicious/noExplicitAny: a registry of folds holds each with its own options type
export type AnyFold = Fold<any>;
