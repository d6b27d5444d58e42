/**
 * An example of a project's own fold. The "Bring your own fold" page shows this file verbatim,
 * and tests/custom-fold.test.ts builds a project that registers it: the docs cannot drift.
 *
 * The `chat-log` fold: the simplest platform there is. A `message` event appends one message;
 * a `send` event sends every message so far, in order. One option, `systemPrompt`, is sent as
 * a leading system message when it is not empty (the fold's own text: no event produced it).
 *
 * It also uses two of the interface's optional hooks: `expand` gives it a batch syntax (a
 * `message` event with `lines: [{role, text}, …]` stands for one message event per line), and
 * `describe` says how its events read on their timeline cards.
 *
 * Register it in astro.config.mjs:
 *   explainer({ folds: ['context-protocol', 'layered', './examples/folds/chat-log.ts'] })
 * and name it in a scenario: `fold: chat-log`.
 */
import type { AuthoredEvent, EventDescription, Expansion, Fold, Issue, JsonSchema, RenderedMessage, Snapshot, StreamEvent } from '../../src/folds/types.ts';

export interface ChatLogOptions {
  /** Leading system message; '' = none. */
  systemPrompt: string;
}

const ROLES = ['system', 'user', 'assistant'];

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The fields of a mapping that are not in `allowed`, as issues. */
function unknownFields(value: object, allowed: string[]): Issue[] {
  return Object.keys(value)
    .filter((k) => !allowed.includes(k))
    .map((k) => ({
      path: [k],
      message: `unknown field \`${k}\``,
      fix: `remove it or fix its spelling; allowed here: ${allowed.join(', ')}`,
    }));
}

function validateSend(payload: Record<string, unknown>): Issue[] {
  const issues = unknownFields(payload, ['model']);
  if (typeof payload.model !== 'string' || payload.model.trim() === '') {
    issues.push({
      path: ['model'],
      message: '`model` must be a model name',
      fix: 'add `model:` with the model this send goes to, e.g. `openai/gpt-5`',
    });
  }
  return issues;
}

function validateMessage(payload: Record<string, unknown>): Issue[] {
  const issues = unknownFields(payload, ['role', 'text']);
  if (typeof payload.role !== 'string' || !ROLES.includes(payload.role)) {
    const message = `\`role\` must be one of ${ROLES.join(', ')}`;
    issues.push({ path: ['role'], message, fix: 'write e.g. `role: user`' });
  }
  if (typeof payload.text !== 'string') {
    issues.push({ path: ['text'], message: '`text` must be a string', fix: 'add `text:` with the text' });
  }
  return issues;
}

// What authors see: the payload reference page and the editor schema are generated from these
// (optional) hooks. Keep them in step with validateEvent — a test checks every example against it.
const MESSAGE = {
  type: 'object',
  properties: {
    role: { enum: ROLES, description: 'Who wrote it.' },
    text: { type: 'string', description: 'The message text.' },
  },
  required: ['role', 'text'],
  additionalProperties: false,
};

const PAYLOADS: Record<string, JsonSchema> = {
  message: {
    description: 'Appends one message to the log — or, with `lines:`, one message per line at consecutive offsets.',
    anyOf: [
      MESSAGE,
      {
        type: 'object',
        properties: { lines: { type: 'array', items: MESSAGE, minItems: 1, description: 'A batch: one message event per line.' } },
        required: ['lines'],
        additionalProperties: false,
      },
    ],
    examples: [{ role: 'user', text: 'What does a fold do?' }],
  },
  send: {
    description: 'A request: every message so far, in order.',
    type: 'object',
    properties: { model: { type: 'string', minLength: 1, description: 'The model this send goes to.' } },
    required: ['model'],
    additionalProperties: false,
    examples: [{ model: 'openai/gpt-5' }],
  },
};

const OPTIONS: JsonSchema = {
  type: 'object',
  properties: { systemPrompt: { type: 'string', description: "Leading system message; '' = none." } },
  additionalProperties: false,
};

export const chatLog: Fold<ChatLogOptions> = {
  id: 'chat-log',
  title: 'Chat log',
  description: 'A plain chat log: the request is every message so far, in order.',
  defaults: { systemPrompt: '' },
  eventTypes: ['message', 'send'],
  requestTypes: ['send'],

  validateOptions(options: ChatLogOptions): Issue[] {
    const issues = unknownFields(options, ['systemPrompt']);
    if (typeof options.systemPrompt !== 'string') {
      const fix = "write the prompt, or `systemPrompt: ''` for none";
      issues.push({ path: ['systemPrompt'], message: '`systemPrompt` must be a string', fix });
    }
    return issues;
  },

  validateEvent(type: string, payload: unknown): Issue[] {
    if (!isMapping(payload)) {
      const fix = type === 'send' ? 'write `payload: {model: …}`' : 'write `payload: {role: user, text: …}`';
      return [{ path: [], message: 'the payload must be a mapping', fix }];
    }
    return type === 'send' ? validateSend(payload) : validateMessage(payload);
  },

  abridgements: () => [],

  /** `lines: [{role, text}, …]` on a `message` event: one message event per line. */
  expand(e: AuthoredEvent): Expansion {
    const { lines, ...rest } = e.payload;
    if (e.type !== 'message' || lines === undefined) return { events: [{ payload: e.payload }] };
    if (!Array.isArray(lines) || lines.length === 0) {
      return { events: [], issues: [{ path: ['lines'], message: '`lines` must be a non-empty list', fix: 'write one `- {role: user, text: …}` entry per message' }] };
    }
    if (Object.keys(rest).length) {
      return { events: [], issues: unknownFields(rest, []).map((i) => ({ ...i, fix: 'a `lines` batch holds everything in its lines: move the field into each line' })) };
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

  payloadSchemas: () => PAYLOADS,
  optionsSchema: () => OPTIONS,
  rules: ['A `send` needs at least one `message` before it: with nothing to send it renders nothing, and the check says so.'],
};

export default chatLog;
