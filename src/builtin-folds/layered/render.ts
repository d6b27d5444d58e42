/**
 * Renders a placement as provider messages with provenance: the leading system fold, the inline
 * transcript, the steering reminder, the trailing user slot — in that order, each omitted when
 * empty. The slot comes last: the audit says the repair mandate is "emitted as the final message,
 * role user", and nothing may follow the authoritative channel. Every message's parts join to its content; a part's `from` is the entry it quotes (its
 * `entry/added` offset, plus the newest `entry/updated` offset when its text was rewritten);
 * separators and the consolidated header are the fold's own text (`from: []`), while a
 * `## <sourceType>` or `## Reminder` header belongs to its entry's part.
 *
 * Tool turns (the audit: tool results stay "inline tool turns"): an ASSISTANT entry directly
 * followed in the transcript by TOOL entries is the call they answer — its message carries one
 * `toolCalls` entry per result, each result message the matching `toolCallId` — so the wire views
 * send them as tool calls and tool results instead of user text. The events carry no tool name
 * or arguments: the name is the call text's first word when that word is a tool name
 * (`patch pkg/…`, `submit_plan: …`), else the entry's sourceType; the input is {} and the call's
 * text stays the message's content (ASSUMPTION, on the fold's reference page). A TOOL entry with
 * no ASSISTANT entry before its run stays a plain `tool` message.
 *
 * Cache breakpoints (what a renderer of this design would mark; ASSUMPTION, reference page): one
 * at the end of the leading system message, and one on the last transcript message — the last
 * inline entry, BEFORE the trailing reminder and mandate slot. Those two turns are re-rendered
 * every turn (the slot's content is loop state) and the next turn's transcript entries go in
 * above them, so an entry written through them would never be read again; an entry ending at the
 * transcript is the prefix of the next request, which is why the context-role audit (src/pages/reference/layered.mdx) says the transcript stays
 * cached under the recommended placement. The same rule holds under today's placement: there the
 * loop state sits in the system message, so whenever it changes both entries are lost.
 *
 * Inline messages are cached per entry (entries are immutable), the system fold, slot and reminder
 * messages per list of entries, and a whole render per state version — so unchanged messages are
 * the same objects across snapshots (the printer caches its lines per message object).
 */
import type { Breakpoint, Part, RenderedMessage, ToolCall } from '../../folds/types.ts';
import type { LayeredOptions } from './options.ts';
import { isSystemFolded, place } from './place.ts';
import type { Entry, State } from './reduce.ts';
import { CONSOLIDATED_HEADER, selectSlot } from './slot.ts';
import type { EntryRole } from './schema.ts';

export const SEPARATOR = '\n\n';
export const REMINDER_HEADER = '## Reminder';

const INLINE_ROLE: Record<EntryRole, string> = { SYSTEM: 'system', USER: 'user', ASSISTANT: 'assistant', TOOL: 'tool' };

/** The events an entry's current text came from. */
export const provenance = (e: Entry): number[] => (e.updatedAt === undefined ? [e.offset] : [e.offset, e.updatedAt]);

/** One message from parts; parts joined by SEPARATOR parts of the fold's own. */
function joined(role: string, texts: Part[], lead: Part[] = []): RenderedMessage {
  const parts: Part[] = [...lead];
  texts.forEach((p, i) => {
    if (i > 0) parts.push({ text: SEPARATOR, from: [] });
    parts.push(p);
  });
  return { role, content: parts.map((p) => p.text).join(''), parts };
}

const headed = (header: string, e: Entry): Part => ({ text: `${header}\n${e.content}`, from: provenance(e) });

const sameEntries = (a: readonly Entry[], b: readonly Entry[]): boolean => a.length === b.length && a.every((e, i) => e === b[i]);

/** Remembers the message last built from a list of entries; rebuilds only when the list changed. */
class Memo {
  private entries: Entry[] = [];
  private message: RenderedMessage | null = null;

  get(entries: Entry[], build: () => RenderedMessage): RenderedMessage {
    if (!this.message || !sameEntries(entries, this.entries)) {
      this.entries = entries;
      this.message = build();
    }
    return this.message;
  }
}

/** A tool name both providers accept: [A-Za-z0-9_-], at most 64 characters. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** The call text's first word, when it reads as a tool name followed by `:`, a space or nothing. */
const LEADING_NAME = /^([A-Za-z][A-Za-z0-9_-]{0,63})(?=[:\s]|$)/;

/** The tool name of a call entry (see the header). */
export function toolName(call: Entry): string {
  return LEADING_NAME.exec(call.content)?.[1] ?? (TOOL_NAME.test(call.sourceType) ? call.sourceType : 'tool');
}

/** The id of the call a TOOL entry answers: its add offset, stable for the entry's life. */
export const toolCallId = (result: Entry): string => `call_${result.offset}`;

export class Renderer {
  private readonly options: LayeredOptions;
  private readonly inlineCache = new WeakMap<Entry, RenderedMessage>();
  /** Call messages by entry, with the results they were built for. */
  private readonly callCache = new WeakMap<Entry, { results: Entry[]; message: RenderedMessage }>();
  private readonly resultCache = new WeakMap<Entry, RenderedMessage>();
  private last: { version: number; messages: RenderedMessage[]; breakpoints: Breakpoint[] } | null = null;
  private readonly systemMemo = new Memo();
  private readonly slotMemo = new Memo();
  private readonly reminderMemo = new Memo();

  constructor(options: LayeredOptions) {
    this.options = options;
  }

  render(state: State): RenderedMessage[] {
    if (this.last?.version === state.version) return this.last.messages;
    const mid = this.options.lateSystem === 'mid-conversation';
    const placement = place(
      state.entries.values(),
      this.options.repairMandateSourceTypes,
      mid ? { after: state.firstSend ?? Infinity, sent: state.sent, updates: state.updates } : undefined,
    );
    const out: RenderedMessage[] = [];
    const { system, reminders } = placement;
    if (system.length)
      out.push(
        this.systemMemo.get(system, () =>
          joined(
            'system',
            system.map((e) => ({ text: e.content, from: provenance(e) })),
          ),
        ),
      );
    placement.inline.forEach((e, i) => {
      if (e.role === 'ASSISTANT') {
        const results: Entry[] = [];
        for (let k = i + 1; placement.inline[k]?.role === 'TOOL'; k++) results.push(placement.inline[k]!);
        out.push(results.length ? this.call(e, results) : this.inline(e));
      } else if (e.role === 'TOOL' && this.answers(placement.inline, i)) out.push(this.result(e));
      else out.push(this.inline(e));
    });
    const transcriptEnd = placement.inline.length ? out.length - 1 : -1;
    // The reminder goes BEFORE the slot: the mandate is "emitted as the final message, role user".
    if (reminders.length)
      out.push(
        this.reminderMemo.get(reminders, () =>
          joined(
            mid ? 'system' : 'user',
            reminders.map((e) => headed(REMINDER_HEADER, e)),
          ),
        ),
      );
    const slot = selectSlot(placement.mandates, this.options);
    if (slot.entries.length) {
      const build = (): RenderedMessage =>
        slot.perEntryHeaders
          ? joined(
              'user',
              slot.entries.map((e) => headed(`## ${e.sourceType}`, e)),
            )
          : joined(
              'user',
              slot.entries.map((e) => ({ text: e.content, from: provenance(e) })),
              [{ text: `${CONSOLIDATED_HEADER}\n`, from: [] }],
            );
      out.push(this.slotMemo.get(slot.entries, build));
    }
    const ttl = this.options.breakpointTtl;
    const mark = (message: number): Breakpoint => ({ message, ...(ttl && { ttl }) });
    const breakpoints: Breakpoint[] = [];
    if (system.length) breakpoints.push(mark(0));
    const last = this.options.lastBreakpoint === 'final-message' ? out.length - 1 : transcriptEnd;
    if (last > 0 || (last === 0 && !system.length)) breakpoints.push(mark(last));
    this.last = { version: state.version, messages: out, breakpoints };
    return out;
  }

  /** The cache breakpoints of the last render (see the header). */
  breakpoints(): Breakpoint[] {
    return this.last?.breakpoints ?? [];
  }

  /** A TOOL entry at `i` answers a call: the entries before it, back to an ASSISTANT one, are TOOL entries. */
  private answers(inline: readonly Entry[], i: number): boolean {
    let k = i - 1;
    while (inline[k]?.role === 'TOOL') k--;
    return inline[k]?.role === 'ASSISTANT';
  }

  private call(e: Entry, results: Entry[]): RenderedMessage {
    const hit = this.callCache.get(e);
    if (hit && sameEntries(hit.results, results)) return hit.message;
    const toolCalls: ToolCall[] = results.map((r) => ({ id: toolCallId(r), name: toolName(e), input: {} }));
    const message = { ...this.inline(e), toolCalls };
    this.callCache.set(e, { results, message });
    return message;
  }

  private result(e: Entry): RenderedMessage {
    let msg = this.resultCache.get(e);
    if (!msg) {
      msg = { ...this.inline(e), toolCallId: toolCallId(e) };
      this.resultCache.set(e, msg);
    }
    return msg;
  }

  private inline(e: Entry): RenderedMessage {
    let msg = this.inlineCache.get(e);
    if (!msg) {
      // A system-folded entry inline is a mid-conversation system message (lateSystem option), an L0 one too.
      msg = { role: isSystemFolded(e) ? 'system' : INLINE_ROLE[e.role], content: e.content, parts: [{ text: e.content, from: provenance(e) }] };
      this.inlineCache.set(e, msg);
    }
    return msg;
  }
}
