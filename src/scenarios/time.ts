/**
 * Elapsed-time labels (`250ms`, `4.2s`, `9m 18s`, `10m 16.3s`, a range `3m–19m` meaning its end) and
 * the instants derived from them: createdAt = time zero + label. A label is bounded (MAX_ELAPSED_MS,
 * far beyond any real agent run): a bigger one is a problem string, never an invalid Date later.
 */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const PART = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;

/** The longest elapsed time a label may say: 10 years (instants stay valid dates, milliseconds exact). */
export const MAX_ELAPSED_MS = 10 * 365 * 24 * 3_600_000;
const MAX_ELAPSED_TEXT = '87600h (10 years)';

/** Milliseconds of one end of a label (`9m 18s`), or undefined; Infinity when it is beyond MAX_ELAPSED_MS. */
function parseEnd(end: string): number | undefined {
  const words = end.trim().split(/\s+/);
  let total = 0;
  for (const w of words) {
    const m = PART.exec(w);
    if (!m) return undefined;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
  }
  return Number.isFinite(total) && total <= MAX_ELAPSED_MS ? Math.round(total) : Infinity;
}

/** Milliseconds for a label (a range counts as its end), or undefined when it is not a label. */
export function parseTimeLabel(label: string): number | undefined {
  const r = readTimeLabel(label);
  return 'ms' in r ? r.ms : undefined;
}

/** A label's milliseconds, or what is wrong with it (for the error message). */
export function readTimeLabel(label: string): { ms: number } | { problem: string } {
  const ends = label.split(/\s*[–-]\s*/);
  if (ends.length > 2) return { problem: 'a range has exactly two ends' };
  const ms = ends.map(parseEnd);
  if (ms.some((x) => x === undefined)) return { problem: 'it is not an elapsed time' };
  const tooLong = ms.indexOf(Infinity);
  if (tooLong >= 0) return { problem: `${JSON.stringify(ends[tooLong]!.trim())} is longer than the longest elapsed time a scenario may use, ${MAX_ELAPSED_TEXT}` };
  if (ms.length === 2 && ms[1]! < ms[0]!) return { problem: `the range ends (${ends[1]!.trim()}) before it starts (${ends[0]!.trim()})` };
  return { ms: ms.at(-1)! };
}

export const TIME_LABEL_HELP = 'write an elapsed time like `0ms`, `250ms`, `4.2s`, `9m 18s`, `1h 2m`, or a range `3m–19m` (its end counts)';

/** Time zero + elapsed as an ISO instant. A caller passes a label's milliseconds (≤ MAX_ELAPSED_MS, plus at most a fold's expiry); an instant past the Date range is clamped to its end rather than throwing. */
export function instant(timeZero: string, elapsedMs: number): string {
  const t = Date.parse(timeZero) + elapsedMs;
  return new Date(Math.max(-8.64e15, Math.min(8.64e15, Number.isFinite(t) ? t : 0))).toISOString();
}

/** Elapsed time for display: `4.2s`, `21m 30s`, `1h 2m 3s`. */
export function formatElapsed(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  const parts: string[] = [];
  if (h) parts.push(`${h}h`);
  if (m) parts.push(`${m}m`);
  if (s || !parts.length) parts.push(`${Number(s.toFixed(3))}s`);
  return parts.join(' ');
}
