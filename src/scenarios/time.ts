/**
 * Elapsed-time labels (`250ms`, `4.2s`, `9m 18s`, `10m 16.3s`, a range `3m–19m` meaning its end) and
 * the instants derived from them: createdAt = time zero + label.
 */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const PART = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;

/** Milliseconds of one end of a label (`9m 18s`), or undefined. */
function parseEnd(end: string): number | undefined {
  const words = end.trim().split(/\s+/);
  let total = 0;
  for (const w of words) {
    const m = PART.exec(w);
    if (!m) return undefined;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
  }
  return Math.round(total);
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
  if (ms.length === 2 && ms[1]! < ms[0]!) return { problem: `the range ends (${ends[1]!.trim()}) before it starts (${ends[0]!.trim()})` };
  return { ms: ms.at(-1)! };
}

export const TIME_LABEL_HELP = 'write an elapsed time like `0ms`, `250ms`, `4.2s`, `9m 18s`, `1h 2m`, or a range `3m–19m` (its end counts)';

export function instant(timeZero: string, elapsedMs: number): string {
  return new Date(Date.parse(timeZero) + elapsedMs).toISOString();
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
