/**
 * The one interface every provider format implements (docs/cache-economics.md, "What the provider would cache"): an adapter is one
 * object that knows one wire format end to end — how to recognise a body, its schema, how it reads
 * as rendered messages with their cache breakpoints, how its response usage reads, how a rendered
 * request is written back as that body (and sent, as cURL), where its provider puts breakpoints by
 * default, how its provider caches (a `CacheStrategy`), and the models it knows (catalog entries).
 * The registry (registry.ts) walks the adapters in order, as Astro walks image services or shiki its
 * transformers: importing, the `requests` fold, the wire views and the economics ask the registry
 * and never switch on a provider's name.
 *
 * Pure, browser-safe types: providers sit in the folds layer (.dependency-cruiser.cjs), because the
 * `requests` fold reads bodies through them.
 */
import type * as z from 'zod';
import type { Breakpoint, Issue, RenderedMessage } from '../folds/types.ts';
import type { ModelFacts, ProviderFallback } from './shared/catalog.ts';

/** A figure and where it comes from. */
export interface Sourced<T = number> {
  value: T;
  /** URL the figure was read from (or `astro.config.mjs` for a project's own figure). */
  source: string;
  /** Date it was read, YYYY-MM-DD. */
  read: string;
  note?: string;
}

/** What the provider billed for one request, normalised (a figure not reported is left out). */
export interface MeasuredUsage {
  inputTokens: number;
  cachedTokens?: number;
  cacheWriteTokens?: number;
  /** Of `cacheWriteTokens`, those written with a 1-hour retention (Anthropic's `cache_creation.ephemeral_1h_input_tokens`; priced at the 1-hour write price). Left out: not reported. */
  cacheWrite1hTokens?: number;
  /**
   * Output tokens the provider billed (Anthropic `output_tokens`, OpenAI Chat `completion_tokens`,
   * Responses `output_tokens`, GenAI `gen_ai.usage.output_tokens`; reasoning tokens included, as
   * they are billed as output). Left out: not reported.
   */
  outputTokens?: number;
}

/**
 * The provider's own verdict on a request's cache miss, as its response reported it: Anthropic's
 * cache diagnostics (`diagnostics.cache_miss_reason`: `type` — model_changed, system_changed,
 * tools_changed, messages_changed, previous_message_not_found, unavailable — and
 * `cache_missed_input_tokens`; platform.claude.com/docs/en/build-with-claude/cache-diagnostics, read
 * 2026-12-06) or OpenAI's prompt cache diagnostics (`prompt_cache_diagnostics`: a `cache_miss`'s
 * `reason` — model_changed, tools_changed, input_changed, … — and `cache_missed_tokens`;
 * developers.openai.com/api/docs/guides/prompt-caching/diagnostics, read 2026-12-06). `type` is the
 * provider's word, kept as it was written.
 */
export interface ProviderMiss {
  type: string;
  /** Input tokens the provider says the miss cost (left out: not reported). */
  missedInputTokens?: number;
}

/** A problem with a usage value; `path` is inside it (an OTel span: the attribute's key). */
export interface UsageIssue {
  path: (string | number)[];
  message: string;
  fix: string;
  /** The issue is about a field's name, not its value. */
  key?: boolean;
}

/** A cache marker in a normalised message: the characters of its text the cached prefix covers. */
export interface Mark {
  end: number;
  ttl?: '5m' | '1h';
}

/** A body's message as the model reads it, provider-neutral. */
export interface NormalMessage {
  role: string;
  text: string;
  /** Cache markers in this message, in order (absent: none). */
  marks?: Mark[];
  /**
   * The tokens this message counts as, when its text is not what the provider reads (an opaque
   * item: encrypted reasoning, shared/opaque.ts — the text only describes it). Absent: its text is counted.
   */
  tokens?: number;
}

/** A JSON value as the wire writers build it (objects keep insertion order: deterministic output). */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** What a fold rendered for one request: the model, the messages and the cache breakpoints it carries. */
export interface WireSource {
  model: string;
  messages: readonly RenderedMessage[];
  /** The request's own breakpoints (absent or empty: none — the adapter's default strategy applies). */
  breakpoints?: readonly Breakpoint[];
}

/**
 * What a page's wire views need of a provider, and nothing more: its id and title, the writer of its
 * body and where that body is sent. Each provider's wire module defines its face; the adapter takes
 * the same object (so the browser's wire views load the writers without the adapters' schemas:
 * wire-faces.ts).
 */
export interface WireFace<Id extends string = string> {
  id: Id;
  title: string;
  /** A rendered request → this format's body. */
  write(src: WireSource): JsonObject;
  endpoint: Endpoint;
}

/** Where a body is sent: the endpoint, its headers (the key only as an environment-variable reference). */
export interface Endpoint {
  url: string;
  headers: string[];
  /** Name of the environment variable holding the API key. */
  keyVar: string;
  /**
   * This provider's own headers that carry a credential or name the account, beyond the common ones
   * (`authorization`, `x-api-key`, `cookie`, …): an import never stores a header, and reports these
   * as credential headers (src/import/secrets.ts).
   */
  credentialHeaders?: readonly string[];
}

/**
 * Something about a body as sent that its provider documents as doing nothing or not being honoured
 * (a marker the API does not read, a checkpoint where the model caches nothing): a warning, located
 * at `path` inside the body, with the fix and the provider's rule.
 */
export interface BodyFinding {
  path: (string | number)[];
  /** The lint rule's name (src/request-lint/request-lint.ts LINT_RULES). */
  rule: 'ignored-marker' | 'unsupported-checkpoint' | 'too-many-checkpoints' | 'cache-conflict';
  message: string;
  fix: string;
  source: Sourced<unknown>;
}

/** One event of a streamed (server-sent events) response: its `event:` name and its `data:` parsed as JSON (undefined: not JSON, e.g. `[DONE]`). */
export interface StreamEvent {
  event?: string;
  data: unknown;
}

/** A recorded POST this format claims: the model its URL names, when the provider takes the model in the URL (absent: the body names it). */
export interface ClaimedCall {
  model?: string;
}

/**
 * How a recorded HTTP call of this format reads (VCR cassettes, HAR files: src/import/captures/http.ts),
 * the one place a provider's endpoints are recognised: a recorded POST is this format's when `claims`
 * says so; any other call is left out and reported.
 */
export interface RecordedCalls {
  /**
   * Whether a POST to this URL sends a body of this format, by its path on any host (a proxy or
   * gateway keeps the path), and the model the URL names; undefined: not this format's.
   */
  claims(url: URL): ClaimedCall | undefined;
  /** A streamed response's events → its usage in this format's response shape (read by `usage`), or why it has none. Absent: the import does not read this format's stream (said on the page). */
  streamUsage?(events: readonly StreamEvent[]): { usage: Record<string, unknown> } | { problem: string };
  /**
   * A streamed response's events → the finished response they carry, in the shape a non-streamed
   * call returns (read for what else the response says: the provider's verdict on a cache miss);
   * undefined when the stream holds none. Absent: the import reads nothing else of this format's stream.
   */
  streamResponse?(events: readonly StreamEvent[]): Record<string, unknown> | undefined;
}

/** One call a provider's own log records, as its adapter reads the record; paths are inside the record. */
export interface LoggedCall {
  /** The body as sent, with the model the record names where the body does not carry it. */
  body: Record<string, unknown>;
  /** Where the body is in the record. */
  at: (string | number)[];
  timestampMs?: number;
  /** The response's usage in this format's shape (read by the adapter's `usage`), and where it is. */
  usage?: { value: Record<string, unknown>; at: (string | number)[] };
  /** What the page must say about the call (e.g. why it has no usage). */
  note?: string;
}

/**
 * A provider's own log of the calls it served, one JSON record per call (Bedrock's
 * model-invocation logs): `npm run import` reads it as a capture (src/import/captures/provider-log.ts)
 * named by `id`, its requests in the adapter's format. A record is a call, something the import
 * leaves out (what, and why: printed), or a problem at a path inside it.
 */
export interface ProviderLog {
  /** The `--format` value. */
  id: string;
  title: string;
  /** Whether a record is one of this log's (every record of a file must be). */
  isRecord(record: Record<string, unknown>): boolean;
  read(
    record: Record<string, unknown>,
  ): { call: LoggedCall } | { leftOut: { what: string; why: string } } | { problem: { path: (string | number)[]; message: string; fix: string } };
}

/** How a format's response usage reads. */
export interface UsageReader {
  /** What the usage looks like, for a fix: `an Anthropic Messages usage ({"input_tokens", …})`. */
  shape: string;
  /** The usage is of this format's shape (by the fields only it has); used to name another format's usage. */
  looksLike(usage: Record<string, unknown>): boolean;
  /** Another format's usage this reader also reads (Bedrock InvokeModel returns Anthropic's), so it is not named as a mismatch. */
  alsoReads?(usage: Record<string, unknown>): boolean;
  /** The usage → measured figures; problems pushed onto `issues`. */
  read(usage: Record<string, unknown>, issues: UsageIssue[]): MeasuredUsage | undefined;
}

/** Where a cached prefix ends: `k` whole messages, then optionally part of message `k`. */
export interface CachePoint {
  k: number;
  /** Part of message `k` covered (a breakpoint inside a message): its characters. */
  partial?: string;
  tokens: number;
  /** Content blocks from the start of the request (Anthropic's lookback counts blocks). */
  blocks: number;
  ttl?: '5m' | '1h';
}

/** The request parameters a cache strategy compares between two requests (absent: not sent). */
export type RequestParams = Readonly<Record<string, string>>;

/**
 * What a request-parameter change does to the cache: the entries ending at or before `keepTokens`
 * stay readable (0: none), the rest are invalidated. `param` names the parameter.
 */
export interface Invalidation {
  param: string;
  keepTokens: number;
}

/** A feature a model rejects: the request is an API error, located at the trace's line. */
export interface Rejection {
  message: string;
  fix: string;
  /** The provider's documented rule the rejection follows (page, date read, what it says). */
  rule: Sourced<boolean>;
}

/** Figures a cache strategy needs from a model's profile. */
export interface StrategyProfile {
  minPrefixTokens: Sourced;
  stepTokens?: Sourced;
  maxBreakpoints?: Sourced;
  lookbackBlocks?: Sourced;
  extendedRetentionMinutes?: Sourced<number>;
  /** Features the model accepts, by name (e.g. `mid-conversation-system`). */
  features?: Readonly<Record<string, Sourced<boolean>>>;
}

/**
 * A longer retention a request can ask for, as the what-if re-prices it (src/economics/what-if.ts):
 * the profile with `minutes` as its retention and its cache writes priced by `write`.
 */
export interface LongerRetention {
  /** The what-if's option id. */
  id: 'retention-24h' | 'write-12h';
  /** The row's label. */
  label: string;
  minutes: Sourced<number>;
  /**
   * Its cache writes: `same` — priced as the default retention's (the source says so); `price` — at
   * this price per million tokens; `unpriced` — no price is known (the row shows what would be cached).
   */
  write: { same: Sourced<string> } | { price: Sourced } | 'unpriced';
  /** What the reader should know about the row. */
  notes: readonly string[];
}

/**
 * The retention choices a strategy's requests can make, which the what-if prices. A strategy whose
 * breakpoints carry their own TTL (`perBreakpointTtl`) offers the TTL choices of the model's
 * profile (5 minutes, 1 hour), which the what-if builds itself; these are the rest.
 */
export interface WhatIfChoices {
  /** The as-is row's label (a strategy with per-breakpoint TTLs: the what-if's own, "as the requests ask"). */
  asIs?: string;
  /**
   * The longer retention a request to the model of catalog entry `profileId` can ask for
   * (`listed`: the catalog's `extendedRetentionMinutes` for it), or why there is none.
   */
  longer?(profileId: string, listed: Sourced<number> | undefined): LongerRetention | { none: string };
  /** A keep-alive request can hold an entry (where the profile says a read refreshes it); else why not. */
  keepAlive: true | { no: string };
}

/**
 * The provider's documented rules the request linter (src/request-lint/request-lint.ts) cites for a
 * request of a strategy; a finding whose rule is absent is not made (`write`, `prefix`) or cites
 * "not configured".
 */
export interface CacheLintRules {
  /** Cache writes are paid for (unread-write); absent: writes are free, so an unread one costs nothing and is no finding. */
  write?: Sourced<unknown>;
  /** What a cache hit needs of the prefix (volatile-prefix; no-caching-asked when no way to ask applies); absent: not checked. */
  prefix?: Sourced<unknown>;
  /** Longer TTLs must come before shorter ones (ttl-order). */
  ttlOrder?: Sourced<unknown>;
  /** How far back a breakpoint looks for an earlier entry (out-of-reach). */
  lookback?: Sourced<unknown>;
}

/**
 * How a provider caches a prompt: the rules the economics engine asks instead of switching on a name.
 * Positions and entry ends are in tokens and blocks of the request as rendered.
 */
export interface CacheStrategy {
  /** The profile's `cache` value: `anthropic`, `openai-prefix`, `openai-breakpoints`. */
  id: string;
  title: string;
  /** An older spelling of `id` a project's profile may still write as its `strategy:` (economics/profiles.ts). */
  alias?: string;
  /** A word or two for the model catalog's table: `prefix`, `breakpoints`, `cache_control`, `cachePoint`, `implicit`. */
  short: string;
  /**
   * `prefix`: every request of at least the minimum writes its whole token sequence, read as the
   * common token prefix in steps; `breakpoints`: entries end at breakpoints, read whole.
   */
  entries: 'prefix' | 'breakpoints';
  /** `ttl`: an entry is gone after its retention; `minimum`: a documented lower bound, it may live longer. */
  retention: 'ttl' | 'minimum';
  /** Mechanism figures a catalog model of this strategy gets (refresh, limits, lookback). */
  mechanism: Pick<StrategyProfile, 'stepTokens' | 'maxBreakpoints' | 'lookbackBlocks'> & { refreshOnHit: Sourced<boolean> };
  /**
   * The points a request's entries end at, from its explicit breakpoints (as points, in order) and
   * the provider's default placement (its adapter's `defaultBreakpoints`, as points);
   * `atMessage(i)`: the point after message i; `params`: the request parameters its adapter read
   * (e.g. OpenAI's `prompt_cache_mode`).
   */
  points(
    explicit: readonly CachePoint[],
    defaults: readonly CachePoint[],
    messages: readonly { role: string }[],
    atMessage: (i: number) => CachePoint,
    p: StrategyProfile,
    params: RequestParams,
  ): CachePoint[];
  /**
   * Which entries a request can read: `any` alive entry it holds (no lookback is documented), or
   * only those a breakpoint's `lookback` reaches (the profile's lookbackBlocks, counted in blocks).
   */
  reach: 'any' | 'lookback';
  /** A breakpoint may ask for its own retention (`ttl: "1h"`), with its own write price; else every entry gets the profile's. */
  perBreakpointTtl: boolean;
  /** The rules the request linter cites for a request of this strategy. */
  lint: CacheLintRules;
  /** The retention choices the what-if re-prices (absent: the provider offers none). */
  whatIf?: WhatIfChoices;
  /** The request is rejected by the API (too many breakpoints, …): why, or undefined. */
  rejects(explicitCount: number, p: StrategyProfile): string | undefined;
  /**
   * A request-parameter change between two requests and what it invalidates, or undefined when the
   * strategy keeps every entry. `tokensBefore(role)`: tokens of the prefix before the first message
   * whose role is not in the list (tools / system boundaries).
   */
  invalidates(before: RequestParams, after: RequestParams, tokensBefore: (roles: readonly string[]) => number): Invalidation | undefined;
}

/** One way a request that asks for no caching could ask for it: where its breakpoints would go. */
export interface AskCaching {
  id: string;
  /** `one \`cache_control\` breakpoint after the system prompt`. */
  label: string;
  /** Message indices the breakpoints sit on ([] when this way does not apply, e.g. no system prompt). */
  breakpoints(messages: readonly { role: string }[]): number[];
  /** The provider's page that documents it. */
  source: Sourced<string>;
}

/** An AI SDK model call as its telemetry span records it (src/import/captures/ai-sdk-telemetry.ts), parsed. */
export interface AiSdkCall {
  model: string;
  /** `ai.prompt.messages`: the language-model prompt. */
  prompt: readonly unknown[];
  /** `ai.prompt.tools`: the function tools (provider-defined ones are the caller's to say). */
  tools: readonly unknown[];
  /** `ai.prompt.toolChoice` (`{type: auto | none | required | tool, toolName?}`), when recorded. */
  toolChoice?: unknown;
  /** `gen_ai.request.max_tokens`: the call's `maxOutputTokens`, when it set one. */
  maxTokens?: number;
}

/** One provider format. */
export interface ProviderAdapter<Id extends string = string> {
  id: Id;
  title: string;
  /** The `npm run import -- --format` name when it is not the id (OTel: `otlp`). */
  importName?: string;
  /** The provider a body of this format goes to (catalog entries and their profile fallbacks are per provider). */
  provider: string;
  /** The provider's display name (the side-by-side groups its models under it). */
  providerTitle?: string;
  /** One sentence on how its models count tokens and cache, for the model catalog's table (shared between formats of one provider). */
  catalogNote?: string;
  /**
   * Hosts of the provider's own documentation (`platform.claude.com`): a figure read on another host
   * is shown as a secondary source (shared between formats of one provider).
   */
  docHosts?: readonly string[];
  /**
   * Request features this provider accepts on some of its models only (a feature name, as in a
   * catalog entry's `features` → the provider's rule and the models its documentation lists), for the pages.
   */
  featureDocs?: Readonly<Record<string, { rule: Sourced<boolean>; models: readonly string[] }>>;
  /** A model of this provider as a scenario names it (`provider/model`), for the folds' documentation examples. */
  exampleModel?: string;
  /** A minimal body of this format, for the folds' documentation examples (the `requests` fold's payload). */
  exampleBody?: JsonObject;
  /** Catalog entry ids the side-by-side shows by default (models in common use; shared between formats of one provider). */
  sideBySide?: readonly string[];
  /** The model a body names, when it is not the body's `model` (Bedrock: `modelId`; Gemini: the URL's, kept as `model`). */
  model?(body: Record<string, unknown>): string | undefined;
  /** Findings about a body as sent (a warning each): what the provider ignores or does not honour. `model`: the model it went to. */
  lint?(body: Record<string, unknown>, model?: string): BodyFinding[];
  /**
   * A body of this format? `true`, or why not (one sentence). A body two formats fit stays open
   * until another line decides; `tieBreak` then picks one.
   */
  detect?(body: Record<string, unknown>): true | string;
  /** Among formats every body fits, this one wins when every body satisfies it. */
  tieBreak?(body: Record<string, unknown>): boolean;
  /** The body's schema (what the `requests` fold reads; unknown fields allowed where real bodies carry them). */
  schema: z.ZodType;
  /** Rules the schema cannot say; paths inside the body. */
  rules?(body: Record<string, unknown>): Issue[];
  /** The body → the messages the model reads, with the body's own cache markers. */
  normalise(body: Record<string, unknown>): NormalMessage[];
  /** Request parameters that are a cache dimension (tool_choice, thinking, …), as comparable strings. */
  params?(body: Record<string, unknown>): RequestParams;
  /** How the response usage reads. */
  usage?: UsageReader;
  /** A rendered request → this format's body (absent: no wire view, e.g. OTel spans). */
  write?(src: WireSource): JsonObject;
  endpoint?: Endpoint;
  /** How a recorded HTTP call of this format reads (absent: its calls are not imported from recordings). */
  recorded?: RecordedCalls;
  /** The provider's own log of the calls it served, read as a capture of this format (absent: it keeps none the import reads). */
  log?: ProviderLog;
  /**
   * Capture formats (`--format` ids, src/import/captures/) of agents that only ever send this
   * format's bodies — Codex CLI sends Responses bodies, Claude Code Messages bodies: their readers
   * ask the registry (`formatSentBy`) which format they rebuild, rather than naming a provider.
   */
  sentBy?: readonly string[];
  /**
   * The AI SDK's names for this format (a model's `provider`, `<provider>.<api>`, as AI SDK DevTools
   * records it on each step: `openai.responses`): its reader asks the registry (`formatOfAiSdkProvider`).
   */
  aiSdkProviders?: readonly string[];
  /**
   * The body this format's AI SDK provider package sends for a call whose telemetry span records
   * only the SDK-level prompt and tools (src/import/captures/ai-sdk-telemetry.ts): the cache markers
   * the prompt's provider options ask for become this format's own. Absent: the import rebuilds the
   * call as a provider-neutral span body and says what that lacks.
   */
  fromAiSdkPrompt?(call: AiSdkCall): JsonObject;
  /** Message indices a breakpoint sits on when a fold's own request carries none (the provider's common strategy; [] for none). Never applied to a request as sent. */
  defaultBreakpoints(messages: readonly { role: string }[]): number[];
  /**
   * How a request that asks for no caching could ask for it, on a provider that caches only what a
   * request asks for (the economics price each: "these requests never ask for caching; one
   * breakpoint would save $X"). Absent: the provider caches without being asked (OpenAI's prefix
   * caching), so there is nothing to ask.
   */
  askCaching?: readonly AskCaching[];
  /** The cache strategies of this provider's models (shared between formats of one provider). */
  cacheStrategies: readonly CacheStrategy[];
  /** The provider's catalog entries (shared between formats of one provider: the same list object). */
  catalog: readonly ModelFacts[];
  /** A model of this provider the catalog does not name (shared between formats of one provider: the same object). */
  fallback?: ProviderFallback;
  /**
   * Features of a request a model may reject (e.g. a mid-conversation system message): for each
   * message index of the normalised body, the feature it uses.
   */
  features?(messages: readonly { role: string }[]): { message: number; feature: string; rejection: Rejection }[];
  /** Where normalised message `index` sits in the body (to locate a problem in the trace). */
  messagePath?(body: Record<string, unknown>, index: number): (string | number)[];
  /**
   * The body's field holding the conversation's list, which a later request of the conversation
   * extends (`messages`, `input`, …): an imported conversation stores each request as what it adds
   * to that list (body-delta.ts). Absent: bodies of this format are always stored whole.
   */
  messageList?: string;
}
