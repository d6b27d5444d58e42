/**
 * An example of a project's own fold. The "Bring your own fold" page shows this file verbatim,
 * and tests/custom-fold.test.ts builds a project that registers it: the docs cannot drift.
 *
 * The `chat-log` fold: the simplest platform there is. A `message` event appends one message;
 * a `send` event sends every message so far, in order. One option, `systemPrompt`, is sent as
 * a leading system message when it is not empty (the fold's own text: no event produced it).
 *
 * It is written with `defineFold` (in a fold package of your own: `import { defineFold } from
 * 'prompt-fold-explainer/kit'`): the fold's logic, and one zod schema per event type and for the
 * options — validation, the editor schema and the payload reference are derived from them. It also
 * uses two of the interface's optional hooks: `expand` gives it a batch syntax (a `message` event
 * with `lines: [{role, text}, …]` stands for one message event per line), and `describe` says how
 * its events read on their timeline cards. Hooks it has no use for (`abridgements`, `derive`) it
 * leaves out.
 *
 * Register it in astro.config.mjs — as a file, or as the npm package it is published as:
 *   explainer({ folds: ['context-protocol', 'layered', './examples/folds/chat-log.ts'] })
 *   explainer({ folds: ['context-protocol', '@acme/chat-log-fold'] })
 * and name it in a scenario: `fold: chat-log`.
 */
import * as z from 'zod';
import { type AuthoredEvent, defineFold, type EventDescription, type Expansion, type RenderedMessage, type Snapshot, type StreamEvent } from 'prompt-fold-explainer/kit';

export interface ChatLogOptions {
  /** Leading system message; '' = none. */
  systemPrompt: string;
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// The schemas: validation of every payload and of the options, the editor schema and the
// payload reference page are all derived from these (defineFold) — there is no second copy.
const Message = z.strictObject({ role: z.enum(['system', 'user', 'assistant']), text: z.string() });
const Send = z.strictObject({ model: z.string().trim().min(1) });

export const chatLog = defineFold<ChatLogOptions>({
  id: 'chat-log',
  title: 'Chat log',
  description: 'A plain chat log: the request is every message so far, in order.',
  defaults: { systemPrompt: '' },
  requestTypes: ['send'],
  // A payload as validated, after `expand` (one message per event)…
  payloads: { message: Message, send: Send },
  // …and as an author may write it: a `message` may also be a `lines` batch (see expand).
  authored: { message: z.union([Message, z.strictObject({ lines: z.array(Message).min(1) })]), send: Send },
  notes: {
    message: {
      description: 'Appends one message to the log — or, with `lines:`, one message per line at consecutive offsets.',
      fields: { role: 'Who wrote it.', text: 'The message text.', lines: 'A batch: one message event per line.' },
      example: { role: 'user', text: 'What does a fold do?' },
    },
    send: { description: 'A request: every message so far, in order.', fields: { model: 'The model this send goes to.' }, example: { model: 'openai/gpt-5' } },
  },
  options: z.strictObject({ systemPrompt: z.string() }),

  /** `lines: [{role, text}, …]` on a `message` event: one message event per line. */
  expand(e: AuthoredEvent): Expansion {
    const { lines, ...rest } = e.payload;
    if (e.type !== 'message' || lines === undefined) return { events: [{ payload: e.payload }] };
    if (!Array.isArray(lines) || lines.length === 0) {
      return { events: [], issues: [{ path: ['lines'], message: '`lines` must be a non-empty list', fix: 'write one `- {role: user, text: …}` entry per message' }] };
    }
    if (Object.keys(rest).length) {
      const fix = 'a `lines` batch holds everything in its lines: move the field into each line';
      return { events: [], issues: Object.keys(rest).map((k) => ({ path: [k], message: `unknown field \`${k}\``, fix })) };
    }
    return { batch: true, events: lines.map((line, i) => ({ payload: isMapping(line) ? line : {}, at: ['lines', i], ownFields: ['role', 'text'] })) };
  },

  /** Cards: a message shows its text and role; a send shows its model and how many messages it carries. */
  describe(events: readonly StreamEvent[]): EventDescription[] {
    let count = 0;
    return events.map((e) => {
      const p = e.payload as Record<string, string>;
      if (e.type === 'message') {
        count++;
        return { preview: p.text, badges: [p.role!] };
      }
      return { preview: p.model, badges: [`${count} message${count === 1 ? '' : 's'}`] };
    });
  },

  snapshots(events: readonly StreamEvent[], options: ChatLogOptions, at: ReadonlySet<number>): Snapshot[] {
    // Reduce once. A message never changes once made, so every snapshot shares the objects:
    // O(events + output), and the printer caches its work per message object.
    const messages: RenderedMessage[] = [];
    const system = options.systemPrompt;
    if (system) messages.push({ role: 'system', content: system, parts: [{ text: system, from: [] }] });
    const out: Snapshot[] = [];
    for (const e of events) {
      let sent: Pick<Snapshot, 'request' | 'rejected'> = {};
      if (e.type === 'message') {
        const { role, text } = e.payload as { role: string; text: string };
        messages.push({ role, content: text, parts: [{ text, from: [e.offset] }] });
      } else if (e.type === 'send') {
        const { model } = e.payload as { model: string };
        const reason = 'nothing to send yet: add a `message` event before this `send`';
        sent = messages.length ? { request: { model } } : { rejected: { reason } };
        // Optional cache breakpoints: a log only appends, so all of it is the next send's prefix.
        // To ask the provider to cache it, a send could add `breakpoints: [{ message: messages.length - 1 }]`.
      }
      if (at.has(e.offset)) out.push({ offset: e.offset, messages: messages.slice(), ...sent });
    }
    return out;
  },

  rules: ['A `send` needs at least one `message` before it: with nothing to send it renders nothing, and the check says so.'],
});

export default chatLog;
