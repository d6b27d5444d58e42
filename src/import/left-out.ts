/**
 * What an import leaves out, said rather than dropped silently: a capture reader (captures/) or the
 * span reader skips lines that are not requests (a transcript's `progress` lines, a rollout's UI
 * events, a span without its input messages, …). Each kind is counted with the reason and the first
 * line it was seen on, and the import prints them ("left out: 12 `progress` lines (not requests),
 * first at line 4"). Deterministic: kinds are listed in the order first met.
 */

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
}

/** Counts what a reader leaves out, by what and why. */
export class LeftOutTally {
  readonly #by = new Map<string, LeftOut>();

  /** One (or `count`) more of `what`, left out because `why`, seen at `at`: a line, or a chunk (its line and, in a folder, its file). */
  add(what: string, why: string, at: number | { line: number; file?: string }, count = 1): void {
    const { line, file } = typeof at === 'number' ? { line: at, file: undefined } : at;
    const k = `${what}\u0000${why}`;
    const e = this.#by.get(k);
    if (e) {
      e.count += count;
      // The first one met: in a folder, files come in path order; within a file, the lowest line.
      if (e.file === file && line < e.line) e.line = line;
    } else this.#by.set(k, { what, count, why, line, ...(file !== undefined && { file }) });
  }

  list(): LeftOut[] {
    return [...this.#by.values()].map((e) => ({ ...e }));
  }
}

/** The report line for what was left out: "left out: 12 `progress` lines (not requests; first at line 4)". */
export function leftOutLine(file: string, e: LeftOut): string {
  return `left out of ${file}: ${e.count} ${e.what} (${e.why}; first at line ${e.line}${e.file === undefined ? '' : ` of ${e.file}`})`;
}
