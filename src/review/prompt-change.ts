/**
 * What changed in the prompt itself, for a review's "Why": the printed request before
 * and after, split into its messages (print.ts's format: a header with `model:`, then one
 * `  - role: …` block per message), matched with the `diff` package's array diff so an inserted
 * message shows as one added message, not every later one as changed. A changed message says how
 * many of its lines differ. Pure and browser-safe.
 */
import { lineChanges } from '../prompt/diff.ts';

export interface MessageChange {
  status: 'changed' | 'added' | 'removed';
  /** 1-based position of the message: in the after request, or in the before one when removed. */
  index: number;
  role: string;
  /** Lines that differ inside the message (its whole length when added or removed). */
  lines: number;
}

export interface PromptChange {
  /** The `model:` line's value, when it differs. */
  model?: { before: string; after: string };
  messages: MessageChange[];
}

interface Message {
  role: string;
  lines: string[];
}

const ROLE = /^ {2}- role: (.*)$/;

function split(lines: readonly string[]): { model?: string; messages: Message[] } {
  let model: string | undefined;
  const messages: Message[] = [];
  for (const l of lines) {
    const role = ROLE.exec(l);
    if (role) messages.push({ role: role[1]!, lines: [l] });
    else if (messages.length) messages.at(-1)!.lines.push(l);
    else if (l.startsWith('model: ')) model = l.slice(7);
  }
  return { ...(model !== undefined && { model }), messages };
}

/** Lines that differ between two versions of a message (a changed line counts once). */
function changedLines(a: readonly string[], b: readonly string[]): number {
  let added = 0;
  let removed = 0;
  let changed = 0;
  for (const part of lineChanges(a, b)) {
    if (part.added) added += part.count ?? part.value.length;
    else if (part.removed) removed += part.count ?? part.value.length;
    else {
      changed += Math.max(added, removed);
      added = removed = 0;
    }
  }
  return changed + Math.max(added, removed);
}

/** The messages that differ between two printed requests, in order, and a model change. */
export function promptChange(before: readonly string[], after: readonly string[]): PromptChange {
  const [b, a] = [split(before), split(after)];
  const key = (m: Message): string => m.lines.join('\n');
  const out: MessageChange[] = [];
  let bi = 0;
  let ai = 0;
  let removed: Message[] = [];
  let added: Message[] = [];
  const flush = (): void => {
    // A run of removed messages next to a run of added ones: pairs in order are edits.
    const pairs = Math.min(removed.length, added.length);
    const firstAfter = ai - added.length;
    const firstBefore = bi - removed.length;
    for (let i = 0; i < pairs; i++) out.push({ status: 'changed', index: firstAfter + i + 1, role: added[i]!.role, lines: changedLines(removed[i]!.lines, added[i]!.lines) });
    for (let i = pairs; i < added.length; i++) out.push({ status: 'added', index: firstAfter + i + 1, role: added[i]!.role, lines: added[i]!.lines.length });
    for (let i = pairs; i < removed.length; i++) out.push({ status: 'removed', index: firstBefore + i + 1, role: removed[i]!.role, lines: removed[i]!.lines.length });
    removed = [];
    added = [];
  };
  for (const part of lineChanges(b.messages.map(key), a.messages.map(key))) {
    const n = part.count ?? part.value.length;
    if (part.removed) {
      removed.push(...b.messages.slice(bi, bi + n));
      bi += n;
    } else if (part.added) {
      added.push(...a.messages.slice(ai, ai + n));
      ai += n;
    } else {
      flush();
      bi += n;
      ai += n;
    }
  }
  flush();
  const model = b.model !== a.model ? { before: b.model ?? '(none)', after: a.model ?? '(none)' } : undefined;
  return { ...(model && { model }), messages: out };
}
