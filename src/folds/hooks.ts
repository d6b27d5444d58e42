/**
 * The generic defaults of the Fold interface's optional hooks, and the one place the generic
 * layers call them: a fold that leaves a hook out gets the behaviour written here. In the spirit
 * of shiki's transformers — every hook is optional, and none of this code knows any fold's event
 * types or payload fields.
 */
import type { Abridgement, AnyFold, AuthoredEvent, EventDescription, Expansion, JsonSchema, StreamEvent } from './types.ts';

/** `expand` or its default: the authored event is one stream event, as written. */
export function expandEvent(fold: AnyFold, event: AuthoredEvent): Expansion {
  return fold.expand?.(event) ?? { events: [{ payload: event.payload }] };
}

/** `abridgements` or its default: no stand-ins. */
export function abridgementsOf(fold: AnyFold, options: object): Abridgement[] {
  return fold.abridgements?.(options) ?? [];
}

/** `derive` or its default: the payload as written. */
export function derivePayload(fold: AnyFold, event: AuthoredEvent): Record<string, unknown> {
  return fold.derive?.(event) ?? event.payload;
}

const PREVIEW_MAX = 120;

/** One line of at most 120 characters. */
export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > PREVIEW_MAX ? `${line.slice(0, PREVIEW_MAX - 1)}…` : line;
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
export function describeEvents(fold: AnyFold, events: readonly StreamEvent[], options: Record<string, unknown>): Required<EventDescription>[] {
  const given = fold.describe?.(events, options) ?? [];
  return events.map((e, i) => {
    const d = given[i] ?? {};
    return { preview: oneLine(d.preview ?? defaultPreview(e.type, e.payload)), badges: d.badges ?? [], links: d.links ?? [] };
  });
}

/** `payloadSchemas` or its default: no schemas (the reference lists the types without fields). */
export function payloadSchemasOf(fold: AnyFold): Readonly<Record<string, JsonSchema>> {
  return fold.payloadSchemas?.() ?? {};
}
