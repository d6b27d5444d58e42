/**
 * The `requests` fold: events are whole provider requests captured from a running agent (what
 * `npm run import` writes from a trace). Its request as of each `request/sent` event is exactly
 * that payload's messages, normalised (normalise.ts), and each message's provenance is the FIRST
 * request that carried exactly that message — so the gutter, the diff and the ✂ line read like
 * any fold's: what a turn re-sent, and where the previous request's prefix stopped matching.
 * The request's cache breakpoints are the trace's own markers (`cache_control`, the automatic
 * top-level `cache_control`, `prompt_cache_breakpoint`), at the character where each marked block
 * ends in the normalised message (normalise.ts). Every request is `asSent`: a trace without any
 * marker asks for no caching, and the economics model exactly that (no default placement).
 * A request written as `extends:` (what it adds to the previous one) reaches the snapshots whole:
 * the `resolve` hook rebuilds its body (resolve.ts), and an appended message is new text, credited
 * to the request that added it.
 */
import * as z from 'zod';
import { defineFold } from '../../folds/define.ts';
import type { Breakpoint, RenderedMessage, Snapshot, StreamEvent } from '../../folds/types.ts';
import { describe } from './describe.ts';
import { normalise } from './normalise.ts';
import { resolve } from './resolve.ts';
import { AUTHORED, PAYLOAD, payloadRules, type SentPayload } from './schema.ts';
import { EXAMPLE_REQUEST, modelOf, PROVIDERS } from '../../providers/registry.ts';

export type RequestsOptions = Record<string, never>;

// Written with the kit's defineFold: validation, the editor schema and the payload reference come
// from the payload's zod schema (schema.ts); the body is checked by its provider adapter.
export const requests = defineFold({
  id: 'requests',
  title: 'Provider requests',
  description: 'Whole provider requests captured from a running agent (an imported trace): the request at each event is exactly what was sent.',
  defaults: {} as RequestsOptions,
  requestTypes: ['request/sent'],
  payloads: { 'request/sent': PAYLOAD },
  authored: { 'request/sent': AUTHORED },
  checkEvent: payloadRules,
  resolve,
  notes: {
    'request/sent': {
      description:
        'One request as the agent sent it: `format` names the provider adapter that reads `body`, the request body exactly as captured (`npm run import` writes these). A request that extends the previous one is written as `extends:` instead — only what it adds: `keep` (how many of the previous request’s messages it re-sends, from the first), `append` (the messages after them), `set` (top-level fields that are new or changed: system prompt, tools, model, a parameter) and `unset` (fields it no longer sends); the fold rebuilds the whole body from the previous request’s. `measured`, when the capture had the response, is what the provider billed.',
      fields: {
        format: 'The body’s wire format: the provider adapter that reads it.',
        body: 'The request body as sent (fields the prompt does not use are kept and ignored).',
        extends: 'Instead of `body`: what this request adds to the previous request of the stream (`keep`, `append`, `set`, `unset`).',
        measured: 'The provider’s usage for this request, normalised on import.',
      },
      example: EXAMPLE_REQUEST,
    },
  },
  options: z.strictObject({}),
  rules: [
    `**The body is read by its adapter.** \`format\` names a provider adapter (${PROVIDERS.map((p) => p.title).join(', ')}); the body must be one it reads — the model, the messages and their content, the tool list. Every other field of a real request (sampling parameters, metadata) is kept as captured and does not reach the printed prompt.`,
    '**Measured figures add up.** `measured.inputTokens` counts every input token, cached and written ones included: `cachedTokens` + `cacheWriteTokens` cannot exceed it.',
    '**`extends:` applies to the previous request.** It follows a request of the same `format` whose message list (`messages`, or the format’s own list: `input`, …) has at least `keep` entries; `set` does not write that list, and `unset` names only fields the previous request sends. A request that does not extend the previous one is written whole (`body:`), as the import does for a compaction or a new conversation.',
    '**Provenance.** A message’s text is credited to the first request that carried exactly that message, so a re-sent transcript links back to where each turn first appeared.',
  ],
  describe,
  snapshots(events: readonly StreamEvent[], _options: RequestsOptions, at: ReadonlySet<number>): Snapshot[] {
    // One message object per distinct message (role and text; its provenance is the first request
    // that carried it, so that is fixed too): a re-sent transcript is the same objects request after
    // request, which the printer, the token counts and the cache model memoise by object — a long
    // conversation re-sends every earlier turn, and comparing those texts again per request was
    // quadratic in the conversation's bytes.
    // Keyed by role, then text (no joined key: a joined string is a copy of the text, per message per request).
    const sent = new Map<string, Map<string, RenderedMessage>>();
    const out: Snapshot[] = [];
    for (const e of events) {
      const p = e.payload as SentPayload;
      const normal = normalise(p.format, p.body);
      const messages: RenderedMessage[] = normal.map(({ role, text, tokens }) => {
        let byText = sent.get(role);
        if (!byText) sent.set(role, (byText = new Map()));
        let m = byText.get(text);
        if (!m) byText.set(text, (m = { role, content: text, parts: [{ text, from: [e.offset] }], ...(tokens !== undefined && { tokens }) }));
        return m;
      });
      if (!at.has(e.offset)) continue;
      const breakpoints: Breakpoint[] = normal.flatMap((m, message) =>
        (m.marks ?? []).map(({ end, ttl }) => ({ message, ...(end < m.text.length && { end }), ...(ttl && { ttl }) })),
      );
      out.push({ offset: e.offset, messages, request: { model: modelOf(p.format, p.body) }, ...(breakpoints.length > 0 && { breakpoints }), asSent: true });
    }
    return out;
  },
});
