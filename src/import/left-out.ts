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
}

/** Counts what a reader leaves out, by what and why. */
export class LeftOutTally {
  readonly #by = new Map<string, LeftOut>();

  /** One (or `count`) more of `what`, left out because `why`, seen at `line`. */
  add(what: string, why: string, line: number, count = 1): void {
    const k = `${what}\u0000${why}`;
    const e = this.#by.get(k);
    if (e) {
      e.count += count;
      if (line < e.line) e.line = line;
    } else this.#by.set(k, { what, count, why, line });
  }

  list(): LeftOut[] {
    return [...this.#by.values()].map((e) => ({ ...e }));
  }
}

/** The report line for what was left out: "left out: 12 `progress` lines (not requests; first at line 4)". */
export function leftOutLine(file: string, e: LeftOut): string {
  return `left out of ${file}: ${e.count} ${e.what} (${e.why}; first at line ${e.line})`;
}
