/**
 * The `requests` fold: events are whole provider requests captured from a running agent (what
 * `npm run import` writes from a trace). Its request as of each `request/sent` event is exactly
 * that payload's messages, normalised (normalise.ts), and each message's provenance is the FIRST
 * request that carried exactly that message — so the gutter, the diff and the ✂ line read like
 * any fold's: what a turn re-sent, and where the previous request's prefix stopped matching.
 * The request's cache breakpoints are the trace's own markers (`cache_control`, the automatic
 * top-level `cache_control`, `prompt_cache_breakpoint`), at the character where each marked block
 * ends in the normalised message (normalise.ts); a trace without any carries none, so the
 * economics apply the provider profile's default placement.
 */
import * as z from 'zod';
import type { Breakpoint, Fold, RenderedMessage, Snapshot, StreamEvent } from '../types.ts';
import { schemaIssues } from '../validate.ts';
import { describe } from './describe.ts';
import { normalise } from './normalise.ts';
import { validatePayload, type SentPayload } from './schema.ts';

export type RequestsOptions = Record<string, never>;

export const requests = {
  id: 'requests',
  title: 'Provider requests',
  description: 'Whole provider requests captured from a running agent (an imported trace): the request at each event is exactly what was sent.',
  defaults: {},
  eventTypes: ['request/sent'],
  requestTypes: ['request/sent'],
  validateOptions: (options) => schemaIssues(z.strictObject({}), options),
  validateEvent: validatePayload,
  abridgements: () => [],
  describe,
  snapshots(events: readonly StreamEvent[], _options: RequestsOptions, at: ReadonlySet<number>): Snapshot[] {
    const firstSent = new Map<string, number>();
    const out: Snapshot[] = [];
    for (const e of events) {
      const p = e.payload as SentPayload;
      const normal = normalise(p.format, p.body);
      const messages: RenderedMessage[] = normal.map(({ role, text }) => {
        const key = `${role}\u0000${text}`;
        if (!firstSent.has(key)) firstSent.set(key, e.offset);
        return { role, content: text, parts: [{ text, from: [firstSent.get(key)!] }] };
      });
      if (!at.has(e.offset)) continue;
      const breakpoints: Breakpoint[] = normal.flatMap((m, message) =>
        (m.marks ?? []).map(({ end, ttl }) => ({ message, ...(end < m.text.length && { end }), ...(ttl && { ttl }) })),
      );
      out.push({ offset: e.offset, messages, request: { model: p.body.model as string }, ...(breakpoints.length > 0 && { breakpoints }) });
    }
    return out;
  },
} satisfies Fold<RequestsOptions>;
