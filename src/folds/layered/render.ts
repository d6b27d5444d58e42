/**
 * Renders a placement as provider messages with provenance: the leading system fold, the inline
 * transcript, the steering reminder, the trailing user slot — in that order, each omitted when
 * empty. The slot comes last: the audit says the repair mandate is "emitted as the final message,
 * role user", and nothing may follow the authoritative channel. Every message's parts join to its content; a part's `from` is the entry it quotes (its
 * `entry/added` offset, plus the newest `entry/updated` offset when its text was rewritten);
 * separators and the consolidated header are the fold's own text (`from: []`), while a
 * `## <sourceType>` or `## Reminder` header belongs to its entry's part.
 *
 * Inline messages are cached per entry (entries are immutable), the system fold, slot and reminder
 * messages per list of entries, and a whole render per state version — so unchanged messages are
 * the same objects across snapshots (the printer caches its lines per message object).
 */
import type { Part, RenderedMessage } from '../types.ts';
import type { LayeredOptions } from './options.ts';
import { place } from './place.ts';
import type { Entry, State } from './reduce.ts';
import { CONSOLIDATED_HEADER, selectSlot } from './slot.ts';
import type { EntryRole } from './schema.ts';

export const SEPARATOR = '\n\n';
export const REMINDER_HEADER = '## Reminder';

const INLINE_ROLE: Record<Exclude<EntryRole, 'SYSTEM'>, string> = { USER: 'user', ASSISTANT: 'assistant', TOOL: 'tool' };

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

export class Renderer {
  private readonly options: LayeredOptions;
  private readonly inlineCache = new WeakMap<Entry, RenderedMessage>();
  private last: { version: number; messages: RenderedMessage[] } | null = null;
  private readonly systemMemo = new Memo();
  private readonly slotMemo = new Memo();
  private readonly reminderMemo = new Memo();

  constructor(options: LayeredOptions) {
    this.options = options;
  }

  render(state: State): RenderedMessage[] {
    if (this.last?.version === state.version) return this.last.messages;
    const placement = place(state.entries.values(), this.options.repairMandateSourceTypes);
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
    for (const e of placement.inline) out.push(this.inline(e));
    // The reminder goes BEFORE the slot: the mandate is "emitted as the final message, role user".
    if (reminders.length)
      out.push(
        this.reminderMemo.get(reminders, () =>
          joined(
            'user',
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
    this.last = { version: state.version, messages: out };
    return out;
  }

  private inline(e: Entry): RenderedMessage {
    let msg = this.inlineCache.get(e);
    if (!msg) {
      msg = { role: INLINE_ROLE[e.role as Exclude<EntryRole, 'SYSTEM'>], content: e.content, parts: [{ text: e.content, from: provenance(e) }] };
      this.inlineCache.set(e, msg);
    }
    return msg;
  }
}
