/**
 * Bounds of the numbers a scenario file gives: stream offsets, `occurrence`, `expect.maxInputTokens`
 * and the "@N" request references. YAML reads `off: 99999999999999999999` as a float that
 * JavaScript still calls an integer, but beyond Number.MAX_SAFE_INTEGER neighbouring offsets
 * collapse into one (two events, one `@` anchor; `@N + 1` equal to `@N`). Each validator returns a
 * problem sentence for an InputError at the value, or the number — the parser reports, never throws.
 */

/** The largest number a scenario may write anywhere (offsets, counts, limits): 2^53 − 1. */
export const MAX_WHOLE = Number.MAX_SAFE_INTEGER;

/** A whole number ≥ 0 read from YAML: undefined when fine, else what is wrong. */
export function wholeNumberProblem(value: number): string | undefined {
  if (!Number.isFinite(value) || !Number.isInteger(value) || value < 0) return 'must be a whole number ≥ 0';
  if (value > MAX_WHOLE) return `is beyond the largest exact whole number, ${MAX_WHOLE.toLocaleString('en')} (larger ones lose digits: neighbouring values become equal)`;
  return undefined;
}

/** A request reference `@N` (annotations' `request`, `expect.busts`): its offset, or what is wrong. */
export function readRequestRef(text: string): { offset: number } | { problem: string } {
  const m = /^@(\d+)$/.exec(text);
  if (!m) return { problem: `names requests as "@<offset>", got ${JSON.stringify(text)}` };
  const digits = m[1]!.replace(/^0+(?=\d)/, '');
  if (digits.length > 16 || Number(digits) > MAX_WHOLE)
    return { problem: `names offset ${digits}, beyond the largest offset a scenario may use, ${MAX_WHOLE.toLocaleString('en')}` };
  return { offset: Number(digits) };
}

/**
 * A `sections` batch takes offsets `off … off + size − 1`: undefined when the last one is still
 * exact, else what is wrong.
 */
export function batchEndProblem(first: number, size: number): string | undefined {
  return first + Math.max(0, size - 1) > MAX_WHOLE ? `its ${size} sections would take offsets past ${MAX_WHOLE.toLocaleString('en')}, the largest a scenario may use` : undefined;
}
