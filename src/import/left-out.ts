/**
 * What an import leaves out, said rather than dropped silently: a capture reader (captures/) or the
 * span reader skips lines that are not requests (a transcript's `progress` lines, a rollout's UI
 * events, a span without its input messages, …). Each kind is counted with the reason and the first
 * line it was seen on, and the import prints them ("left out: 12 `progress` lines (not requests),
 * first at line 4"). Deterministic: kinds are listed in the order first met.
 *
 * Some of what a capture leaves out are requests the provider billed that it does not hold — a
 * Claude Code sub-agent whose own transcript was not read: those are marked (`requests`) and said
 * on the page as well, in the intro of the conversation they belong to (import/scenario.ts), since
 * a reader of that page would otherwise take its requests for all the session sent.
 */
import type { Conversation } from './log/group.ts';

/** One kind of thing an import left out. */
export interface LeftOut {
  /** What, as a plural noun phrase: "`progress` lines", "sub-agent replies", … */
  what: string;
  count: number;
  /** Why it is not a request of the scenario: "not requests", "never sent to the API", … */
  why: string;
  /** The first line of the file holding one. */
  line: number;
  /** That line's file, when the capture is a folder of several files (folder.ts). */
  file?: string;
  /**
   * These are `count` requests the provider billed that the capture does not hold, of
   * `conversation` — said on that conversation's page; without one, on the page of an import that
   * writes one scenario only (which conversation of several they were is not known).
   */
  requests?: { conversation?: Conversation };
}

/** Counts what a reader leaves out, by what and why. */
export class LeftOutTally {
  readonly #by = new Map<string, LeftOut>();

  /**
   * One (or `count`) more of `what`, left out because `why`, seen at `at`: a line, or a chunk (its
   * line and, in a folder, its file); `requests` when they are requests the capture does not hold (LeftOut.requests).
   */
  add(what: string, why: string, at: number | { line: number; file?: string }, count = 1, requests?: LeftOut['requests']): void {
    const { line, file } = typeof at === 'number' ? { line: at, file: undefined } : at;
    // Requests of two conversations are two entries: each is said on its own conversation's page.
    const k = [what, why, requests?.conversation?.by ?? '', requests?.conversation?.key ?? ''].join('\u0000');
    const e = this.#by.get(k);
    if (e) {
      e.count += count;
      // The first one met: in a folder, files come in path order; within a file, the lowest line.
      if (e.file === file && line < e.line) e.line = line;
    } else this.#by.set(k, { what, count, why, line, ...(file !== undefined && { file }), ...(requests && { requests }) });
  }

  list(): LeftOut[] {
    return [...this.#by.values()].map((e) => ({ ...e }));
  }
}

/** The requests left out that a scenario's page says are not there: those of its `conversation`, or every one when the import writes one scenario (undefined). */
export function absentRequests(leftOut: readonly LeftOut[], conversation: Conversation | undefined): LeftOut[] {
  return leftOut.filter((e) => e.requests && (conversation === undefined || (e.requests.conversation?.by === conversation.by && e.requests.conversation.key === conversation.key)));
}

/** The report line for what was left out: "left out: 12 `progress` lines (not requests; first at line 4)". */
export function leftOutLine(file: string, e: LeftOut): string {
  return `left out of ${file}: ${e.count} ${e.what} (${e.why}; first at line ${e.line}${e.file === undefined ? '' : ` of ${e.file}`})`;
}
