/**
 * The deterministic request printer (src/pages/reference/writing-scenarios.mdx), byte-compatible with the golden files:
 * `model:`, then `messages:` with each message's role, its content JSON-quoted on one line or as a
 * `|-` block indented six spaces, and its files. Each printed line keeps the event offsets its text
 * came from (provenance), so a page can link any line back to the event that produced it.
 *
 * Tool turns (the kit's convention, src/folds/tools.ts) print what the wire views send: an
 * assistant message's `toolCalls:` (one JSON line per call, after its content — a turn that only
 * calls a tool reads `content: ""` and then its calls), and a tool result's `toolCallId:`. The
 * golden files have neither (their fold sends no tool turns), so their bytes are unchanged.
 */
import type { Abridgement, RenderedMessage } from '../folds/types.ts';

export interface PrintedLine {
  text: string;
  /** Event offsets this line's text came from; [] for structure and fold-owned text. */
  from: number[];
  /** Index of the message the line belongs to; -1 for the `model:`/`messages:` header. */
  message: number;
  /** On an abridgement's stand-in line: the full text it stands in for (pages let it expand). */
  abridges?: string;
}

/** Indentation of a `|-` block's content lines (and of comments woven onto its empty lines). */
export const BLOCK_INDENT = '      ';

const union = (lists: number[][]): number[] => [...new Set(lists.flat())].sort((a, b) => a - b);

/** Content lines of a message, each with the offsets of the parts it overlaps. */
function contentLines(msg: RenderedMessage): { text: string; from: number[] }[] {
  const lines: { text: string; from: number[][] }[] = [{ text: '', from: [] }];
  for (const part of msg.parts) {
    const pieces = part.text.split('\n');
    pieces.forEach((piece, i) => {
      if (i > 0) lines.push({ text: '', from: [] });
      const cur = lines.at(-1)!;
      cur.text += piece;
      if (piece !== '' || pieces.length === 1) cur.from.push(part.from);
    });
  }
  return lines.map((l) => ({ text: l.text, from: union(l.from) }));
}

// Printed lines of a message depend only on the message object and its index: cache them, since
// folds return the same message objects for unchanged items across a scenario's snapshots.
const cache = new WeakMap<RenderedMessage, Map<number, PrintedLine[]>>();

function printMessage(msg: RenderedMessage, index: number, abridgements: readonly Abridgement[]): PrintedLine[] {
  const abridged = abridgements.find((a) => a.text === msg.content);
  let perIndex = cache.get(msg);
  const hit = abridged ? undefined : perIndex?.get(index);
  if (hit) return hit;
  const all = union(msg.parts.map((p) => p.from));
  const out: PrintedLine[] = [{ text: `  - role: ${msg.role}`, from: all, message: index }];
  if (abridged) {
    out.push({ text: `    content: ${JSON.stringify(abridged.standIn)}`, from: [], message: index, abridges: abridged.text });
  } else if (!msg.content.includes('\n')) {
    out.push({ text: `    content: ${JSON.stringify(msg.content)}`, from: all, message: index });
  } else {
    out.push({ text: '    content: |-', from: all, message: index });
    for (const l of contentLines(msg)) out.push({ text: l.text === '' ? '' : `${BLOCK_INDENT}${l.text}`, from: l.from, message: index });
  }
  if (msg.files?.length) {
    out.push({ text: '    files:', from: all, message: index });
    for (const f of msg.files) out.push({ text: `      - ${JSON.stringify(f)}`, from: all, message: index });
  }
  if (msg.toolCalls?.length) {
    out.push({ text: '    toolCalls:', from: all, message: index });
    for (const c of msg.toolCalls) out.push({ text: `      - ${JSON.stringify({ id: c.id, name: c.name, input: c.input })}`, from: all, message: index });
  }
  if (msg.toolCallId !== undefined) out.push({ text: `    toolCallId: ${JSON.stringify(msg.toolCallId)}`, from: all, message: index });
  if (abridged) return out;
  if (!perIndex) cache.set(msg, (perIndex = new Map()));
  perIndex.set(index, out);
  return out;
}

/**
 * Prints a request. `model` is null for a snapshot that is not a send (the state as of an event):
 * it prints `messages:` only. Abridgements are looked up per call (they are few).
 */
export function printRequest(model: string | null, messages: readonly RenderedMessage[], abridgements: readonly Abridgement[]): PrintedLine[] {
  const out: PrintedLine[] = [];
  if (model !== null) out.push({ text: `model: ${model}`, from: [], message: -1 });
  out.push({ text: 'messages:', from: [], message: -1 });
  messages.forEach((m, i) => {
    for (const l of printMessage(m, i, abridgements)) out.push(l);
  });
  return out;
}
