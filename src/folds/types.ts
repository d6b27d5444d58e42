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
  validateOptions(options: Options): Issue[];
  /** Validate one event's payload (its type is already known to be in eventTypes); [] when fine. */
  validateEvent(type: string, payload: unknown): Issue[];
  /** Boilerplate stand-ins for these options. */
  abridgements(options: Options): Abridgement[];
  /**
   * Reduce `events` once (in order) and return a snapshot for every event whose offset is in `at`
   * (in event order). Events are already validated. Must cost O(events + output).
   */
  snapshots(events: readonly StreamEvent[], options: Options, at: ReadonlySet<number>): Snapshot[];
}

/** Any fold, whatever its options type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFold = Fold<any>;
