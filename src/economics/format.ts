/**
 * How token counts, shares and dollars are written everywhere (pages, the report, PR summaries):
 * grouped digits, ≈ before an approximate count, a share as a whole percent, dollars with enough
 * digits to show a fraction of a cent. Deterministic (no locale).
 */

const group = (n: number): string => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** `1,234` or `≈1,234`. */
export const formatTokens = (n: number, exact = true): string => `${exact ? '' : '≈'}${group(n)}`;

/** `+1,204` / `−96` / `±0`. */
export const formatDelta = (n: number, exact = true): string => (n === 0 ? '±0' : `${n > 0 ? '+' : '−'}${exact ? '' : '≈'}${group(Math.abs(n))}`);

/** `92 %` of a 0–1 share; `—` when there is none. */
export const formatShare = (x: number | null): string => (x === null ? '—' : `${Math.round(x * 100)} %`);

/** `$0.00237`: three significant digits below a cent, four decimals below a dollar, cents above. */
export function formatUsd(x: number): string {
  const a = Math.abs(x);
  const digits = a === 0 ? 2 : a < 0.01 ? Math.min(8, 2 - Math.floor(Math.log10(a))) : a < 1 ? 4 : 2;
  const fixed = a.toFixed(digits);
  return `${x < 0 ? '−' : ''}$${a < 0.01 && a > 0 ? fixed.replace(/0+$/, '') : fixed}`;
}

/** `+$0.003` / `−$0.001`. */
export const formatUsdDelta = (x: number): string => (x === 0 ? '±$0' : `${x > 0 ? '+' : '−'}${formatUsd(Math.abs(x))}`);

export const NO_PRICE = 'no price configured';

/** A figure for a stream the API would not accept as it is (Totals.rejected): no figure, this. */
export const REJECTED = 'rejected by the API';

/** `rejected by the API (2 requests)`. */
export const rejectedText = (rejected: number): string => `${REJECTED} (${rejected} request${rejected === 1 ? '' : 's'})`;

/** An idle time, unrounded: `30 min 1 s`, `1 h 2 min 0.5 s`, `0 s`. */
export function formatDuration(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const min = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.round((ms % 60_000) * 1000) / 1e6;
  const parts = [h ? `${h} h` : '', min ? `${min} min` : '', s || (!h && !min) ? `${s} s` : ''];
  return parts.filter(Boolean).join(' ');
}

/** `30 min`, `1 h`, `1 h 30 min` for a retention in minutes. */
export const formatMinutes = (m: number): string => formatDuration(m * 60_000);
