/**
 * The one place the generic layers call a fold. Every member of the Fold interface that is a
 * function is called through here, for three reasons:
 *
 * - **Any hook may be asynchronous.** A team's fold calls libraries such as the AI SDK, whose
 *   message conversion returns a Promise; every caller here awaits, so a fold may return a value
 *   or a Promise from any hook.
 * - **A fold that throws is located.** A throw (or a rejected Promise, or a value of the wrong
 *   kind) becomes a FoldFailure naming the fold, the hook and the fold's own top stack frame. For
 *   `snapshots`, which folds a whole chain in one call, the event being folded is found by folding
 *   ever shorter prefixes of the chain (a bisection: O(log n) calls, only after a failure); the
 *   scenario layer turns the failure into an error at that event's file:line:col, so one bad fold
 *   never hides another scenario's errors.
 * - **Generic defaults.** A fold that leaves an optional hook out gets the behaviour written here —
 *   in the spirit of shiki's transformers, every hook is optional, and none of this code knows any
 *   fold's event types or payload fields.
 */
import type { Abridgement, AnyFold, AuthoredEvent, EventDescription, Expansion, Issue, JsonSchema, Resolution, Snapshot, StreamEvent } from './types.ts';

/** A fold hook threw, rejected, or returned a value of the wrong kind. */
export class FoldFailure extends Error {
  /** The fold's id. */
  readonly fold: string;
  /** The Fold member that failed (`snapshots`, `validateEvent`, …). */
  readonly hook: string;
  /** The top frame of the error the fold threw (`at file:line:col`), when it had a stack. */
  readonly frame?: string;
  /** For `snapshots`: the offset of the event whose folding failed, when the bisection found it. */
  offset?: number;

  constructor(fold: string, hook: string, problem: string, frame?: string) {
    super(problem);
    this.name = 'FoldFailure';
    this.fold = fold;
    this.hook = hook;
    if (frame) this.frame = frame;
  }

  static is(err: unknown): err is FoldFailure {
    return err instanceof FoldFailure;
  }
}

/** The first `at …` line of an error's stack, without the `file://` scheme. */
function topFrame(err: unknown): string | undefined {
  const stack = err instanceof Error && typeof err.stack === 'string' ? err.stack : '';
  const line = stack.split('\n').find((l) => /^\s+at /.test(l));
  return line?.trim().replace('file://', '');
}

const describeThrown = (err: unknown): string => (err instanceof Error ? `${err.name}: ${err.message}` : `it threw ${JSON.stringify(err) ?? String(err)}`);

const kindOf = (v: unknown): string => (Array.isArray(v) ? 'a list' : v === null ? 'null' : v === undefined ? 'undefined' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

/** Calls `fold[hook]` (awaiting a Promise); a throw or rejection becomes a FoldFailure. */
async function call<T>(fold: AnyFold, hook: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (FoldFailure.is(err)) throw err;
    throw new FoldFailure(fold.id, hook, `threw ${describeThrown(err)}`, topFrame(err));
  }
}

/** A hook's result must be a list: anything else is the fold's bug, said as such. */
function list<T>(fold: AnyFold, hook: string, value: unknown): T[] {
  if (Array.isArray(value)) return value as T[];
  throw new FoldFailure(fold.id, hook, `returned ${kindOf(value)}, not a list`);
}

/** `validateOptions`: the problems with merged options ([] when fine). */
export async function validateOptionsOf(fold: AnyFold, options: object): Promise<Issue[]> {
  return list(fold, 'validateOptions', await call(fold, 'validateOptions', () => fold.validateOptions(options)));
}

/** `validateEvent`: the problems with one payload ([] when fine). */
export async function validateEventOf(fold: AnyFold, type: string, payload: unknown): Promise<Issue[]> {
  return list(fold, 'validateEvent', await call(fold, 'validateEvent', () => fold.validateEvent(type, payload)));
}

/** `expand` or its default: the authored event is one stream event, as written. */
export async function expandEvent(fold: AnyFold, event: AuthoredEvent): Promise<Expansion> {
  const x = fold.expand ? await call(fold, 'expand', () => fold.expand!(event)) : undefined;
  if (x === undefined) return { events: [{ payload: event.payload }] };
  if (!x || typeof x !== 'object' || !Array.isArray(x.events)) throw new FoldFailure(fold.id, 'expand', `returned ${kindOf(x)}, not an expansion {events: […]}`);
  return x;
}

/** `abridgements` or its default: no stand-ins. */
export async function abridgementsOf(fold: AnyFold, options: object): Promise<Abridgement[]> {
  return fold.abridgements ? list(fold, 'abridgements', await call(fold, 'abridgements', () => fold.abridgements!(options))) : [];
}

/** `derive` or its default: the payload as written. */
export async function derivePayload(fold: AnyFold, event: AuthoredEvent): Promise<Record<string, unknown>> {
  return (fold.derive ? await call(fold, 'derive', () => fold.derive!(event)) : undefined) ?? event.payload;
}

/** `resolve` or its default (every payload as written): one resolution per event, in order. */
export async function resolvePayloads(fold: AnyFold, events: readonly AuthoredEvent[]): Promise<Resolution[]> {
  if (!fold.resolve) return events.map((e) => ({ payload: e.payload }));
  const out = list<Resolution>(fold, 'resolve', await call(fold, 'resolve', () => fold.resolve!(events)));
  if (out.length !== events.length) throw new FoldFailure(fold.id, 'resolve', `returned ${out.length} resolutions for ${events.length} events`);
  return out;
}

/** `payloadSchemas` or its default: no schemas (the reference lists the types without fields). */
export async function payloadSchemasOf(fold: AnyFold): Promise<Readonly<Record<string, JsonSchema>>> {
  return (fold.payloadSchemas ? await call(fold, 'payloadSchemas', () => fold.payloadSchemas!()) : undefined) ?? {};
}

/** `optionsSchema`, when the fold has one. */
export async function optionsSchemaOf(fold: AnyFold): Promise<JsonSchema | undefined> {
  return fold.optionsSchema ? await call(fold, 'optionsSchema', () => fold.optionsSchema!()) : undefined;
}

/**
 * `snapshots`: the request as of each offset in `at`. When the fold fails, the failure carries the
 * offset of the first event whose folding fails (see the header).
 */
export async function snapshotsOf(fold: AnyFold, events: readonly StreamEvent[], options: object, at: ReadonlySet<number>): Promise<Snapshot[]> {
  const run = async (upTo: number): Promise<Snapshot[]> =>
    list(fold, 'snapshots', await call(fold, 'snapshots', () => fold.snapshots(upTo === events.length ? events : events.slice(0, upTo), options, at)));
  try {
    return await run(events.length);
  } catch (err) {
    if (!FoldFailure.is(err) || err.hook !== 'snapshots') throw err;
    // The shortest prefix that still fails ends with the event being folded.
    let ok = 0;
    let bad = events.length;
    while (bad - ok > 1) {
      const mid = (ok + bad) >> 1;
      const fails = await run(mid).then(
        () => false,
        () => true,
      );
      if (fails) bad = mid;
      else ok = mid;
    }
    if (bad > 0 && bad <= events.length) err.offset = events[bad - 1]!.offset;
    throw err;
  }
}

const PREVIEW_MAX = 120;

/**
 * One line of at most 120 characters: the words of `text` joined by one space. Read word by word up
 * to the 120th character, not the whole text spaced out first (a preview of a 50 KB tool result is
 * built from its first words).
 */
export function oneLine(text: string): string {
  let line = '';
  for (const [word] of text.matchAll(/\S+/g)) {
    line = line ? `${line} ${word}` : word;
    if (line.length > PREVIEW_MAX) return `${line.slice(0, PREVIEW_MAX - 1)}…`;
  }
  return line;
}

/**
 * The default preview: the payload's first string field, else its fields as YAML in one line
 * (`ordinal: 10` — the way the scenario file writes them, never raw JSON on a card), else the type.
 */
export function defaultPreview(type: string, payload: unknown): string {
  const p = (payload ?? {}) as Record<string, unknown>;
  const text = Object.values(p).find((v): v is string => typeof v === 'string');
  if (text !== undefined) return oneLine(text);
  const fields = Object.entries(p);
  return oneLine(fields.length ? fields.map(([k, v]) => `${k}: ${flow(v)}`).join(', ') : type);
}

/** A payload value as a YAML flow scalar or collection: `10`, `[a, b]`, `{to: x}`. */
const flow = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(flow).join(', ')}]`
    : v !== null && typeof v === 'object'
      ? `{${Object.entries(v)
          .map(([k, x]) => `${k}: ${flow(x)}`)
          .join(', ')}}`
      : String(v);

/**
 * `describe` or its default, one description per event; previews are always set and one line.
 * A fold's description that leaves out the preview gets the default one.
 */
export async function describeEvents(fold: AnyFold, events: readonly StreamEvent[], options: Record<string, unknown>): Promise<Required<EventDescription>[]> {
  const given = fold.describe ? list<EventDescription | undefined>(fold, 'describe', await call(fold, 'describe', () => fold.describe!(events, options))) : [];
  return events.map((e, i) => {
    const d = given[i] ?? {};
    return { preview: oneLine(d.preview ?? defaultPreview(e.type, e.payload)), badges: d.badges ?? [], links: d.links ?? [] };
  });
}
